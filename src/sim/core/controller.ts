/**
 * What every simulated controller shares: the client it talks through, the
 * clock for its timers, and a worker loop over a {@link WorkQueue} that
 * turns a failed sync into a rate-limited retry, as kube-controller-manager's
 * `processNextWorkItem` does.
 */
import type { KubeClient } from '../../client/client.js';
import type { Clock } from '../../protocol/clock.js';
import { isConflict } from '../../protocol/status.js';
import { WorkQueue } from '../../protocol/workqueue.js';

/** What a simulated component needs from its surroundings. */
export interface SimContext {
  /** The connection to the API server (the component's only way to reach it). */
  kube: KubeClient;
  /** Time source for timers and timestamps. */
  clock: Clock;
  /** Aborted when the simulation stops: every request carries it. */
  signal: AbortSignal;
  /** One-line log sink. */
  log: (line: string) => void;
}

/** A sync failure with the controller and key it happened in. */
export class ControllerError extends Error {
  /** The controller's name (`deployment-controller`). */
  readonly controller: string;
  /** The work-queue key being synced. */
  readonly key: string;

  constructor(controller: string, key: string, message: string, options?: ErrorOptions) {
    super(`${controller}: ${key}: ${message}`, options);
    this.name = 'ControllerError';
    this.controller = controller;
    this.key = key;
  }
}

/**
 * A controller: handlers put keys on its queue, `workers` loops take them
 * off one at a time and call {@link Controller.sync}. A key is never synced
 * by two workers at once (the queue guarantees it).
 */
export abstract class Controller {
  /** Syncs that failed (and were retried). */
  failures = 0;
  /** Syncs completed. */
  syncs = 0;
  readonly name: string;
  protected readonly ctx: SimContext;
  protected readonly queue: WorkQueue;
  private readonly workers: number;
  private running: Promise<void>[] = [];

  constructor(name: string, ctx: SimContext, workers = 1) {
    this.name = name;
    this.ctx = ctx;
    this.workers = workers;
    // Retries capped at 10 s (client-go: 1000 s), so a demo recovers while you watch.
    this.queue = new WorkQueue(ctx.clock, { maxDelayMs: 10_000 });
  }

  /** Brings one key's world in line with its spec; throwing retries it with backoff. */
  protected abstract sync(key: string): Promise<void>;

  /** Starts the worker loops. */
  start(): void {
    for (let i = 0; i < this.workers; i++) this.running.push(this.work());
  }

  /** Stops taking work and waits for the syncs in progress to end. */
  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
  }

  /** Queues a key (handlers call this). */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.sync(key);
        this.syncs++;
        this.queue.forget(key);
      } catch (err) {
        if (this.ctx.signal.aborted) {
          this.queue.done(key);
          return;
        }
        this.failures++;
        // A conflict is the normal cost of acting on a cache: retry quietly.
        if (!isConflict(err)) this.ctx.log(`${this.name}: sync ${key} failed: ${(err as Error).message}`);
        this.queue.addRateLimited(key);
      }
      this.queue.done(key);
    }
  }
}
