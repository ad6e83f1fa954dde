/**
 * Leaked handles: what a test file left open that keeps a process alive (a ref'd timer, a
 * socket, a listening server, a child process), read from Node's own list of the resources
 * keeping the event loop alive, `process.getActiveResourcesInfo()`, and compared with the
 * list before the file ran. Unref'd timers and handles are not on that list: they keep
 * nothing alive, so they are no leak.
 *
 * The vitest setup (leaked-handles.setup.ts) runs the check after every test file.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** How many resources of each type keep the event loop alive now, by type (`Timeout`, `TCPSocketWrap`, ...). */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/**
 * The types of which there are more now than in `before`, with how many more, by type; `allowed`
 * types are left out. Empty when nothing was left open.
 */
export function leakedSince(
  before: Map<string, number>,
  now: Map<string, number> = activeResources(),
  allowed: readonly string[] = [],
): Map<string, number> {
  const leaked = new Map<string, number>();
  for (const [type, count] of now) {
    const more = count - (before.get(type) ?? 0);
    if (more > 0 && !allowed.includes(type)) leaked.set(type, more);
  }
  return leaked;
}

/**
 * Waits until nothing is leaked since `before` (a socket being closed, a child process being
 * reaped, a timer's last run are still on the list for a moment), polling every `intervalMs`
 * for at most `graceMs`; then the leaks still there (empty when none). The poll's own sleep is
 * unref'd, so it is not on the list it reads.
 */
export async function leaksAfterGrace(
  before: Map<string, number>,
  options: { graceMs?: number; intervalMs?: number; allowed?: readonly string[] } = {},
): Promise<Map<string, number>> {
  const { graceMs = 2_000, intervalMs = 20, allowed = [] } = options;
  const deadline = performance.now() + graceMs;
  for (;;) {
    const leaked = leakedSince(before, activeResources(), allowed);
    if (leaked.size === 0 || performance.now() >= deadline) return leaked;
    await sleep(intervalMs, undefined, { ref: false });
  }
}

/** `Timeout x2, TCPSocketWrap x1`: the leaks in one line. */
export function describeLeaks(leaked: Map<string, number>): string {
  return [...leaked].map(([type, count]) => `${type} x${count}`).join(', ');
}
