/**
 * A work queue of keys with client-go's rules (util/workqueue): a key is
 * queued at most once; a key being processed that is added again is
 * processed again after `done`, never by two workers at once; a failed key
 * comes back after a per-key exponential backoff (`addRateLimited`), reset by
 * `forget` once it succeeds.
 */

export interface WorkQueueOptions {
  /** First retry delay (client-go's ItemExponentialFailureRateLimiter: 5 ms). */
  baseDelayMs?: number;
  /** Largest retry delay (client-go: 1000 s; an example wants seconds). */
  maxDelayMs?: number;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters: Array<(key: string | undefined) => void> = [];
  private shuttingDown = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(opts: WorkQueueOptions = {}) {
    this.baseDelayMs = opts.baseDelayMs ?? 5;
    this.maxDelayMs = opts.maxDelayMs ?? 2_000;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
    } else this.queue.push(key);
  }

  /** Adds `key` again after its backoff: 5 ms, 10 ms, 20 ms... per consecutive failure. */
  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, delay);
    this.timers.add(timer);
  }

  /** Clears `key`'s failure count. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** How many times `key` failed in a row. */
  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next key to process, or undefined once shut down. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key !== undefined) {
      this.dirty.delete(key);
      this.processing.add(key);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks `key` processed; queues it again if it was added meanwhile. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.dirty.delete(key);
      this.add(key);
    }
  }

  /** Stops handing out keys; pending retries are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}
