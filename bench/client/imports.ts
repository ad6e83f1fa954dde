/**
 * The client benchmark's build of dist/ and its import-cost phase: each
 * library imported by a fresh `node`, interleaved, medians of the runs.
 */
import { spawnSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, round } from '../lib/report.js';

/** The repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One import measurement. */
export interface ImportSample {
  /** Wall time of the `import()` itself. */
  ms: number;
  /** CPU time over the same span (all threads): steadier than `ms` on a busy machine. */
  cpuMs: number;
  /** RSS after the import minus RSS before it. */
  rssDeltaMB: number;
  /** RSS of the whole process after the import (node itself included). */
  rssMB: number;
}

export interface ImportCost extends ImportSample {
  library: string;
  specifier: string;
  /** The figures above are medians of these. */
  runs: ImportSample[];
}

/** One fresh `node` that imports only `specifier` (run from the repo root, so bare names resolve). */
export function importOnce(specifier: string): ImportSample {
  const code = `
    const rss0 = process.memoryUsage.rss();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await import(${JSON.stringify(specifier)});
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const rss1 = process.memoryUsage.rss();
    console.log(JSON.stringify({
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssDeltaMB: (rss1 - rss0) / 1048576,
      rssMB: rss1 / 1048576,
    }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) throw new Error(`importing ${specifier} failed: ${r.stderr || r.error?.message}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

export function measureImports(runs: number, log: (s: string) => void): ImportCost[] {
  const libs = [
    { library: 'node (nothing)', specifier: 'node:os' },
    { library: 'watchmark', specifier: pathToFileURL(resolve(ROOT, 'dist/index.js')).href },
    { library: '@kubernetes/client-node', specifier: '@kubernetes/client-node' },
  ];
  const samples = libs.map(() => [] as ImportSample[]);
  // Interleaved, so a noisy moment hits every library alike.
  for (let i = 0; i < runs; i++) {
    for (const [j, l] of libs.entries()) samples[j].push(importOnce(l.specifier));
  }
  const out = libs.map((l, j) => ({
    ...l,
    // Recorded from the repository root: results carry no machine paths.
    specifier: l.specifier.startsWith('file:') ? relative(ROOT, fileURLToPath(l.specifier)) : l.specifier,
    ms: round(median(samples[j].map((s) => s.ms)), 1),
    cpuMs: round(median(samples[j].map((s) => s.cpuMs)), 1),
    rssDeltaMB: round(median(samples[j].map((s) => s.rssDeltaMB)), 1),
    rssMB: round(median(samples[j].map((s) => s.rssMB)), 1),
    runs: samples[j].map((s) => ({
      ms: round(s.ms, 1),
      cpuMs: round(s.cpuMs, 1),
      rssDeltaMB: round(s.rssDeltaMB, 1),
      rssMB: round(s.rssMB, 1),
    })),
  }));
  for (const c of out) log(`import ${c.library}: ${c.ms} ms (cpu ${c.cpuMs} ms), +${c.rssDeltaMB} MB RSS`);
  return out;
}

/**
 * Builds dist/'s JavaScript (watchmark runs from it, as users run it): the bundle alone, without
 * the type declarations, takes a second or two, which the quick mode's budget needs.
 */
export function build(log: (s: string) => void): string | undefined {
  log('building dist/ (scripts/build.ts --js-only)');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--js-only', '--silent'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (r.status === 0) return undefined;
  const warning = `the build exited ${r.status ?? r.signal}: ${(r.stdout + r.stderr).trim().split('\n').slice(0, 5).join(' | ')}`;
  log(`WARNING: ${warning}`);
  return warning;
}
