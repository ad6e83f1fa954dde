/**
 * Polling a condition until it holds, for what has no event to wait on (a
 * child process's counters, a server's revision, a page opened in a
 * browser). The study, the CLI's demo and the benchmarks share this one;
 * tests have their own in test/helpers/wait.ts, built on it. A timeout names
 * what was awaited, so the error says what never happened.
 */

/** How {@link pollUntil} and {@link waitUntil} poll. */
export interface PollOptions {
  /** Give up after this long (default: never). */
  timeoutMs?: number;
  /** Pause between two checks (default 50 ms). */
  intervalMs?: number;
}

/** A wait that ran out of time; the message names what was awaited. */
export class WaitTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WaitTimeoutError';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Checks `probe` until it returns a truthy value and resolves with it, or
 * resolves `undefined` once `timeoutMs` have passed. The last check comes
 * after the deadline, so a condition met during the final pause still counts.
 */
export async function pollUntil<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = Number.POSITIVE_INFINITY, intervalMs = 50 }: PollOptions = {},
): Promise<NonNullable<T> | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) return undefined;
    await sleep(intervalMs);
  }
}

/**
 * {@link pollUntil}, failing with a {@link WaitTimeoutError} that names
 * `what` (called at the deadline when a function, so it can describe the
 * state the wait ended in).
 */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  what: string | (() => string),
  options: PollOptions = {},
): Promise<NonNullable<T>> {
  const value = await pollUntil(probe, options);
  if (value) return value;
  const described = typeof what === 'function' ? what() : what;
  throw new WaitTimeoutError(`timed out after ${options.timeoutMs} ms waiting for ${described}`);
}
