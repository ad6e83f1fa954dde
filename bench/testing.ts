/**
 * bench:testing: what `watchmark/testing` costs a test suite, each figure beside a baseline
 * from the same run.
 *
 * 1. Start: `testCluster()` with kube-controller-manager's namespace and garbage collection
 *    controllers and 8 real CRDs (support/fixtures/crds) until it resolves: the CRDs
 *    Established and served, the collector's monitors synced. Median after warm-up, in one
 *    process. Baseline: a bare `startServer()` (the floor under any cluster this process can
 *    start). Also the first start of a setup (nothing to reuse: every CRD installed through
 *    the API), for what a single-cluster run pays. Target (issue 24): <= 50 ms median.
 * 2. 100 clusters at once in one process, each with the same setup, each isolated (each writes
 *    one object and must see only its own): total time, and memory per cluster (RSS and heap
 *    over a post-GC baseline, all 100 open).
 * 3. snapshot() and restore() of a cluster holding 1,000 ConfigMaps. Target: <= 10 ms each.
 *    Baseline for restore: putting the same 1,000 objects back through the API (what a suite
 *    without restore does between tests).
 *
 * Each round records the CPU other processes used; rounds where they used more than 10 % of
 * a core are marked and left out of the medians.
 *
 *   npm run bench:testing              # full: writes bench/results/testing.json
 *   npm run bench:testing -- --quick   # fewer rounds, prints only
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startServer } from '../src/server/index.js';
import { type TestCluster, testCluster } from '../src/testing/index.js';
import { REAL_CRDS } from '../support/fixtures/crds/index.js';
import { otherLoad, processCpuMs, readMachineCpu } from './lib/machine-load.js';
import { round, table } from './lib/report.js';

const quick = process.argv.includes('--quick');
const OUT = fileURLToPath(new URL('./results/testing.json', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../support/fixtures/crds/', import.meta.url));
const CRD_FILES = REAL_CRDS.slice(0, 8).map((c) => join(FIXTURES, c.file));
const TARGETS = { startMs: 50, snapshotMs: 10, restoreMs: 10 };
const BUSY_PERCENT = 10;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const median = (xs: number[]) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Round {
  ms: number;
  otherCpuPercent: number | undefined;
}

/** Times `fn`, with the CPU other processes used meanwhile. */
async function timed(fn: () => Promise<unknown>): Promise<Round> {
  const ownBefore = processCpuMs(process.pid) ?? 0;
  const before = readMachineCpu();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const load = otherLoad(before, readMachineCpu(), (processCpuMs(process.pid) ?? 0) - ownBefore, ms);
  return { ms, otherCpuPercent: load === undefined ? undefined : round(load.otherCpuPercent, 0) };
}

/**
 * Runs `fn` `rounds` times, in batches of `batch`, timing each round and taking the CPU other
 * processes used over the whole batch: /proc/stat counts in 10 ms ticks, too coarse for a round
 * of a few ms, so a batch's load marks each of its rounds.
 */
async function batched<T = number>(
  rounds: number,
  batch: number,
  fn: () => Promise<T>,
): Promise<Array<{ value: T; otherCpuPercent: number | undefined }>> {
  const out: Array<{ value: T; otherCpuPercent: number | undefined }> = [];
  while (out.length < rounds) {
    const ownBefore = processCpuMs(process.pid) ?? 0;
    const before = readMachineCpu();
    const t0 = performance.now();
    const values: T[] = [];
    for (let i = 0; i < batch && out.length + values.length < rounds; i++) values.push(await fn());
    const load = otherLoad(
      before,
      readMachineCpu(),
      (processCpuMs(process.pid) ?? 0) - ownBefore,
      performance.now() - t0,
    );
    const other = load === undefined ? undefined : round(load.otherCpuPercent, 0);
    for (const value of values) out.push({ value, otherCpuPercent: other });
  }
  return out;
}

/**
 * Median of the quiet rounds, and how many were left out. With fewer than three quiet rounds
 * the median is of every round, and says so (`fromBusyRounds`): a figure, marked, rather than none.
 */
