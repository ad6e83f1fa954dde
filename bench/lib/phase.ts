/**
 * One measured write phase: the writer runs, then the phase waits until the
 * watches received every event the accepted writes owe them. The server's
 * CPU window covers both, so its delivery work is billed to the writes that
 * caused it. A long phase is best run as several rounds ({@link combineRounds}):
 * the median round shrugs off a neighbour's burst on a shared machine.
 */
import { performance } from 'node:perf_hooks';
import { otherLoad, readMachineCpu } from './machine-load.js';
import { type LatencySummary, round, summarize } from './report.js';
import { cpuMsBetween, type ServerProcess, type ServerSample } from './server-process.js';
import { PhaseTally, type WatchFleet } from './watch-fleet.js';
import type { WriteResult } from './writer.js';

/** Figures of one write phase. */
export interface PhaseResult {
  writes: number;
  writeErrors: number;
  firstWriteError: string | undefined;
  writerSeconds: number;
  writesPerSec: number;
  eventsExpected: number;
  eventsReceived: number;
  eventsMissing: number;
  eventsPerSec: number;
  drainMs: number;
  /** Events the server says it wrote to streams in the window (all types). */
  serverEventsSent: number;
  serverCpuMs: number;
  serverCpuUsPerWrite: number;
  /** Server CPU over the window, % of one core. */
  serverCpuPercent: number;
  /** This (client) process's CPU over the window, % of one core. */
  clientCpuPercent: number;
  /** CPU used by other processes on the machine over the window, % of one core (Linux). */
  otherCpuPercent: number | undefined;
  /** vCPU time the hypervisor gave to someone else, % of one core (Linux). */
  stealPercent: number | undefined;
  slowWatchersClosed: number;
  maxInFlight: number;
  maxSendLagMs: number;
  /** From the first write to the last owed event (ms). */
  windowMs: number;
  latencyMs?: { node: LatencySummary | undefined; namespace: LatencySummary | undefined };
  /** Per round, when the phase ran as rounds. */
  rounds?: Array<{ writesPerSec: number; serverCpuUsPerWrite: number; otherCpuPercent: number | undefined }>;
  /** The median of the rounds' CPU per write, over the rounds named by `medianOf`. */
  serverCpuUsPerWriteMedian?: number;
  medianOf?: string;
  /** Rounds during which other processes used under the quiet threshold. */
  quietRounds?: number;
  /** Watch lines per response write in the window: 1 without coalescing, more as lines share a write. */
  linesPerSocketWrite?: number;
  /** The counts behind {@link linesPerSocketWrite}. */
  watchLines?: number;
  watchWrites?: number;
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `write`, then waits until every event the accepted writes owe the open
 * watches has arrived (or `drainTimeoutMs`): the CPU window covers both, so
 * the server's delivery work is billed to the writes that caused it.
 */
export async function measurePhase(
  server: ServerProcess,
  fleet: WatchFleet,
  tag: string,
  recordLatency: boolean,
  drainTimeoutMs: number,
  write: () => Promise<WriteResult>,
): Promise<PhaseResult> {
  const tally = new PhaseTally(tag, recordLatency);
  fleet.track(tally);
  const before: ServerSample = await server.sample();
  const clientBefore = process.cpuUsage();
  const machineBefore = readMachineCpu();
  const t0 = performance.now();
  const w = await write();
  const writerDone = performance.now();
  const expectedNode = w.writesToWatchedNodes;
  const expectedNamespace = w.writes * fleet.open.namespace;
  // Stop at `drainTimeoutMs`, or sooner once nothing has arrived for 3 s
  // (a broken stream owes events that will never come).
  const deadline = writerDone + drainTimeoutMs;
  let seen = tally.events;
  let lastProgress = writerDone;
  while (tally.nodeEvents < expectedNode || tally.namespaceEvents < expectedNamespace) {
    const now = performance.now();
    if (tally.events > seen) {
      seen = tally.events;
      lastProgress = now;
    }
    if (now >= deadline || now - lastProgress >= 3000) break;
    await sleep(10);
  }
  const t1 = performance.now();
  const after = await server.sample();
  const clientMs = cpuMs(process.cpuUsage(clientBefore));
  const machineAfter = readMachineCpu();
  fleet.track(undefined);
  const windowMs = t1 - t0;
  const serverMs = cpuMsBetween(before, after);
  const load = otherLoad(machineBefore, machineAfter, serverMs + clientMs, windowMs);
  const expected = expectedNode + expectedNamespace;
  const sent = (x: ServerSample) => Object.values(x.stats.eventsSent).reduce((a, b) => a + b, 0);
  const lines = (after.watchWrites?.lines ?? 0) - (before.watchWrites?.lines ?? 0);
  const socketWrites = (after.watchWrites?.writes ?? 0) - (before.watchWrites?.writes ?? 0);
  return {
    ...(after.watchWrites
      ? {
          watchLines: lines,
          watchWrites: socketWrites,
          linesPerSocketWrite: socketWrites > 0 ? round(lines / socketWrites, 2) : undefined,
        }
      : {}),
    writes: w.writes,
    writeErrors: w.errors,
    firstWriteError: w.firstError,
    writerSeconds: round(w.elapsedMs / 1000, 2),
    writesPerSec: Math.round((w.writes * 1000) / w.elapsedMs),
    eventsExpected: expected,
    eventsReceived: tally.events,
    eventsMissing: Math.max(0, expected - tally.events),
    eventsPerSec: Math.round((tally.events * 1000) / windowMs),
    drainMs: Math.round(t1 - writerDone),
    windowMs: Math.round(windowMs),
    serverEventsSent: sent(after) - sent(before),
    serverCpuMs: Math.round(serverMs),
    serverCpuUsPerWrite: w.writes > 0 ? round((serverMs * 1000) / w.writes) : 0,
    serverCpuPercent: round((100 * serverMs) / (after.at - before.at)),
    clientCpuPercent: round((100 * clientMs) / windowMs),
    otherCpuPercent: load?.otherCpuPercent,
    stealPercent: load?.stealPercent,
    slowWatchersClosed: after.stats.slowWatchersClosed - before.stats.slowWatchersClosed,
    maxInFlight: w.maxInFlight,
    maxSendLagMs: round(w.maxLagMs, 1),
    latencyMs: recordLatency
      ? { node: summarize(tally.nodeLatencies ?? []), namespace: summarize(tally.namespaceLatencies ?? []) }
      : undefined,
  };
}

/**
 * Sums rounds of one phase into one result, keeping each round's headline
 * and the median CPU per write: over the quiet rounds (other processes under
 * `quietPercent` of a core) when there are any, since contention inflates
 * CPU time per unit of work; over all rounds otherwise.
 */
export function combineRounds(rounds: PhaseResult[], quietPercent: number): PhaseResult {
  const sum = (f: (r: PhaseResult) => number) => rounds.reduce((a, r) => a + f(r), 0);
  const max = (f: (r: PhaseResult) => number) => Math.max(...rounds.map(f));
  const windowMs = sum((r) => r.windowMs);
  const weighted = (f: (r: PhaseResult) => number | undefined) =>
    rounds.some((r) => f(r) === undefined) ? undefined : round(sum((r) => f(r)! * r.windowMs) / windowMs);
  const writes = sum((r) => r.writes);
  const writerMs = sum((r) => r.writerSeconds * 1000);
  const serverCpuMs = sum((r) => r.serverCpuMs);
  const quiet = rounds.filter((r) => r.otherCpuPercent === undefined || r.otherCpuPercent < quietPercent);
  const basis = quiet.length > 0 ? quiet : rounds;
  const perWrite = basis.map((r) => r.serverCpuUsPerWrite).sort((a, b) => a - b);
  const mid = perWrite.length >> 1;
  return {
    writes,
    writeErrors: sum((r) => r.writeErrors),
    firstWriteError: rounds.find((r) => r.firstWriteError)?.firstWriteError,
    writerSeconds: round(writerMs / 1000, 2),
    writesPerSec: Math.round((writes * 1000) / writerMs),
    eventsExpected: sum((r) => r.eventsExpected),
    eventsReceived: sum((r) => r.eventsReceived),
    eventsMissing: sum((r) => r.eventsMissing),
    eventsPerSec: Math.round((sum((r) => r.eventsReceived) * 1000) / windowMs),
    drainMs: max((r) => r.drainMs),
    windowMs,
    serverEventsSent: sum((r) => r.serverEventsSent),
    serverCpuMs,
    serverCpuUsPerWrite: writes > 0 ? round((serverCpuMs * 1000) / writes) : 0,
    serverCpuPercent: weighted((r) => r.serverCpuPercent)!,
    clientCpuPercent: weighted((r) => r.clientCpuPercent)!,
    otherCpuPercent: weighted((r) => r.otherCpuPercent),
    stealPercent: weighted((r) => r.stealPercent),
    slowWatchersClosed: sum((r) => r.slowWatchersClosed),
    ...(rounds.every((r) => r.watchLines !== undefined)
      ? {
          watchLines: sum((r) => r.watchLines!),
          watchWrites: sum((r) => r.watchWrites!),
          linesPerSocketWrite:
            sum((r) => r.watchWrites!) > 0
              ? round(sum((r) => r.watchLines!) / sum((r) => r.watchWrites!), 2)
              : undefined,
        }
      : {}),
    maxInFlight: max((r) => r.maxInFlight),
    maxSendLagMs: max((r) => r.maxSendLagMs),
    rounds: rounds.map((r) => ({
      writesPerSec: r.writesPerSec,
      serverCpuUsPerWrite: r.serverCpuUsPerWrite,
      otherCpuPercent: r.otherCpuPercent,
    })),
    serverCpuUsPerWriteMedian:
      perWrite.length % 2 === 1 ? perWrite[mid] : round((perWrite[mid - 1] + perWrite[mid]) / 2),
    quietRounds: quiet.length,
    medianOf:
      quiet.length > 0
        ? `${quiet.length} quiet of ${rounds.length} rounds`
        : `all ${rounds.length} rounds (none quiet)`,
  };
}

/** The server at rest with every watch open: its standing cost and memory. */
export interface IdleResult {
  serverCpuPercent: number;
  otherCpuPercent: number | undefined;
  serverRssMB: number;
  serverHeapMB: number;
}

/** Samples the server over `idleMs` with no writes. */
export async function measureIdle(server: ServerProcess, idleMs: number): Promise<IdleResult> {
  const before = await server.sample();
  const machine = readMachineCpu();
  const client = process.cpuUsage();
  await sleep(idleMs);
  const after = await server.sample();
  const serverMs = cpuMsBetween(before, after);
  const windowMs = after.at - before.at;
  const load = otherLoad(machine, readMachineCpu(), serverMs + cpuMs(process.cpuUsage(client)), windowMs);
  return {
    serverCpuPercent: round((100 * serverMs) / windowMs),
    otherCpuPercent: load?.otherCpuPercent,
    serverRssMB: round(after.rssBytes / 2 ** 20),
    serverHeapMB: round(after.heapUsedBytes / 2 ** 20),
  };
}
