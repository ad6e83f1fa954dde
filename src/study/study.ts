/**
 * `watchmark study`: the bookmark study. Three runs with the same seed and
 * load (bookmarks on; off; off with the history window doubled, the costly
 * alternative), then pairs of runs with watchers of other selectivity. The
 * results go to stdout as tables, to study.json and to a chart.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { renderChart } from './chart.js';
import { shareOf, type WatcherClass, watcherSpecs } from './cluster.js';
import { bestRatio, expectedRestartWork } from './model.js';
import { layoutOf, MAX_ATTEMPTS, resolveOptions, type StudyOptions } from './options.js';
import { formatTables } from './report.js';
import {
  meanReconnectMs,
  type RunResult,
  type RunSpec,
  round,
  type Say,
  stallLimitMs,
  watchRestarts,
  workPerRestart,
} from './result.js';
import { runOnce } from './run.js';
import type { SelectivityRow, StudyResult } from './study-result.js';

export type { SelectivityRow, StudyResult } from './study-result.js';

const MIN = 60_000;

/** `path` relative to the working directory when below it, else as it is. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function bestPossible(o: StudyOptions): { ratio: number; share: number } {
  const best = bestRatio({
    churn: o.churn,
    historyWindowS: o.historyWindowMs / 1000,
    bookmarkLeadS: o.bookmarkLeadMs / 1000,
    objects: layoutOf(o).nodes * o.podsPerNode,
  });
  return { ratio: round(best.ratio, 4), share: round(best.share, 5) };
}

function mainRuns(o: StudyOptions): RunSpec[] {
  const layout = layoutOf(o);
  const watchers = [
    ...watcherSpecs('node', o.watchers, layout),
    ...watcherSpecs('all', o.namespaceWatchers, layout),
  ];
  const base = { durationMs: o.durationMs, watchers };
  return [
    { ...base, id: 'bookmarks', label: 'bookmarks on', bookmarks: true, historyWindowMs: o.historyWindowMs },
    {
      ...base,
      id: 'no-bookmarks',
      label: 'bookmarks off',
      bookmarks: false,
      historyWindowMs: o.historyWindowMs,
    },
    {
      ...base,
      id: 'no-bookmarks-2x',
      label: 'off, window x2',
      bookmarks: false,
      historyWindowMs: 2 * o.historyWindowMs,
    },
  ];
}

/**
 * The watchers of each selectivity pair: one per rack, three per zone, ten
 * namespace-wide; enough restarts per run (each watcher restarts once or
 * twice) for a stable average.
 */
const SELECTIVITY: Array<{ class: WatcherClass; count: (o: StudyOptions) => number }> = [
  { class: 'rack', count: (o) => layoutOf(o).racks },
  { class: 'zone', count: (o) => 3 * layoutOf(o).zones },
  { class: 'all', count: () => 10 },
];

function selectivityRuns(o: StudyOptions): RunSpec[] {
  const layout = layoutOf(o);
  return SELECTIVITY.flatMap(({ class: cls, count }) =>
    [true, false].map((bookmarks) => ({
      id: `${cls}-${bookmarks ? 'bookmarks' : 'no-bookmarks'}`,
      label: `${cls} watchers, bookmarks ${bookmarks ? 'on' : 'off'}`,
      bookmarks,
      historyWindowMs: o.historyWindowMs,
      durationMs: o.selectivityDurationMs,
      watchers: watcherSpecs(cls, count(o), layout),
    })),
  );
}