function quietMedian(rounds: Round[]) {
  const quiet = rounds.filter((r) => (r.otherCpuPercent ?? 0) <= BUSY_PERCENT);
  const fromBusyRounds = quiet.length < 3;
  return {
    medianMs: round(median((fromBusyRounds ? rounds : quiet).map((r) => r.ms)), 2),
    rounds: rounds.length,
    busyRoundsLeftOut: fromBusyRounds ? 0 : rounds.length - quiet.length,
    fromBusyRounds,
    allRoundsMs: rounds.map((r) => round(r.ms, 1)),
    otherCpuPercent: rounds.map((r) => r.otherCpuPercent ?? null),
  };
}

async function startFigures() {
  const rounds = quick ? 10 : 30;
  // The first cluster of this setup installs it; its time is what a one-cluster run pays.
  let firstCluster: TestCluster | undefined;
  const first = await timed(async () => {
    firstCluster = await testCluster({ crds: CRD_FILES });
  });
  await firstCluster?.close();
  const cold: Round[] = [first];
  for (let i = 0; i < (quick ? 2 : 4); i++) {
    let c: TestCluster | undefined;
    cold.push(await timed(async () => (c = await testCluster({ crds: CRD_FILES, reuseSetup: false }))));
    await c?.close();
  }
  // Warm-up: the first starts load code and fill the process's caches.
  for (let i = 0; i < 3; i++) await (await testCluster({ crds: CRD_FILES })).close();
  const asRounds = (xs: Array<{ value: number; otherCpuPercent: number | undefined }>): Round[] =>
    xs.map((x) => ({ ms: x.value, otherCpuPercent: x.otherCpuPercent }));
  const warm = asRounds(
    await batched(rounds, 5, async () => {
      const t0 = performance.now();
      const c = await testCluster({ crds: CRD_FILES });
      const ms = performance.now() - t0;
      await c.close();
      return ms;
    }),
  );
  const bare = asRounds(
    await batched(rounds, 5, async () => {
      const t0 = performance.now();
      const s = await startServer({ insecureHttp: true, insecureNoAuth: true });
      const ms = performance.now() - t0;
      await s.close();
      return ms;
    }),
  );
  const warmSummary = quietMedian(warm);
  const bareSummary = quietMedian(bare);
  return {
    crds: REAL_CRDS.slice(0, 8).map((c) => `${c.plural}.${c.group}`),
    controllers: ['namespace', 'garbagecollector'],
    testCluster: warmSummary,
    bareStartServer: bareSummary,
    ratioToBare: round(warmSummary.medianMs / bareSummary.medianMs, 2),
    installEveryTime: quietMedian(cold),
    target: `<= ${TARGETS.startMs} ms`,
  };
}

async function parallelFigures() {
  const n = quick ? 30 : 100;
  gc();
  const base = process.memoryUsage();
  const t0 = performance.now();
  const clusters = await Promise.all(Array.from({ length: n }, () => testCluster({ crds: CRD_FILES })));
  const totalMs = performance.now() - t0;
  // Isolation: each writes one object and sees only its own.
  await Promise.all(
    clusters.map((c, i) =>
      c.client.resource('configmaps', 'default').create({ metadata: { name: `only-${i}` } }),
    ),
  );
  const leaks = (
    await Promise.all(
      clusters.map(async (c, i) => {
        const list = await c.client.resource('configmaps', 'default').list();
        const names = list.items.map((o) => o.metadata?.name).filter((x) => x?.startsWith('only-'));
        return names.length === 1 && names[0] === `only-${i}` ? 0 : 1;
      }),
    )
  ).reduce((a: number, b) => a + b, 0);
  if (leaks > 0) throw new Error(`${leaks} clusters saw another cluster's objects`);
  gc();
  const open = process.memoryUsage();
  await Promise.all(clusters.map((c) => c.close()));
  return {
    clusters: n,
    totalMs: round(totalMs, 0),
    perClusterMs: round(totalMs / n, 1),
    rssMBPerCluster: round((open.rss - base.rss) / n / 2 ** 20, 2),
    heapMBPerCluster: round((open.heapUsed - base.heapUsed) / n / 2 ** 20, 2),
    isolated: true,
  };
}

