/**
 * What a run measured (RunResult and its parts) and the figures derived
 * from it that the tables, the chart and the tests share.
 */
import type { ServerSample } from '../process/index.js';
import type { ServerStats } from '../server/index.js';
import type { ChurnStats } from './churn.js';
import type { WatcherClass, WatcherSpec } from './cluster.js';
import type { ClientTotals } from './fleet.js';
import { type StudyOptions, toReal } from './options.js';
import type { VerifyResult } from './verify.js';

/** What one run does differently. */
export interface RunSpec {
  id: string;
  label: string;
  bookmarks: boolean;
  historyWindowMs: number;
  durationMs: number;
  watchers: WatcherSpec[];
}

/** The counters at one instant of a run, cumulative since its baseline (every watcher watching). */
export interface RunPoint {
  /** Cluster minutes since the baseline. */
  minute: number;
  /** Server restart work: init events examined + objects listed. */
  restartWork: number;
  initEventsExamined: number;
  listedObjects: number;
  /** Lists the watchers made (all relists: the initial ones came before). */
  relists: number;
  /** 410 answers the server gave. */
  expired: number;
  bookmarks: number;
}

/** The server's counters over the measured window. */
export interface ServerDelta {
  initEventsExamined: number;
  initEventsSent: number;
  expiredSent: number;
  lists: number;
  listObjects: number;
  bookmarksSent: number;
  bookmarksDropped: number;
  watchesStarted: number;
  /** ADDED, MODIFIED and DELETED events written to watches. */
  eventsSent: number;
  watchBytesWritten: number;
  responseBytesWritten: number;
  slowWatchersClosed: number;
  writes: number;
  cpuMs: number;
}

/** Everything one run measured. */
export interface RunResult {
  id: string;
  label: string;
  bookmarks: boolean;
  historyWindowMs: number;
  watchers: Partial<Record<WatcherClass, number>>;
  clusterMinutes: number;
  realSeconds: number;
  /** The headline: init events examined on watch starts + objects listed by relists. */
  restartWork: number;
  server: ServerDelta;
  clients: ClientTotals;
  clientsByClass: Partial<Record<WatcherClass, ClientTotals>>;
  /**
   * CPU of the client side over the window: the study process (the watchers,
   * sampling) plus the churn writer's process (before the writer had a process
   * of its own, both were in the study process: the sum means the same).
   */
  clientCpuMs: number;
  /** CPU of the churn writer's process over the window (part of {@link clientCpuMs}). */
  churnCpuMs: number;
  /** The study process's event-loop delay: how late timers fired (latency is not time-compressed). */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** The server's event-loop delay over the window. */
  serverDelayMs: { p99: number; max: number };
  /**
   * The share (%) of the machine's CPU time the hypervisor gave to other
   * guests over the window (/proc/stat steal); undefined off Linux. Stalls
   * of every process at once come with it.
   */
  stealPercent?: number;
  /**
   * Whether a stall of the client's or the server's event loop outlasted
   * {@link stallLimitMs}: at a compressed scale that is many cluster seconds,
   * and the run is not a fair measurement.
   */
  disturbed: boolean;
  /** Which attempt this is: a disturbed run is repeated (see study.ts). */
  attempt: number;
  churn: ChurnStats & { writes: number };
  verify: VerifyResult;
  timeline: RunPoint[];
}

/** Where a run reports progress. */
export type Say = (line: string) => void;

export function serverDelta(a: ServerSample, b: ServerSample): ServerDelta {
  const s = (f: (x: ServerStats) => number) => f(b.stats) - f(a.stats);
  return {
    initEventsExamined: s((x) => x.initEventsExamined),
    initEventsSent: s((x) => x.initEventsSent),
    expiredSent: s((x) => x.expiredSent),
    lists: s((x) => sumRecord(x.lists)),
    listObjects: s((x) => sumRecord(x.listObjects)),
    bookmarksSent: s((x) => x.bookmarksSent),
    bookmarksDropped: s((x) => x.bookmarksDropped),
    watchesStarted: s((x) => x.watchesStarted),
    eventsSent: s((x) => x.eventsSent.ADDED + x.eventsSent.MODIFIED + x.eventsSent.DELETED),
    watchBytesWritten: s((x) => x.watchBytesWritten),
    responseBytesWritten: s((x) => x.responseBytesWritten),
    slowWatchersClosed: s((x) => x.slowWatchersClosed),
    writes: s((x) => x.writes),
    cpuMs: (b.cpuUs - a.cpuUs) / 1000,
  };
}

/**
 * The longest stall a fair run may have, in real ms: a tenth of the history
 * window (7.5 cluster seconds by default). Restarts caught in a longer one
 * look several bookmark leads older than they are; one as long as the window
 * would turn them into 410s. At 30x it is 250 ms; a busy shared machine can
 * freeze a process for seconds.
 */
export function stallLimitMs(opts: StudyOptions): number {
  return toReal(opts, opts.historyWindowMs / 10);
}

/** Watch restarts: watches that ended on their timeout and started again (a relist's own watch is not another). */
export function watchRestarts(r: RunResult): number {
  return r.clients.watchEnds.timeout + r.clients.watchEnds.serverClose;
}

/** Server restart work per watch restart. */
export function workPerRestart(r: RunResult): number {
  return r.restartWork / Math.max(1, watchRestarts(r));
}

/** Mean real ms from a watch's clean end until its successor was open. */
export function meanReconnectMs(r: RunResult): number {
  return r.clients.reconnectMs / Math.max(1, r.clients.reconnects);
}

/** Rounds to `digits` decimals. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function sumRecord(r: Record<string, number>): number {
  return Object.values(r).reduce((x, y) => x + y, 0);
}
