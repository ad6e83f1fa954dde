/**
 * One controller's worker over a {@link WorkQueue}: client-go's `processNextWorkItem` as the
 * controllers of kube-controller-manager and apiextensions-apiserver write it
 * (pkg/controller/namespace/namespace_controller.go `worker`, apiextensions-apiserver
 * pkg/controller/status/naming_controller.go `processNextWorkItem`): take a key, sync it, and
 * then `Forget` it on success or `AddRateLimited` it on failure (per-key exponential backoff),
 * always `Done`. The queue's rules (k8s.io/client-go/util/workqueue) do the rest: a key waits at
 * most once, and a key added while its sync runs is synced again after it, never twice at once.
 */
import type { Clock } from '../../protocol/clock.js';
import { WorkQueue } from '../../protocol/workqueue.js';

/** What a sync asks for after it succeeded: nothing, or the key again after `requeueAfterMs`. */
export type SyncOutcome = { requeueAfterMs: number } | undefined;

/** Options of a {@link WorkLoop}. */
export interface WorkLoopOptions {
  /** Names the controller in log lines. */
  name: string;
  clock: Clock;
  /** Brings the object of `key` to what it should be; throws to be retried with backoff. */
  sync(key: string): Promise<SyncOutcome | undefined>;
  log(message: string): void;
  /** First retry delay after a failure (client-go: 5 ms). */
  baseDelayMs?: number;
  /** Retry delay cap (client-go's default controller rate limiter: 1000 s). */
  maxDelayMs?: number;
}

/** A work queue and the one worker that drains it. */
export class WorkLoop {
  private readonly queue: WorkQueue;
  private readonly opts: WorkLoopOptions;
  private worker: Promise<void> | undefined;
  /** Woken after each sync, for {@link idle}. */
  private synced = pending();
  private stopped = false;

  constructor(opts: WorkLoopOptions) {
    this.opts = opts;
    this.queue = new WorkQueue(opts.clock, { baseDelayMs: opts.baseDelayMs, maxDelayMs: opts.maxDelayMs });
  }

  /** Queues `key` (ignored once stopped, or while it already waits). */
  add(key: string): void {
    this.queue.add(key);
  }

  /** Queues `key` after `delayMs` (the earlier of two pending delays wins). */
  addAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }

  /** Starts the worker. */
  start(): void {
    this.worker ??= this.work();
  }

  /**
   * Resolves once no key waits and none is being synced (keys waiting out a delay do not count):
   * what a start or a restore waits for before it goes on.
   */
  async idle(): Promise<void> {
    while (!this.stopped && (this.queue.length > 0 || this.queue.processingCount > 0))
      await this.synced.promise;
  }

  /** Stops taking keys and cancels delayed ones; a sync under way finishes first. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.shutDown();
    this.synced.resolve();
    await this.worker;
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined || this.stopped) return;
      try {
        // One sync per turn of the event loop: over the memory store a sync can complete in
        // microtasks alone, and a queue that keeps refilling must never starve the server.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const outcome = await this.opts.sync(key);
        this.queue.forget(key);
        if (outcome) this.queue.addAfter(key, outcome.requeueAfterMs);
      } catch (err) {
        // utilruntime.HandleError, then the rate-limited requeue.
        this.opts.log(`${this.opts.name} ${key}: ${err instanceof Error ? err.message : String(err)}`);
        this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
        const { resolve } = this.synced;
        this.synced = pending();
        resolve();
      }
    }
  }
}

function pending(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
