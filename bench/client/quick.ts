/**
 * The quick mode of the client benchmark (`npm run bench:client -- --quick`):
 * a check to run before a change lands, in about a minute, that prints the
 * issue's ratios. On a shared machine a single run of each client says
 * little (the same code measures far apart from one run to the next; the
 * ranges this mode prints show how far), so:
 *
 * - every client is a worker process started once (child.ts worker
 *   mode); the parent runs short rounds, each client once per round, in an
 *   order rotated every round, so a noisy moment hits every client alike;
 * - a ratio is taken within each round (paired), and the figure is the
 *   median of those ratios, with their range;
 * - time is given on the client's own CPU (user + system, all its threads)
 *   as well as wall time: CPU is far less bent by neighbours' load;
 * - round 1 is a warm-up (JIT, first connection) and is left out: the
 *   runs measure a warm client, as a long-running informer is;
 * - a round in which other processes used more than 10 % of a core is
 *   marked busy and left out of the medians; rounds go on until at least
 *   `minRounds` quiet ones are in (or `maxRounds`);
 * - the processes are pinned (server on CPU 0, each client on CPU 1) where
 *   `taskset` is found, unless asked otherwise: see children.ts.
 *
 * The full run (cold, fresh processes, memory peaks) stays the reference.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { otherLoad, processCpuMs, readMachineCpu } from '../lib/machine-load.js';
import { round, table } from '../lib/report.js';
import { type ClientWorker, placeServer, startClientWorker } from './children.js';
import {
  CHURN_NAMESPACE,
  type ClientId,
  type ClientJob,
  type ClientResult,
  type Placement,
  type ServerInfo,
  syncNamespace,
} from './plan.js';
import {
  isBusy,
  median,
  PAIRED_HEADER,
  type PairedRatio,
  pairedRatios,
  pairedRow,
  RATIOS,
  type Round,
} from './ratios.js';

/** What the quick mode runs. */
export interface QuickParams {
  syncSize: number;
  churnPods: number;
  churnEvents: number;
  /** Rounds stop once this much time has gone since the first measured round started (ms). */
  budgetMs: number;
  /** Quiet measured rounds wanted (busy ones do not count). */
  minRounds: number;
  maxRounds: number;
  sampleMs: number;
}

const SYNC: ClientId[] = ['floor', 'watchmark', 'watchmark-lazy', 'client-node'];
/** The full run's steady clients but `watchmark-lazy-read`, which no target names (time is short). */
const STEADY: ClientId[] = ['drain', 'floor', 'watchmark', 'watchmark-lazy', 'client-node'];

/** The quick mode's figures: per ratio, the median over measured rounds and their range. */
export interface QuickReport {
  placement: Placement;
  rounds: number;
  /** Measured rounds left out of the medians as busy. */
  busyRounds: number;
  warmupRounds: number;
  loadAverage1m: { start: number; end: number };
  otherCpuPercent: { median: number | undefined; runs: Array<number | undefined> };
  ratios: PairedRatio[];

  /** Median events/s and events per CPU second of each client in the steady phase. */
  steady: Array<{
    client: ClientId;
    eventsPerSec: number;
    eventsPerCpuSec: number;
    /** Median CPU ms per run on the main thread and on the helper threads (GC, JIT, libuv). */
    mainCpuMs: number | undefined;
    helperCpuMs: number | undefined;
  }>;
  /** Every measured run (wall ms, CPU ms) by round, phase and client. */
  raw: Array<{ phase: 'sync' | 'steady'; client: ClientId; ms: number[]; cpuMs: number[] }>;
}

