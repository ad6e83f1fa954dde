import type { Clock } from '../../protocol/clock.js';

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
 * The attempt number of a failure at `now`, after `attempt` failures whose
 * last was at `lastAt` (1 is the first): it starts over after `resetAfterMs`
 * without a failure.
 */
export function nextAttempt(
  attempt: number,
  lastAt: number,
  now: number,
  opts: Required<BackoffOptions>,
): number {
  return now - lastAt > opts.resetAfterMs ? 1 : attempt + 1;
}

/**
 * The wait before retrying after failure number `attempt` (1 is the first):
 * `initialMs` doubling to `maxMs`, times 1 + `jitter` x `random` (`random`
 * in [0, 1)). A pure function of the attempt: the watcher keeps the count in
 * its state (restart.ts).
 */
export function backoffDelay(attempt: number, opts: Required<BackoffOptions>, random: number): number {
  // Doubling stops at the cap; the exponent is bounded so that a long outage never overflows.
  const base =
    attempt <= 1 ? opts.initialMs : Math.min(opts.initialMs * 2 ** Math.min(attempt - 1, 64), opts.maxMs);
  return base * (1 + opts.jitter * random);
}

/**
 * Exponential backoff with jitter, reset after a healthy period: the same
 * shape as client-go's `wait.NewExponentialBackoffManager` used by the
 * reflector, so many clients restarting at once spread out.
 */
export class Backoff {
  private readonly opts: Required<BackoffOptions>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private attempt = 0;
  private lastFailure = Number.NEGATIVE_INFINITY;

  constructor(clock: Clock, random: () => number, opts: BackoffOptions = {}) {
    this.opts = { ...DEFAULT_BACKOFF, ...opts };
    this.clock = clock;
    this.random = random;
  }

  /** The delay before the next attempt after a failure; at least `minMs` (e.g. Retry-After). */
  next(minMs = 0): number {
    const now = this.clock.now();
    this.attempt = nextAttempt(this.attempt, this.lastFailure, now, this.opts);
    this.lastFailure = now;
    return Math.max(backoffDelay(this.attempt, this.opts, this.random()), minMs);
  }
}
