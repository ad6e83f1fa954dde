import { isTransient, toStoreError, unreachable } from './etcd-errors.js';
import { unknownOutcome } from './etcd-outcome.js';
import { StoreError, type StoreKV } from './types.js';

/** How long, and against what, the etcd store retries. */
export interface RetryOptions {
  /** For messages: the members' URLs. */
  endpoints: string[];
  /** How long calls are retried while etcd is unavailable. */
  unavailableMs: number;
  log: (message: string) => void;
}

/**
 * Runs an etcd call, mapping its errors, and retries it while etcd is
 * unavailable (a member died, an election runs) for up to `unavailableMs`:
 * at once on another member the first time a member cannot be reached (its
 * circuit breaker skips it), then with a backoff from 50 ms to 500 ms.
 * `giveUpNote` ends the message of the error that says it gave up.
 */
export async function whileUnavailable<T>(
  opts: RetryOptions,
  fn: () => Promise<T>,
  giveUpNote: () => string = () => '',
): Promise<T> {
  const started = Date.now();
  const deadline = started + opts.unavailableMs;
  let pause = 50;
  // The client's own "circuit breaker is open" hides why: keep the failure behind it.
  let cause = '';
  let first = true;
  for (;;) {
    try {
      return await fn();
    } catch (raw) {
      const err = toStoreError(raw);
      if (!isTransient(raw)) throw err;
      if (!/circuit breaker/.test(err.message)) cause = err.message;
      const wait = first && unreachable(raw as Error) ? 0 : pause;
      if (Date.now() + wait > deadline) {
        throw new StoreError(
          'unavailable',
          `etcd (${opts.endpoints.join(', ')}) unavailable for ${Date.now() - started} ms: ${cause || err.message}${giveUpNote()}`,
        );
      }
      if (first) opts.log(`etcd unavailable (${cause || err.message}); retrying`);
      first = false;
      await new Promise((r) => setTimeout(r, wait));
      if (wait > 0) pause = Math.min(pause * 2, 500);
    }
  }
}

/**
 * A write that goes through a member's death or an election: retried like a
 * read while etcd is unavailable. Every write is a transaction conditioned
 * on the key's revision, so at most one copy ever applies; but a copy whose
 * answer was lost may have applied, and its resend then fails its compare.
 * So once an attempt's answer is lost, `settle` first reads from the key's
 * history whether it applied (etcd-outcome.ts): if so, that is the answer;
 * if not, the write is sent again, and a resend that fails its compare is
 * settled once more (the lost copy may have applied since). A write that
 * runs out of time after a lost answer says that it may have been applied.
 */
export function settledWrite<R extends { succeeded: boolean }>(
  opts: RetryOptions,
  key: string,
  attempt: () => Promise<R>,
  settle: () => Promise<StoreKV | undefined>,
): Promise<{ res: R } | { settled: StoreKV }> {
  let lost = false;
  return whileUnavailable(
    opts,
    async () => {
      try {
        if (lost) {
          const done = await settle();
          if (done) return { settled: done };
        }
        const res = await attempt();
        if (!res.succeeded && lost) {
          const done = await settle();
          if (done) return { settled: done };
        }
        return { res };
      } catch (raw) {
        if (isTransient(raw)) lost = true;
        else if (lost && toStoreError(raw).code === 'compacted') throw unknownOutcome(key, toStoreError(raw));
        throw raw;
      }
    },
    () => (lost ? ` (the write to ${key} may or may not have been applied)` : ''),
  );
}
