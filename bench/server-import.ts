/**
 * What a program pays to use the server as a library: the time to import
 * `watchmark/server` and for `startServer()` to be ready, each in a fresh
 * Node process (module caches are per process, so only a fresh one shows the
 * cost a test suite pays once). Two builds are measured, the compiled
 * package (dist/, what `import 'watchmark/server'` loads; needs `npm run
 * build`) and the TypeScript sources through tsx (what this repository's own
 * tests load), each starting over plain HTTP (no TLS, no auth) and with the
 * defaults (a generated serving certificate and a token).
 *
 *   npm run bench:import                 # 7 processes per case, writes bench/results/server-import.json
 *   npm run bench:import -- --quick      # 2 per case, prints only
 *   npm run bench:import -- --baseline OTHER/dist/server/index.js
 *                                        # another build (an earlier commit's) in the same run, and
 *                                        # this build's ratios against it
 *
 * The target (issue #11) is reported, never asserted: import + ready within
 * 100 ms, with the defaults as well as over plain HTTP. A second table sets
 * the two starts side by side per build: what the default TLS costs on top.
 * Medians over the processes; the machine's load over the run is recorded.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { otherLoad, readMachineCpu } from './lib/machine-load.js';
import { round, table } from './lib/report.js';

const TARGET_MS = 100;
const OUT = fileURLToPath(new URL('./results/server-import.json', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/server/index.js', import.meta.url));
const SRC = fileURLToPath(new URL('../src/server/index.ts', import.meta.url));

/** One child's figures (ms). */
interface Sample {
  importMs: number;
  startMs: number;
  totalMs: number;
  /** The child's own CPU (user + system) over its life. */
  cpuMs: number;
}

interface Case {
  build: 'dist' | 'src (tsx)' | 'baseline dist';
  start: 'plain HTTP' | 'TLS + token (defaults)';
  runs: Sample[];
  medianImportMs: number;
  medianStartMs: number;
  medianTotalMs: number;
  /** Median total / target: at most 1 holds the target. */
  vsTarget: number;
}

/** Per build, the default (TLS) start against plain HTTP, from the median totals. */
interface TlsCost {
  build: Case['build'];
  plainHttpTotalMs: number;
  defaultTlsTotalMs: number;
  /** What the generated certificate and HTTPS server add. */
  tlsExtraMs: number;
  /** Default TLS total / plain HTTP total. */
  tlsOverPlain: number;
}

function tlsCosts(results: Case[]): TlsCost[] {
  const costs: TlsCost[] = [];
  for (const build of new Set(results.map((c) => c.build))) {
    const plain = results.find((c) => c.build === build && c.start === 'plain HTTP');
    const tls = results.find((c) => c.build === build && c.start === 'TLS + token (defaults)');
    if (!plain || !tls) continue;
    costs.push({
      build,
      plainHttpTotalMs: plain.medianTotalMs,
      defaultTlsTotalMs: tls.medianTotalMs,
      tlsExtraMs: round(tls.medianTotalMs - plain.medianTotalMs),
      tlsOverPlain: round(tls.medianTotalMs / plain.medianTotalMs, 2),
    });
  }
  return costs;
}

// The child imports the module, starts a server on a free port, closes it and prints its figures.
const childCode = (entry: string, options: object) => `
const t0 = performance.now();
const m = await import(${JSON.stringify(entry)});
const t1 = performance.now();
const s = await m.startServer(${JSON.stringify({ ...options, compactionInterval: 0 })});
const t2 = performance.now();
await s.close();
const cpu = process.cpuUsage();
console.log(JSON.stringify({ importMs: t1 - t0, startMs: t2 - t1, totalMs: t2 - t0, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

function runChild(entry: string, options: object, tsx: boolean): Promise<Sample> {
  const argv = [...(tsx ? ['--import', 'tsx'] : []), '--input-type=module', '-e', childCode(entry, options)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`import child exited ${code}: ${err.trim().split('\n')[0]}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Sample);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/** Runs every case `runs` times, interleaved so a burst of load spreads over all cases. */
