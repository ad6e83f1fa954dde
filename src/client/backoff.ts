import type { Clock } from '../protocol/clock.js';

/** Backoff settings (client-go's reflector defaults). */
export interface BackoffOptions {
  /** First delay (800 ms). */
  initialMs?: number;
  /** Cap (30 s). */
  maxMs?: number;
  /** Each wait is in [d, d * (1 + jitter)) (jitter 1.0). */
  jitter?: number;
  /** After this long without a failure the delay starts over (2 minutes). */
  resetAfterMs?: number;
}

/** Default backoff, as client-go's reflector. */
export const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  initialMs: 800,
  maxMs: 30_000,
  jitter: 1.0,
  resetAfterMs: 120_000,
};

/**
 * Exponential backoff with jitter, reset after a healthy period: the same
 * shape as client-go's `wait.NewExponentialBackoffManager` used by the
 * reflector, so many clients restarting at once spread out.
 */
export class Backoff {
  private readonly opts: Required<BackoffOptions>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private current = 0;
  private lastFailure = Number.NEGATIVE_INFINITY;

  constructor(clock: Clock, random: () => number, opts: BackoffOptions = {}) {
    this.opts = { ...DEFAULT_BACKOFF, ...opts };
    this.clock = clock;
    this.random = random;
  }

  /** The delay before the next attempt after a failure; at least `minMs` (e.g. Retry-After). */
  next(minMs = 0): number {
    const now = this.clock.now();
    if (now - this.lastFailure > this.opts.resetAfterMs) this.current = 0;
    this.lastFailure = now;
    this.current = this.current === 0 ? this.opts.initialMs : Math.min(this.current * 2, this.opts.maxMs);
    const delay = this.current * (1 + this.opts.jitter * this.random());
    return Math.max(delay, minMs);
  }
}

/** Sleeps `ms` on `clock`; resolves false (early) if `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.cancel();
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