async function snapshotFigures() {
  const rounds = quick ? 10 : 30;
  const c = await testCluster({ controllers: [] });
  try {
    const cms = c.client.resource('configmaps', 'default');
    const objects = Array.from({ length: 1000 }, (_, i) => ({
      metadata: { name: `cm-${i}`, labels: { app: 'bench', n: String(i % 10) } },
      data: { key: `value-${i}`, other: 'x'.repeat(64) },
    }));
    for (let i = 0; i < objects.length; i += 50)
      await Promise.all(objects.slice(i, i + 50).map((o) => cms.create(o)));
    const snap = await c.snapshot();
    let i = 0;
    const pairs = await batched(rounds, 5, async () => {
      // Each round changes the state, so each restore has something to undo.
      await cms.create({ metadata: { name: `extra-${i++}` } });
      const t0 = performance.now();
      await c.snapshot();
      const t1 = performance.now();
      await c.restore(snap);
      const t2 = performance.now();
      return { snapshotMs: t1 - t0, restoreMs: t2 - t1 };
    });
    const snapshots = pairs.map((p) => ({ ms: p.value.snapshotMs, otherCpuPercent: p.otherCpuPercent }));
    const restores = pairs.map((p) => ({ ms: p.value.restoreMs, otherCpuPercent: p.otherCpuPercent }));
    const recreate: Round[] = [];
    // The baseline: without restore, a suite deletes what a test made and creates the seed again.
    for (let i = 0; i < (quick ? 2 : 4); i++) {
      recreate.push(
        await timed(async () => {
          await cms.deleteCollection({});
          for (let j = 0; j < objects.length; j += 50)
            await Promise.all(objects.slice(j, j + 50).map((o) => cms.create(o)));
        }),
      );
    }
    const restoreSummary = quietMedian(restores);
    const recreateSummary = quietMedian(recreate);
    return {
      objects: 1000,
      snapshot: quietMedian(snapshots),
      restore: restoreSummary,
      recreateThroughApi: recreateSummary,
      restoreRatioToRecreate: round(restoreSummary.medianMs / recreateSummary.medianMs, 4),
      target: `<= ${TARGETS.snapshotMs} ms each`,
    };
  } finally {
    await c.close();
  }
}

const info = {
  cpus: cpus().length,
  node: process.version,
  loadAverage1mAtStart: round(loadavg()[0], 2),
  quick,
};
const start = await startFigures();
const parallel = await parallelFigures();
const snapshot = await snapshotFigures();
const result = { ...info, start, parallel, snapshot };

/** The table's last cell: rounds left out, or that the median is of busy rounds. */
function busyCell(summary: { busyRoundsLeftOut: number; fromBusyRounds: boolean }): string | number {
  return summary.fromBusyRounds ? 'all: median of busy rounds' : summary.busyRoundsLeftOut;
}

console.log(
  `bench:testing (${info.cpus} CPUs, node ${info.node}, load average ${info.loadAverage1mAtStart})`,
);
console.log(
  table(
    ['measure', 'median ms', 'baseline', 'baseline ms', 'ratio', 'target', 'busy rounds out'],
    [
      [
        'testCluster start, 8 CRDs + ns + gc',
        start.testCluster.medianMs,
        'bare startServer()',
        start.bareStartServer.medianMs,
        start.ratioToBare,
        start.target,
        busyCell(start.testCluster),
      ],
      [
        'first start of the setup (installs)',
        start.installEveryTime.medianMs,
        '',
        null,
        null,
        '',
        busyCell(start.installEveryTime),
      ],
      [
        'snapshot of 1,000 objects',
        snapshot.snapshot.medianMs,
        '',
        null,
        null,
        snapshot.target,
        busyCell(snapshot.snapshot),
      ],
      [
        'restore of 1,000 objects',
        snapshot.restore.medianMs,
        're-create through the API',
        snapshot.recreateThroughApi.medianMs,
        snapshot.restoreRatioToRecreate,
        snapshot.target,
        busyCell(snapshot.restore),
      ],
    ],
  ),
);
console.log(
  `${parallel.clusters} clusters at once: ${parallel.totalMs} ms in all (${parallel.perClusterMs} ms each), ` +
    `${parallel.rssMBPerCluster} MB RSS and ${parallel.heapMBPerCluster} MB heap per open cluster, isolated`,
);
if (!quick) {
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}
