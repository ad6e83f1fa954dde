/**
 * Waiting on a condition instead of a fixed time: a test that sleeps a fixed
 * time and then checks flakes on a loaded machine (too short) or checks
 * nothing (the event came after). Poll the condition instead, with a
 * generous deadline that only a real failure reaches.
 */

/** Resolves once `check` holds (polled every 10 ms); rejects after `timeoutMs`, naming `what`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
