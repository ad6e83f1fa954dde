/** Shapes shared by the client benchmark's parent and its children (no side effects: both import it). */

/** What the server child seeds and churns. */
export interface ServerPlan {
  /** One namespace `sync-<n>` of n pods per size. */
  syncSizes: number[];
  /** Pods in namespace `churn`. */
  churnPods: number;
  /** Status updates of churn pods after `baseRevision` (round robin over the pods). */
  churnEvents: number;
}

/** What the server child reports once ready. */
export interface ServerInfo {
  url: string;
  pid: number;
  /** The revision right before the churn updates: list at it (Exact), then watch from it. */
  baseRevision: number;
  finalRevision: number;
  seedMs: number;
  churnMs: number;
  /** Mean JSON size of a pod as served (with its resourceVersion). */
  podBytes: number;
}

/** The namespace holding `size` pods for the initial-sync phase. */
export const syncNamespace = (size: number) => `sync-${size}`;
/** The namespace whose pods the server churns. */
export const CHURN_NAMESPACE = 'churn';

/** The clients under test. */
export const CLIENTS = {
  /** node:http, split lines, JSON.parse, a Map: the least any cache can do. */
  floor: 'raw floor (node:http + JSON.parse + Map)',
  /** watchmark's Informer, default (eager) decoding. */
  watchmark: 'watchmark informer',
  /** watchmark's Informer with `lazyDecode: true`; handlers only take the key. */
  'watchmark-lazy': 'watchmark informer, lazyDecode',
  /** Same, but every handler reads the object (so every object is materialized). */
  'watchmark-lazy-read': 'watchmark informer, lazyDecode, handler reads object',
  /** @kubernetes/client-node 1.x: makeInformer (its ListWatch) over CoreV1Api. */
  'client-node': '@kubernetes/client-node ListWatch',
  /** Reads the watch stream and counts newlines, nothing else: the server's ceiling. */
  drain: 'drain bytes only (server ceiling)',
} as const;

/**
 * Where the benchmark's processes run (see children.ts): `pinned`,
 * the server on CPU 0 and the client under test on CPU 1; `unpinned`, where
 * the scheduler puts them.
 */
export type Placement = 'pinned' | 'unpinned';

/** A client's id. */
export type ClientId = keyof typeof CLIENTS;

/** One measurement job, run in a fresh child process. */
export interface ClientJob {
  client: ClientId;
  phase: 'sync' | 'steady';
  url: string;
  namespace: string;
  /** Objects the list holds. */
  objects: number;
  /** Steady: update events to apply after the list. */
  events: number;
  /** Steady: the revision to list at and watch from. */
  baseRevision: number;
  /**
   * Steady: the update at which the stream is split into its start (a new
   * process's first updates, JIT warm-up included) and its warm rest, each
   * timed on its own ({@link ClientResult.split}); absent or 0: not split.
   */
  warmupEvents?: number;
  /** Memory sampling period (ms). */
  sampleMs: number;
}

/** Memory of one run, relative to a baseline taken after a full GC just before it. */
export interface MemoryFigures {
  baselineRssMB: number;
  baselineHeapMB: number;
  /** Peak RSS (the kernel's VmHWM, reset at the baseline): exact. */
  peakRssMB: number;
  /** Peak heapUsed + external + arrayBuffers, sampled every `sampleMs` and at checkpoints: a lower bound. */
  peakHeapMB: number;
  /** Heap still held after the run and a full GC: the cache itself. */
  retainedHeapMB: number;
}

/**
 * A steady stream split at update W: `start`, the first update to update W;
 * `warm`, update W to the last. Time (ms) and the process's CPU (ms) of each.
 */
export interface StreamSplit {
  startMs: number;
  startCpuMs: number;
  warmMs: number;
  warmCpuMs: number;
}

/** What a client child reports about its one run. */
export interface ClientResult {
  client: ClientId;
  phase: 'sync' | 'steady';
  /** Sync: start to cache synced (ms); steady: first to last update applied (ms). */
  ms: number;
  /** The client process's CPU time (user + system) over the same span: steadier than `ms` on a shared machine. */
  cpuMs: number;
  /** Steady: events - 1 over the time between the first and the last. */
  eventsPerSec?: number;
  /** Steady: `cpuMs` split into the main thread and the helper threads (GC, JIT, libuv), where /proc/self/task can be read. */
  threadsCpuMs?: { main: number; helpers: number };
  /** Steady: ms from the first update to each tenth of the updates (a slow start shows in the first). */
  tenthsMs?: number[];
  /** Steady, with {@link ClientJob.warmupEvents}: the start's and the warm rest's time and CPU. */
  split?: StreamSplit;
  /** Objects in the cache at the end. */
  cached: number;
  memory: MemoryFigures;
  /** CPU of the whole child process (start-up and imports included), for the machine-load figure. */
  processCpuMs: number;
}