/** Runs the quick mode against a running benchmark server; prints as it goes and returns the figures. */
export async function runQuick(
  server: ServerInfo,
  params: QuickParams,
  placement: Placement,
  log: (line: string) => void,
): Promise<QuickReport> {
  placeServer(server.pid, placement);
  const load0 = loadavg()[0];
  const job = (client: ClientId, phase: 'sync' | 'steady'): ClientJob => ({
    client,
    phase,
    url: server.url,
    namespace: phase === 'sync' ? syncNamespace(params.syncSize) : CHURN_NAMESPACE,
    objects: phase === 'sync' ? params.syncSize : params.churnPods,
    events: params.churnEvents,
    baseRevision: server.baseRevision,
    sampleMs: params.sampleMs,
  });
  const workers = new Map<ClientId, ClientWorker>();
  const measured: Round[] = [];
  let warmups = 0;
  try {
    const started = await Promise.all(STEADY.map((c) => startClientWorker(c, 60_000, placement)));
    for (const [i, c] of STEADY.entries()) workers.set(c, started[i]);
    log(`${workers.size} client workers up (${placement})`);
    const ownCpu = () =>
      [server.pid, ...[...workers.values()].map((w) => w.pid)].reduce(
        (sum, pid) => sum + (processCpuMs(pid) ?? 0),
        0,
      );
    let budgetStart = 0;
    for (let n = 0; n < params.maxRounds; n++) {
      const warmup = n === 0;
      const quiet = measured.filter((r) => !isBusy(r)).length;
      if (!warmup && quiet >= params.minRounds && performance.now() - budgetStart > params.budgetMs) break;
      if (n === 1) budgetStart = performance.now();
      const before = readMachineCpu();
      const own0 = ownCpu();
      const t0 = performance.now();
      const round_: Round = { sync: {}, steady: {}, otherCpuPercent: undefined };
      // Rotate the order every round: no client always runs first (cold caches) or last.
      for (const [phase, clients] of [
        ['sync', SYNC],
        ['steady', STEADY],
      ] as const) {
        const order = clients.map((_, i) => clients[(i + n) % clients.length]);
        for (const c of order) round_[phase][c] = await workers.get(c)!.run(job(c, phase), 120_000);
      }
      round_.otherCpuPercent = otherLoad(
        before,
        readMachineCpu(),
        ownCpu() - own0,
        performance.now() - t0,
      )?.otherCpuPercent;
      if (warmup) warmups++;
      else measured.push(round_);
      const r = RATIOS.slice(0, 4).map((d) => round(d.of(round_) ?? Number.NaN, 2));
      log(
        `round ${n + 1}${warmup ? ' (warm-up, not counted)' : ''}: steady wm/floor ${r[0]} (cpu ${r[1]}), ` +
          `wm/c-n speed ${r[2]} (cpu ${r[3]}); others ${round_.otherCpuPercent ?? '-'}%` +
          `${!warmup && isBusy(round_) ? ' BUSY, left out' : ''}`,
      );
    }
  } finally {
    await Promise.all([...workers.values()].map((w) => w.close()));
  }
  return summarize(measured, warmups, load0, params.churnEvents, placement);
}

function summarize(
  rounds: Round[],
  warmups: number,
  load0: number,
  events: number,
  placement: Placement,
): QuickReport {
  const ratios = pairedRatios(rounds);
  const quietRounds = rounds.filter((r) => !isBusy(r));
  const counted = quietRounds.length > 0 ? quietRounds : rounds;
  const steady = STEADY.map((client) => {
    const rs = counted.map((r) => r.steady[client]).filter((r): r is ClientResult => r !== undefined);
    const threads = rs.map((r) => r.threadsCpuMs).filter((t) => t !== undefined);
    return {
      client,
      eventsPerSec: Math.round(median(rs.map((r) => ((events - 1) * 1000) / r.ms))),
      eventsPerCpuSec: Math.round(median(rs.map((r) => ((events - 1) * 1000) / r.cpuMs))),
      mainCpuMs: threads.length ? median(threads.map((t) => t.main)) : undefined,
      helperCpuMs: threads.length ? median(threads.map((t) => t.helpers)) : undefined,
    };
  });
  const raw: QuickReport['raw'] = [];
  for (const phase of ['sync', 'steady'] as const)
    for (const client of phase === 'sync' ? SYNC : STEADY) {
      const rs = rounds.map((r) => r[phase][client]).filter((r): r is ClientResult => r !== undefined);
      raw.push({ phase, client, ms: rs.map((r) => round(r.ms, 1)), cpuMs: rs.map((r) => round(r.cpuMs, 1)) });
    }
  const others = rounds.map((r) => r.otherCpuPercent);
  const knownOthers = others.filter((v): v is number => v !== undefined);
  return {
    placement,
    rounds: rounds.length,
    busyRounds: rounds.length - quietRounds.length,
    warmupRounds: warmups,
    loadAverage1m: { start: round(load0, 2), end: round(loadavg()[0], 2) },
    otherCpuPercent: { median: knownOthers.length ? round(median(knownOthers), 1) : undefined, runs: others },
    ratios,
    steady,
    raw,
  };
}

/** Prints the quick mode's ratios. */
export function printQuick(q: QuickReport, params: QuickParams): void {
  console.log(
    `\nQuick mode: ${params.syncSize} pods synced, ${params.churnEvents} events streamed, per round; ` +
      `${q.rounds} measured rounds (+${q.warmupRounds} warm-up; ${q.busyRounds} busy, left out), warm worker processes, ${q.placement}.\n` +
      'Each ratio is taken within a round (paired runs), then the median over the quiet rounds; CPU = the client\n' +
      `process's own CPU time. Machine: load average ${q.loadAverage1m.start} -> ${q.loadAverage1m.end}, ` +
      `other processes ${q.otherCpuPercent.median ?? '-'}% of a core (median over rounds).`,
  );
  console.log(table(PAIRED_HEADER, q.ratios.map(pairedRow)));
  console.log('\nSteady state, medians over the quiet rounds');
  console.log(
    table(
      ['client', 'events/s', 'events/cpu s', 'main cpu ms', 'helpers cpu ms'],
      q.steady.map((s) => [s.client, s.eventsPerSec, s.eventsPerCpuSec, s.mainCpuMs, s.helperCpuMs]),
    ),
  );
}
