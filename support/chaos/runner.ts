/**
 * Many chaos seeds: lanes that each run one seed at a time, and, for the
 * etcd scenarios, the etcd the lane's seeds use (started once per lane, a
 * fresh key prefix per seed). Shared by `test/client/informer/chaos.test.ts` and
 * `bench/chaos.ts`.
 *
 * Why an etcd per lane rather than one for the run: etcd's revision is
 * global, and the server's watch cache only advances with events under its
 * own prefix (it asks for no progress notifications). Over a prefix of an
 * etcd that other seeds write to, a list answers a revision the cache never
 * reaches, and each watch from it waits `tooLargeWait` and answers 504 until
 * a write lands in its own prefix. `sharedEtcd` runs every lane on one etcd
 * to show exactly that.
 */

import { type EtcdCluster, startEtcdCluster } from '../../src/server/index.js';
import {
  addTotals,
  type ChaosTotals,
  emptyTotals,
  runSeed,
  type Scenario,
  type SeedResult,
} from './engine.js';
import { buildServerChild, type ServerChildCode } from './server-bundle.js';
import { WarmPool } from './warm-child.js';

/** Options of {@link runSeeds}. */
export interface RunSeedsOptions {
  /** Seeds run at the same time (each with its own servers and proxy). */
  concurrency?: number;
  /** The store and disruption (default: memory, clean restarts). */
  scenario?: Scenario;
  /** All lanes on one etcd instead of one each (see the file comment). */
  sharedEtcd?: boolean;
  /** Called after each seed. */
  onResult?: (result: SeedResult) => void;
  /** Called once the server processes' code is ready (kill and failover runs): `bundle` or `tsx (...)`. */
  onServerCode?: (how: string) => void;
  /** Called every `heartbeatMs` while seeds run, with what runs and for how long. */
  onHeartbeat?: (running: Array<{ seed: number; ms: number }>, done: number) => void;
  heartbeatMs?: number;
}

/** The outcome of many seeds. */
export interface ChaosSummary {
  passed: number;
  failed: number;
  failures: SeedResult[];
  ms: number;
  totals: ChaosTotals;
}

/** Runs `seeds`, `concurrency` at a time; every etcd it started is stopped on every path. */
export async function runSeeds(seeds: number[], opts: RunSeedsOptions = {}): Promise<ChaosSummary> {
  const started = Date.now();
  const scenario = opts.scenario ?? { store: 'memory', disruption: 'restart' };
  const queue = [...seeds];
  const summary: ChaosSummary = { passed: 0, failed: 0, failures: [], ms: 0, totals: emptyTotals() };
  const running = new Map<number, number>();
  const etcds: EtcdCluster[] = [];
  let shared: Promise<EtcdCluster> | undefined;
  const etcdFor = async (): Promise<EtcdCluster> => {
    if (opts.sharedEtcd) {
      shared ??= startEtcdCluster().then((c) => {
        etcds.push(c);
        return c;
      });
      return shared;
    }
    const cluster = await startEtcdCluster();
    etcds.push(cluster);
    return cluster;
  };
  let prefixes = 0;
  let code: ServerChildCode | undefined;
  const lane = async () => {
    if (queue.length === 0) return;
    const etcd = scenario.store === 'etcd' ? await etcdFor() : undefined;
    // As many loaded server processes wait per lane as a seed starts: a failover seed's pair, or one
    // (a seed's first server, then a killed server's successor).
    const pool = code ? new WarmPool(code.script, scenario.disruption === 'failover' ? 2 : 1) : undefined;
    try {
      await laneSeeds(etcd, pool);
    } finally {
      await pool?.close();
    }
  };
  const laneSeeds = async (etcd: EtcdCluster | undefined, pool: WarmPool | undefined) => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      running.set(seed, Date.now());
      const where = etcd
        ? { kind: 'etcd' as const, endpoints: etcd.endpoints, prefix: `/chaos-${seed}-${++prefixes}` }
        : { kind: 'memory' as const };
      const result = await runSeed(seed, scenario, where, pool);
      running.delete(seed);
      if (result.ok) summary.passed++;
      else {
        summary.failed++;
        summary.failures.push(result);
      }
      addTotals(summary.totals, result.totals);
      opts.onResult?.(result);
    }
  };
  const heartbeat = opts.onHeartbeat
    ? setInterval(() => {
        const now = Date.now();
        const list = [...running].map(([seed, since]) => ({ seed, ms: now - since }));
        opts.onHeartbeat?.(list, summary.passed + summary.failed);
      }, opts.heartbeatMs ?? 15_000)
    : undefined;
  try {
    if (scenario.disruption !== 'restart') {
      code = await buildServerChild();
      opts.onServerCode?.(code.how);
    }
    // A lane that cannot start its etcd fails the run; the others finish their seed first.
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, opts.concurrency ?? 1) }, lane));
    const failed = lanes.find((l) => l.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } finally {
    clearInterval(heartbeat);
    await Promise.allSettled([...etcds.map((c) => c.close()), code?.close()]);
  }
  summary.ms = Date.now() - started;
  summary.failures.sort((a, b) => a.seed - b.seed);
  return summary;
}

/** The one-line result both the test and the bench print: `chaos: N passed, N failed`. */
export function summaryLine(summary: Pick<ChaosSummary, 'passed' | 'failed'>): string {
  return `chaos: ${summary.passed} passed, ${summary.failed} failed`;
}

/** The command that replays one seed of `scenario`. */
export function replayCommand(seed: number, scenario: Scenario): string {
  const flags =
    scenario.store === 'memory' && scenario.disruption === 'restart'
      ? ''
      : ` --store ${scenario.store} --mode ${scenario.disruption}`;
  return `npm run chaos --${flags} --seed ${seed}`;
}

/** A failing seed's report, with how to replay it. */
export function describeFailure(result: SeedResult): string {
  const lines = [
    `seed ${result.seed} FAILED (${result.ms} ms): ${result.plan}`,
    ...result.failures.slice(0, 12).map((f) => `  - ${f}`),
    ...(result.failures.length > 12 ? [`  (+${result.failures.length - 12} more)`] : []),
    ...result.serverLog.map((l) => `  log ${l}`),
    ...(result.timeline.length > 0 ? ['  timeline (the last 400 events):'] : []),
    ...result.timeline.map((l) => `    ${l}`),
    `  replay: ${replayCommand(result.seed, result.scenario)}`,
  ];
  return lines.join('\n');
}