async function measureImport(runs: number, log: (line: string) => void = () => {}, baseline?: string) {
  const builds: Array<[Case['build'], string, boolean]> = [];
  if (baseline) builds.push(['baseline dist', baseline, false]);
  if (existsSync(DIST)) builds.push(['dist', DIST, false]);
  else log('dist/ is not built: measuring the sources only (run `npm run build` for the package figures)');
  builds.push(['src (tsx)', SRC, true]);
  const starts: Array<[Case['start'], object]> = [
    ['plain HTTP', { insecureHttp: true, insecureNoAuth: true }],
    ['TLS + token (defaults)', {}],
  ];
  const cases = builds.flatMap(([build, entry, tsx]) =>
    starts.map(([start, options]) => ({ build, start, entry, tsx, options, runs: [] as Sample[] })),
  );
  const before = readMachineCpu();
  const t0 = Date.now();
  let childCpuMs = 0;
  // One process first, not counted: it warms the disk cache and tsx's transform cache.
  for (const c of cases) await runChild(c.entry, c.options, c.tsx);
  for (let i = 0; i < runs; i++) {
    for (const c of cases) {
      const sample = await runChild(c.entry, c.options, c.tsx);
      childCpuMs += sample.cpuMs;
      c.runs.push(sample);
    }
    log(`round ${i + 1}/${runs}`);
  }
  // The children's CPU is ours; whatever else the machine did is load.
  const load = otherLoad(before, readMachineCpu(), childCpuMs, Date.now() - t0);
  const results: Case[] = cases.map((c) => {
    const total = median(c.runs.map((r) => r.totalMs));
    return {
      build: c.build,
      start: c.start,
      runs: c.runs.map((r) => ({
        importMs: round(r.importMs),
        startMs: round(r.startMs),
        totalMs: round(r.totalMs),
        cpuMs: round(r.cpuMs),
      })),
      medianImportMs: round(median(c.runs.map((r) => r.importMs))),
      medianStartMs: round(median(c.runs.map((r) => r.startMs))),
      medianTotalMs: round(total),
      vsTarget: round(total / TARGET_MS, 2),
    };
  });
  return { results, otherCpuPercent: load?.otherCpuPercent, stealPercent: load?.stealPercent };
}

/** Prints the table of {@link measureImport}'s figures. */
function printImport(m: Awaited<ReturnType<typeof measureImport>>): void {
  console.log(
    `\nImport + startServer() ready, fresh process each (median ms; target <= ${TARGET_MS} ms total)`,
  );
  console.log(
    table(
      ['build', 'start', 'import', 'ready', 'total', 'vs target', 'runs'],
      m.results.map((c) => [
        c.build,
        c.start,
        c.medianImportMs,
        c.medianStartMs,
        c.medianTotalMs,
        c.vsTarget,
        c.runs.length,
      ]),
    ),
  );
  console.log('\nDefault TLS (generated CA + serving certificate) against plain HTTP, median total ms');
  console.log(
    table(
      ['build', 'plain HTTP', 'default TLS', 'TLS extra', 'TLS / plain'],
      tlsCosts(m.results).map((c) => [
        c.build,
        c.plainHttpTotalMs,
        c.defaultTlsTotalMs,
        c.tlsExtraMs,
        c.tlsOverPlain,
      ]),
    ),
  );
  console.log(`  other processes used ${m.otherCpuPercent ?? '-'}% of a core during the run`);
  const against = baselineRatios(m.results);
  if (against.length > 0) {
    console.log('\nThis build against the baseline build, same run (median ms)');
    console.log(
      table(
        ['start', 'import', 'baseline import', 'import ratio', 'total', 'baseline total', 'total ratio'],
        against.map((r) => [
          r.start,
          r.importMs,
          r.baselineImportMs,
          r.importRatio,
          r.totalMs,
          r.baselineTotalMs,
          r.totalRatio,
        ]),
      ),
    );
  }
}

/** dist against `--baseline`'s dist, per start: what a change cost the package's import and start. */
function baselineRatios(results: Case[]) {
  return results
    .filter((c) => c.build === 'dist')
    .flatMap((c) => {
      const base = results.find((b) => b.build === 'baseline dist' && b.start === c.start);
      if (!base) return [];
      return [
        {
          start: c.start,
          importMs: c.medianImportMs,
          baselineImportMs: base.medianImportMs,
          importRatio: round(c.medianImportMs / base.medianImportMs, 2),
          totalMs: c.medianTotalMs,
          baselineTotalMs: base.medianTotalMs,
          totalRatio: round(c.medianTotalMs / base.medianTotalMs, 2),
        },
      ];
    });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const at = argv.indexOf('--baseline');
  const baseline = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && (!baseline || !existsSync(baseline)))
    throw new Error(
      `--baseline needs the entry file of another build (a dist/server/index.js); ${baseline ?? 'none'} is not there`,
    );
  const unknown = argv.filter((a, i) => a !== '--quick' && i !== at && i !== at + 1);
  if (unknown.length > 0)
    throw new Error(
      `unknown argument ${unknown[0]}; usage: npm run bench:import -- [--quick] [--baseline OTHER/dist/server/index.js]`,
    );
  const started = new Date();
  const m = await measureImport(quick ? 2 : 7, (line) => console.log(line), baseline);
  printImport(m);
  if (quick) {
    console.log('\n(quick run: no JSON written)');
    return;
  }
  mkdirSync(dirname(OUT), { recursive: true });
  const doc = {
    benchmark: 'server-import',
    date: started.toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    targetMs: TARGET_MS,
    otherCpuPercent: m.otherCpuPercent,
    stealPercent: m.stealPercent,
    cases: m.results,
    tlsVsPlain: tlsCosts(m.results),
    ...(baseline
      ? { baseline: relative(process.cwd(), baseline), againstBaseline: baselineRatios(m.results) }
      : {}),
  };
  writeFileSync(OUT, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`\nwrote ${relative(process.cwd(), OUT)}`);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