/** Runs the study and writes its files; progress and tables go to `say`. */
export async function runStudy(
  given: Partial<StudyOptions> = {},
  say: Say = console.log,
): Promise<StudyResult> {
  const o = resolveOptions(given);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const specs = [...mainRuns(o), ...(o.selectivity ? selectivityRuns(o) : [])];
  say(
    `watchmark study: ${o.watchers} kubelet-like watchers + ${o.namespaceWatchers} namespace-wide, ` +
      `${o.podsPerNode} pods per node, ${o.churn} pod writes/s, ${o.durationMs / MIN} cluster minutes per run, ` +
      `time scale ${o.timeScale}x (1 cluster minute = ${(60 / o.timeScale).toFixed(1)} s), seed ${o.seed}`,
  );
  if (!o.quick) {
    // The first run would otherwise pay for the client's JIT warm-up and heap growth
    // (about a CPU second here), and the first run is the one with bookmarks.
    say('[warm-up] 2 cluster minutes of the first run, not recorded');
    await runOnce(o, { ...specs[0], id: 'warm-up', durationMs: 2 * MIN }, () => {});
  }
  const runs: RunResult[] = [];
  for (const [i, spec] of specs.entries()) {
    say(`[${i + 1}/${specs.length}] ${spec.label}, history window ${spec.historyWindowMs / 1000} s`);
    const t = performance.now();
    runs.push(await runRepeatingDisturbed(o, spec, say));
    say(
      `    done in ${((performance.now() - t) / 1000).toFixed(0)} s, ${((performance.now() - started) / 1000).toFixed(0)} s so far`,
    );
  }
  const byId = new Map(runs.map((r) => [r.id, r]));
  const on = byId.get('bookmarks')!;
  const off = byId.get('no-bookmarks')!;
  const off2 = byId.get('no-bookmarks-2x')!;
  const result: StudyResult = {
    options: o,
    startedAt,
    realSeconds: 0,
    runs,
    ratio: round(workPerRestart(on) / Math.max(1e-9, workPerRestart(off)), 4),
    ratioVsDoubledWindow: round(workPerRestart(on) / Math.max(1e-9, workPerRestart(off2)), 4),
    totalRatio: round(on.restartWork / Math.max(1, off.restartWork), 4),
    totalRatioVsDoubledWindow: round(on.restartWork / Math.max(1, off2.restartWork), 4),
    bestPossibleRatio: bestPossible(o),
    missedEvents: runs.reduce((n, r) => n + r.verify.missing + r.verify.extra + r.verify.stale, 0),
    selectivity: selectivityTable(o, byId),
    files: { json: '', svg: '' },
  };
  const outDir = resolve(o.outDir);
  await mkdir(outDir, { recursive: true });
  const jsonFile = join(outDir, 'study.json');
  const chart = await renderChart(result, outDir);
  // Paths as given from the working directory: results carry no machine paths.
  result.files = {
    svg: shown(chart.svg),
    ...(chart.png ? { png: shown(chart.png) } : {}),
    ...(chart.pngNote ? { pngNote: chart.pngNote } : {}),
    json: shown(jsonFile),
  };
  result.realSeconds = round((performance.now() - started) / 1000, 1);
  await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  say('');
  say(formatTables(result));
  return result;
}

/**
 * Runs `spec`, again if a stall disturbed it. The criterion is fixed before
 * looking at any result ({@link stallLimitMs}) and the same for every run: on
 * a shared machine another process can freeze ours for seconds, which at 30x
 * is minutes of cluster time.
 */
async function runRepeatingDisturbed(o: StudyOptions, spec: RunSpec, say: Say): Promise<RunResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await runOnce(o, spec, say);
    result.attempt = attempt;
    if (!result.disturbed || attempt === MAX_ATTEMPTS) return result;
    say(
      `    disturbed: longest stall client ${result.eventLoopDelayMs.max} ms, server ${result.serverDelayMs.max} ms, ` +
        `slowest write ${result.churn.maxLatencyMs} ms (limit ${stallLimitMs(o)} ms): running it again`,
    );
  }
}

function selectivityTable(o: StudyOptions, byId: Map<string, RunResult>): SelectivityRow[] {
  const layout = layoutOf(o);
  const pods = layout.nodes * o.podsPerNode;
  const selects: Record<WatcherClass, string> = {
    node: `1 of ${layout.nodes} nodes`,
    rack: `1 of ${layout.racks} racks`,
    zone: `1 of ${layout.zones} zones`,
    all: 'the namespace',
  };
  const pairs: Array<[WatcherClass, string, string]> = [['node', 'bookmarks', 'no-bookmarks']];
  for (const { class: cls } of SELECTIVITY) pairs.push([cls, `${cls}-bookmarks`, `${cls}-no-bookmarks`]);
  const rows: SelectivityRow[] = [];
  for (const [cls, withId, withoutId] of pairs) {
    const w = byId.get(withId);
    const wo = byId.get(withoutId);
    if (!w || !wo) continue;
    const cw = w.clientsByClass[cls]!;
    const cwo = wo.clientsByClass[cls]!;
    const share = shareOf(cls, layout);
    const seen = (cwo.events.ADDED + cwo.events.MODIFIED + cwo.events.DELETED) / cwo.watchers;
    const model = expectedRestartWork({
      churn: o.churn,
      share,
      historyWindowS: o.historyWindowMs / 1000,
      bookmarkLeadS: o.bookmarkLeadMs / 1000,
      objects: share * pods,
      reconnectS: (meanReconnectMs(w) * o.timeScale) / 1000,
    });
    const perW = workPerRestart(w);
    const perWo = workPerRestart(wo);
    rows.push({
      class: cls,
      selects: selects[cls],
      watchers: cw.watchers,
      share,
      seenShare: round(seen / Math.max(1, wo.churn.writes), 4),
      restartsWith: watchRestarts(w),
      restartsWithout: watchRestarts(wo),
      workPerRestartWith: round(perW, 2),
      workPerRestartWithout: round(perWo, 2),
      // Under one event of work per restart either way there is nothing to save: no ratio.
      ratio: perWo < 1 ? null : round(perW / perWo, 4),
      relistsWith: cw.lists.expired,
      relistsWithout: cwo.lists.expired,
      model: {
        withBookmarks: round(model.withBookmarks, 2),
        withoutBookmarks: round(model.withoutBookmarks, 2),
        expiredShare: round(model.expiredShare, 3),
        ratio: model.withoutBookmarks < 1 ? null : round(model.withBookmarks / model.withoutBookmarks, 4),
      },
      runs: [withId, withoutId],
    });
  }
  return rows;
}
