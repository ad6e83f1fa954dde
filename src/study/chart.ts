/**
 * The study's chart, as SVG text built by hand (no charting dependency):
 * two panels over cluster minutes, cumulative server restart work and
 * cumulative relists, one line per main run. A PNG is rendered from it when
 * a converter is on the machine (rsvg-convert, or ImageMagick's convert).
 */
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunPoint, RunResult } from './result.js';
import type { ChartFiles, StudyResult } from './study-result.js';

export type { ChartFiles } from './study-result.js';

const COLORS = ['#1b7837', '#c51b7d', '#e08214'];
const W = 960;
const H = 480;
const PANEL = { top: 70, bottom: 90, left: 70, width: 380, gap: 100 };

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A "nice" axis maximum and step (1, 2 or 5 times a power of ten) for values up to `max`. */
export function niceScale(max: number, ticks = 5): { max: number; step: number } {
  if (!(max > 0)) return { max: 1, step: 0.2 };
  const raw = max / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  return { max: Math.ceil(max / step) * step, step };
}

function label(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(+v.toFixed(2));
}

function panel(
  runs: RunResult[],
  x0: number,
  title: string,
  value: (p: RunPoint) => number,
  minutes: number,
): string {
  const { top, bottom, width } = PANEL;
  const height = H - top - bottom;
  const y = niceScale(Math.max(1, ...runs.flatMap((r) => r.timeline.map(value))));
  const xs = niceScale(minutes, 6);
  const px = (m: number) => x0 + (m / xs.max) * width;
  const py = (v: number) => top + height - (v / y.max) * height;
  const parts: string[] = [];
  parts.push(
    `<text x="${x0 + width / 2}" y="${top - 12}" text-anchor="middle" font-weight="bold">${esc(title)}</text>`,
  );
  for (let v = 0; v <= y.max + 1e-9; v += y.step) {
    parts.push(`<line x1="${x0}" x2="${x0 + width}" y1="${py(v)}" y2="${py(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${x0 - 6}" y="${py(v) + 4}" text-anchor="end">${label(v)}</text>`);
  }
  for (let m = 0; m <= xs.max + 1e-9; m += xs.step) {
    parts.push(`<text x="${px(m)}" y="${top + height + 18}" text-anchor="middle">${label(m)}</text>`);
  }
  parts.push(
    `<text x="${x0 + width / 2}" y="${top + height + 36}" text-anchor="middle">cluster minutes</text>`,
    `<rect x="${x0}" y="${top}" width="${width}" height="${height}" fill="none" stroke="#888"/>`,
  );
  runs.forEach((r, i) => {
    const points = [{ minute: 0, v: 0 }, ...r.timeline.map((p) => ({ minute: p.minute, v: value(p) }))];
    const d = points.map((p) => `${px(p.minute).toFixed(1)},${py(p.v).toFixed(1)}`).join(' ');
    parts.push(
      `<polyline points="${d}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="2"/>`,
    );
  });
  return parts.join('\n');
}

/** The SVG text for a study's main runs. */
export function chartSvg(result: StudyResult): string {
  const runs = result.runs.slice(0, 3);
  const o = result.options;
  const minutes = Math.max(...runs.map((r) => r.clusterMinutes));
  const legend = runs
    .map((r, i) => {
      const x = PANEL.left + i * 260;
      return (
        `<line x1="${x}" x2="${x + 24}" y1="${H - 20}" y2="${H - 20}" stroke="${COLORS[i]}" stroke-width="3"/>` +
        `<text x="${x + 30}" y="${H - 16}">${esc(`${r.label} (window ${r.historyWindowMs / 1000} s)`)}</text>`
      );
    })
    .join('\n');
  const title =
    `Bookmark study: ${o.watchers} kubelet-like watchers, ${o.churn} pod writes/s, ` +
    `time scale ${o.timeScale}x, seed ${o.seed}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
    panel(
      runs,
      PANEL.left,
      'server restart work (init events examined + objects relisted)',
      (p) => p.restartWork,
      minutes,
    ),
    panel(runs, PANEL.left + PANEL.width + PANEL.gap, 'relists (cumulative)', (p) => p.relists, minutes),
    legend,
    '</svg>',
    '',
  ].join('\n');
}

/** Runs a converter; its failure carries the first line of what it printed. */
function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 30_000 }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      const code = (err as NodeJS.ErrnoException).code;
      reject(new Error(code === 'ENOENT' ? 'not installed' : String(stderr || err.message).split('\n')[0]));
    });
  });
}

/** Writes study.svg, and study.png when a renderer is found. */
export async function renderChart(result: StudyResult, dir: string): Promise<ChartFiles> {
  const svg = join(dir, 'study.svg');
  await writeFile(svg, chartSvg(result));
  const png = join(dir, 'study.png');
  const renderers: Array<[string, string[]]> = [
    ['rsvg-convert', ['-o', png, svg]],
    ['convert', ['-density', '120', svg, png]],
    [
      'chromium',
      ['--headless', '--no-sandbox', `--screenshot=${png}`, `--window-size=${W},${H}`, `file://${svg}`],
    ],
  ];
  const failures: string[] = [];
  for (const [cmd, args] of renderers) {
    try {
      await run(cmd, args);
      return { svg, png };
    } catch (err) {
      failures.push(`${cmd}: ${(err as Error).message}`);
    }
  }
  // A PNG left by an earlier run would no longer match the SVG.
  await rm(png, { force: true });
  return { svg, pngNote: `no PNG (${failures.join('; ')})` };
}
