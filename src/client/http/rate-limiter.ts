import { type Clock, systemClock } from '../../protocol/clock.js';

/**
 * A token bucket, as client-go's default client-side rate limiter
 * (`flowcontrol.NewTokenBucketRateLimiter(qps, burst)`): it protects servers
 * from a misbehaving caller by spacing requests once a burst is spent.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: Clock;
  private queue: Promise<void> = Promise.resolve();

  /** `qps` <= 0 disables limiting. */
  constructor(qps: number, burst: number, clock: Clock = systemClock) {
    this.qps = qps;
    this.burst = Math.max(1, burst);
    this.tokens = this.burst;
    this.clock = clock;
    this.last = clock.now();
  }

  /** Resolves when a request may go; rejects if `signal` aborts first. */
  take(signal?: AbortSignal): Promise<void> {
    if (this.qps <= 0) return Promise.resolve();
    // Chain waiters so they are served in order.
    const turn = this.queue.then(() => this.acquire(signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    const waitMs = ((1 - this.tokens) / this.qps) * 1000;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        timer.cancel();
        reject(signal?.reason);
      };
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        this.tokens = 0;
        this.last = this.clock.now();
        resolve();
      }, waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
