/**
 * Waiting on a condition instead of a fixed time: a test that sleeps a fixed
 * time and then checks flakes on a loaded machine (too short) or checks
 * nothing (the event came after). Poll the condition instead, with a
 * generous deadline that only a real failure reaches. Built on the
 * polling of src/process/wait.ts, with the tests' pace (every 10 ms) and
 * deadline (10 s).
 */
import { pollUntil } from '../../src/process/index.js';

/**
 * Resolves once `check` holds (polled every `intervalMs`); rejects after
 * `timeoutMs`, naming `what` (a function is called then, so the message can
 * show the state the wait ended in).
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 10_000,
  intervalMs = 10,
): Promise<void> {
  if (await pollUntil(check, { timeoutMs, intervalMs })) return;
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`,
  );
}

/**
 * Polls `probe` until it returns a truthy value, and resolves with it. A
 * probe that throws is tried again (the object is not there yet); the last
 * error goes into the timeout's message.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 15_000,
  intervalMs = 25,
): Promise<T> {
  let last: unknown;
  const value = await pollUntil(
    async () => {
      try {
        return await probe();
      } catch (err) {
        last = err;
        return undefined;
      }
    },
    { timeoutMs, intervalMs },
  );
  if (value) return value as T;
  const cause = last ? ` (last error: ${(last as Error).message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
}
