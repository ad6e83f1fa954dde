/**
 * The garbage collector's queues, with client-go's `util/workqueue` rules
 * (queue.go and default_rate_limiters.go): a key waits at most once however
 * often it is added; a key being worked on is never handed to a second
 * worker (added meanwhile, it comes back once the first is done); a failed
 * key returns after a per-key exponential delay (client-go's
 * `DefaultControllerRateLimiter`: 5 ms doubling, 1000 s cap).
 */
import type { Clock, TimerHandle } from '../protocol/clock.js';

/** Options of {@link KeyQueue}. */
export interface KeyQueueOptions {
  /** First delay after a failure (client-go: 5 ms). */
  baseDelayMs?: number;
  /** Delay cap (client-go: 1000 s). */
  maxDelayMs?: number;
}

/** A deduplicating FIFO of keys with rate-limited retries (see the module comment). */
export class KeyQueue {
  private queue: string[] = [];
  private readonly waiting = new Set<string>();
  private readonly active = new Set<string>();
  private readonly takers: Array<(key: string | undefined) => void> = [];
  private readonly delayed = new Map<string, { at: number; timer: TimerHandle }>();
  private readonly failures = new Map<string, number>();
  private readonly clock: Clock;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private closed = false;

  constructor(clock: Clock, opts: KeyQueueOptions = {}) {
    this.clock = clock;
    this.baseDelayMs = opts.baseDelayMs ?? 5;
    this.maxDelayMs = opts.maxDelayMs ?? 1_000_000;
  }

  /** Queues `key` unless it already waits. */
  add(key: string): void {
    if (this.closed || this.waiting.has(key)) return;
    this.waiting.add(key);
    if (!this.active.has(key)) this.hand(key);
  }

  /** Queues `key` after a failure: 5 ms, 10 ms, 20 ms ... (an earlier pending retry wins). */
  addRateLimited(key: string): void {
    if (this.closed) return;
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs);
    const at = this.clock.now() + delay;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    pending?.timer.cancel();
    const timer = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delay);
    this.delayed.set(key, { at, timer });
  }

  /** Clears the failure count of `key` (its work succeeded, or is no longer wanted). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** The next key; undefined once the queue is closed. */
  get(): Promise<string | undefined> {
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(this.activate(key));
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  /** Marks `key` done; added again meanwhile, it is queued now. */
  done(key: string): void {
    this.active.delete(key);
    if (this.waiting.has(key) && !this.closed) this.hand(key);
  }

  /** Keys waiting to be taken now. */
  get ready(): number {
    return this.queue.length;
  }

  /** Keys waiting, plus those being worked on and those due for a retry. */
  get pending(): number {
    return this.queue.length + this.active.size + this.delayed.size;
  }

  /** Stops the queue: retries are cancelled, waiting workers get undefined. */
  close(): void {
    this.closed = true;
    for (const d of this.delayed.values()) d.timer.cancel();
    this.delayed.clear();
    for (const t of this.takers.splice(0)) t(undefined);
  }

  private hand(key: string): void {
    const taker = this.takers.shift();
    if (taker) taker(this.activate(key));
    else this.queue.push(key);
  }

  private activate(key: string): string {
    this.waiting.delete(key);
    this.active.add(key);
    return key;
  }
}
