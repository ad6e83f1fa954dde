/**
 * client-go's retry package (`retry.RetryOnConflict` with
 * `retry.DefaultRetry`): a read-modify-write run again, from a fresh read,
 * while the server answers 409 Conflict.
 */
import { type Clock, sleep, systemClock } from '../protocol/clock.js';
import { StatusError } from '../protocol/status.js';

/** Options of {@link retryOnConflict} (client-go's `retry.DefaultRetry`: 5 steps, 10 ms, jitter 0.1). */
export interface RetryOptions {
  steps?: number;
  delayMs?: number;
  jitter?: number;
  clock?: Clock;
}

/**
 * Runs `fn` (a read-modify-write) again while it fails with 409 Conflict, as
 * client-go's `retry.RetryOnConflict`: each attempt must re-read the object.
 */
export async function retryOnConflict<R>(fn: () => Promise<R>, opts: RetryOptions = {}): Promise<R> {
  const steps = opts.steps ?? 5;
  const clock = opts.clock ?? systemClock;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409 && err.reason === 'Conflict') || attempt >= steps)
        throw err;
      const base = opts.delayMs ?? 10;
      await sleep(clock, base * (1 + (opts.jitter ?? 0.1) * Math.random()));
    }
  }
}
