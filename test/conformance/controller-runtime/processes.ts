/**
 * Child processes of the runner (the watchmark CLI, the test binaries and
 * what envtest starts under them): each spawned in a process group of its
 * own, and stopped with its whole tree of descendants, found by their ids in
 * /proc. envtest starts kube-apiserver and etcd in groups of their own
 * (Setpgid), so killing the test binary's group alone could leave them
 * running after a hard timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const live = new Set<ChildProcess>();

/** Spawns `command` detached (its own process group); the runner stops it on exit. */
export function spawnOwned(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; stdio: Array<'ignore' | 'pipe' | number> },
): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** The ids of every process below `pid` (children, their children, ...), read from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/PID/stat is the parent id; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we read: nothing to stop.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/**
 * Stops `child` and everything under it: SIGTERM to its group and its
 * descendants, then SIGKILL to all of them after `graceMs`. Resolves once
 * `child` has exited.
 */
export async function stopTree(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const tree = descendants(pid);
  signal(-pid, 'SIGTERM');
  for (const p of tree) signal(p, 'SIGTERM');
  const timer = setTimeout(() => {
    signal(-pid, 'SIGKILL');
    for (const p of [...tree, ...descendants(pid)]) signal(p, 'SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(timer);
  // What outlived its parent (a kube-apiserver whose test binary was killed) goes too.
  for (const p of tree) signal(p, 'SIGKILL');
}

/** Stops every child still running (on Ctrl-C or an uncaught error). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((child) => stopTree(child, 3_000)));
}
