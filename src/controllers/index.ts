/**
 * watchmark's kube-controller-manager controllers, run in process against
 * any API server: {@link startControllers}. See README.md.
 */
import { setMaxListeners } from 'node:events';
import { KubeClient } from '../client/client.js';
import { type Clock, systemClock } from '../protocol/clock.js';
import { GarbageCollector } from './garbage-collector.js';
import { Monitors } from './monitors.js';
import { CONTROLLERS, type ControllerName, kcmName, parseControllerList } from './names.js';
import { Operations } from './operations.js';
import { type RunningController, STARTERS } from './starters.js';

export { CONTROLLERS, ControllerListError, type ControllerName, parseControllerList } from './names.js';

/** The User-Agent of the collector's own connection: kube-controller-manager's, so the server names its field manager so. */
export const USER_AGENT =
  'kube-controller-manager/v1.33.1 (watchmark) kubernetes/watchmark/system:serviceaccount:kube-system:generic-garbage-collector';

/** Options of {@link startControllers}. */
export interface ControllersOptions {
  /** A client to run through (left open on close), or */
  client?: KubeClient;
  /** a kubeconfig file to connect with (the connection is closed on close). */
  kubeconfig?: string;
  /** Which controllers (names or a `--controllers` list); default all of them (names.ts `CONTROLLERS`). */
  controllers?: readonly string[] | string;
  /** attemptToDelete and attemptToOrphan workers each (kube-controller-manager's `--concurrent-gc-syncs`: 20). */
  gcWorkers?: number;
  /**
   * How long the collector's workers wait for the first lists before they
   * start anyway (garbagecollector.go `Run`'s initialSyncTimeout; 30 s).
   */
  initialSyncTimeoutMs?: number;
  /** How often discovery is read again besides on CRD events (kube-controller-manager: 30 s; 0 = never). */
  resyncPeriodMs?: number;
  clock?: Clock;
  /** One-line log sink (default: none). */
  log?: (line: string) => void;
}

/** Controllers running: {@link startControllers}. */
export interface RunningControllers {
  /** The controllers on, in start order (`namespace` runs inside the server: see README.md). */
  readonly controllers: readonly ControllerName[];
  /** The garbage collector's monitored resources (`group/version/plural`; core ones `v1/plural`). */
  readonly gcResources: readonly string[];
  /** Resolves once every garbage collector monitor has listed (at once without the garbage collector). */
  synced(): Promise<void>;
  /** Whether {@link RunningControllers.synced} would resolve now. */
  readonly isSynced: boolean;
  /** Work items done and retried, per controller running here (`garbage-collector`), for benchmarks and tests. */
  stats(): Record<string, { syncs: number; failures: number }>;
  /** Stops everything; nothing is left open once it resolves. */
  close(): Promise<void>;
}

/**
 * Starts the controllers against the server a client or kubeconfig reaches;
 * resolves once discovery is read and the garbage collector's monitors are
 * started (call `synced()` to wait for their lists).
 */
export async function startControllers(opts: ControllersOptions): Promise<RunningControllers> {
  const names =
    typeof opts.controllers === 'string'
      ? parseControllerList(opts.controllers)
      : parseControllerList((opts.controllers ?? CONTROLLERS).join(','));
  if (!opts.client && !opts.kubeconfig) throw new Error('startControllers needs a client or a kubeconfig');
  const log = opts.log ?? (() => undefined);
  const clock = opts.clock ?? systemClock;
  const abort = new AbortController();
  // One signal for every request in flight: many at once is normal.
  setMaxListeners(0, abort.signal);
  const owned = !opts.client;
  const kube =
    opts.client ?? (await KubeClient.load({ kubeconfig: opts.kubeconfig, qps: 0, userAgent: USER_AGENT }));
  const running = new Map<ControllerName, RunningController>();
  let gc: GarbageCollector | undefined;
  let monitors: Monitors | undefined;
  let initialSync: Promise<void> | undefined;
  const close = async () => {
    abort.abort();
    await initialSync;
    await monitors?.stop();
    await gc?.stop();
    await Promise.all([...running.values()].map((c) => c.stop()));
    if (owned) await kube.close();
  };
  if (names.includes('garbagecollector')) {
    gc = new GarbageCollector({
      ops: new Operations(kube, abort.signal),
      clock,
      workers: opts.gcWorkers,
      log,
    });
    monitors = new Monitors({
      kube,
      graph: gc.graph,
      clock,
      signal: abort.signal,
      resyncPeriodMs: opts.resyncPeriodMs ?? 30_000,
      log,
    });
    try {
      await monitors.start();
    } catch (err) {
      await close();
      throw err;
    }
    const collector = gc;
    initialSync = untilSynced(monitors, clock, opts.initialSyncTimeoutMs ?? 30_000, abort.signal).then(
      (synced) => {
        if (abort.signal.aborted) return;
        if (!synced) log('garbage collector: not all resource monitors could be synced, proceeding anyways');
        collector.startWorkers();
      },
    );
  }
  try {
    for (const name of names) {
      const controller = await STARTERS[name]?.({ kube, clock, log, signal: abort.signal });
      if (controller) running.set(name, controller);
    }
  } catch (err) {
    await close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    controllers: names,
    get gcResources() {
      return monitors?.resources ?? [];
    },
    synced: async () => {
      await monitors?.synced();
      await initialSync;
    },
    get isSynced() {
      return monitors?.isSynced ?? true;
    },
    stats: () => {
      const stats: Record<string, { syncs: number; failures: number }> = {};
      if (gc) stats['garbage-collector'] = { syncs: gc.syncs, failures: gc.failures };
      for (const [name, c] of running) stats[kcmName(name)] = c.stats();
      return stats;
    },
    close: () => (closing ??= close()),
  };
}

/** Resolves true once every monitor has listed; false when `timeoutMs` passes or `signal` aborts first. */
function untilSynced(
  monitors: Monitors,
  clock: Clock,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = clock.setTimeout(() => finish(false), timeoutMs);
    const onAbort = () => finish(false);
    signal.addEventListener('abort', onAbort, { once: true });
    function finish(synced: boolean) {
      timer.cancel();
      signal.removeEventListener('abort', onAbort);
      resolve(synced);
    }
    monitors.synced().then(
      () => finish(true),
      () => finish(false),
    );
  });
}
