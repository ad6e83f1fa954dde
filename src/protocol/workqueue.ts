/**
 * A work queue with client-go's semantics (`util/workqueue`, queue.go and
 * default_rate_limiters.go): keys, not objects, are queued, so a burst of
 * events about one object costs one sync; a key waits at most once however
 * often it is added; a key is never handed to two workers at once (added
 * while it is processed, it runs again after `done`); failed keys come back
 * after a per-key exponential delay (`DefaultControllerRateLimiter`: 5 ms
 * doubling, 1000 s cap); delayed adds keep only the earliest timer per key.
 * The simulated controllers, the garbage collector and the API server's own
 * controllers (server/controllers/) run on it.
 */
import type { Clock, TimerHandle } from './clock.js';

/** Options of {@link WorkQueue}. */
export interface WorkQueueOptions {
  /** First retry delay after a failure (client-go: 5 ms). */
  baseDelayMs?: number;
  /** Retry delay cap (client-go: 1000 s). */
  maxDelayMs?: number;
}

/** A deduplicating, rate-limited FIFO of keys (see the module comment). */
export class WorkQueue {
  private items: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly waiters: Array<(key: string | undefined) => void> = [];
  private readonly timers = new Map<string, { at: number; handle: TimerHandle }>();
  private readonly failures = new Map<string, number>();
  private readonly clock: Clock;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private shuttingDown = false;

  constructor(clock: Clock, opts: WorkQueueOptions = {}) {
    this.clock = clock;
    this.baseDelayMs = opts.baseDelayMs ?? 5;
    this.maxDelayMs = opts.maxDelayMs ?? 1_000_000;
  }

  /** Queues `key` unless it is already waiting. */
  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    // A key being processed is queued again when its worker calls done().
    if (this.processing.has(key)) return;
    this.push(key);
  }

  /** Queues `key` after `delayMs` (an earlier pending timer for it wins). */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const at = this.clock.now() + delayMs;
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    existing?.handle.cancel();
    const handle = this.clock.setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    this.timers.set(key, { at, handle });
  }

  /** Queues `key` again after a failure: 5 ms, 10 ms, 20 ms ... capped. */
  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    this.addAfter(key, Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs));
  }

  /** Clears the failure count of `key` (after a successful sync). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** How many times `key` failed in a row. */
  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next key to process; undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.head < this.items.length) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks `key` processed; if it was added meanwhile it is queued again. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
  }

  /** Keys waiting to be taken now (not counting delayed ones). */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Keys handed to a worker and not yet `done`. */
  get processingCount(): number {
    return this.processing.size;
  }

  /** Stops the queue: pending timers are cancelled and waiting workers get undefined. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers.values()) t.handle.cancel();
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  private push(key: string): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
      return;
    }
    this.items.push(key);
  }

  private take(): string {
    const key = this.items[this.head++];
    // Compact now and then so the array does not grow forever.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.dirty.delete(key);
    this.processing.add(key);
    return key;
  }
}
