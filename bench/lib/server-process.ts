/**
 * Parent-side handle of the API server child process (see server-child.ts):
 * spawn it, ask it for CPU/memory/stat samples, close it. Whoever spawns it
 * owns it: `close()` on the normal path, `kill()` on every other one (the
 * module also kills any still-running child when the parent exits).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerOptions, ServerStats } from '../../src/server/index.js';

/** What the server process reports about itself at one instant. */
export interface ServerSample {
  /** `performance.now()` in the child (ms). */
  at: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Cumulative event-loop active time (ms). */
  eluActiveMs: number;
  stats: ServerStats;
  latestRevision: number;
}

/** A running server child. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** Asks the child for a fresh sample (rejects after `timeoutMs`, or if the child dies). */
  sample(timeoutMs?: number): Promise<ServerSample>;
  /** Closes the server and waits for the process to exit (kills it after `timeoutMs`). */
  close(timeoutMs?: number): Promise<void>;
  /** Kills the process now (SIGKILL); for error paths. */
  kill(): void;
  /** How the process ended (`exit code 1`, `signal SIGKILL`), or undefined while it runs. */
  exitReason(): string | undefined;
}

const CHILD_SCRIPT = fileURLToPath(new URL('./server-child.ts', import.meta.url));
const live = new Set<ChildProcess>();

// Last line of defence: whatever way the parent exits, no server outlives it.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Kills every server child still running (signal handlers call this before exiting). */
export function killAllServers(): void {
  for (const child of live) child.kill('SIGKILL');
}

/** The CPU time (ms) the server spent between two samples. */
export function cpuMsBetween(a: ServerSample, b: ServerSample): number {
  return (b.cpuUserUs + b.cpuSystemUs - a.cpuUserUs - a.cpuSystemUs) / 1000;
}

/**
 * Starts the server in a child process (`node --import tsx`) and waits for it
 * to listen. `WATCHMARK_BENCH_SERVER_ARGS` adds node flags to the child, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server under load.
 */
export function spawnServer(options: ServerOptions, startTimeoutMs = 30_000): Promise<ServerProcess> {
  const child = fork(CHILD_SCRIPT, [], {
    execArgv: [
      '--import',
      'tsx',
      '--max-old-space-size=4096',
      ...(process.env.WATCHMARK_BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
    ],
    env: { ...process.env, WATCHMARK_BENCH_SERVER_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  let exited = false;
  let exitReason: string | undefined;
  const exitWaiters: Array<() => void> = [];
  const pending = new Map<number, { resolve: (s: ServerSample) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  child.on('exit', (code, signal) => {
    exited = true;
    exitReason = signal ? `signal ${signal}` : `exit code ${code}`;
    live.delete(child);
    for (const p of pending.values()) p.reject(new Error(`server process exited (${signal ?? code})`));
    pending.clear();
    for (const w of exitWaiters.splice(0)) w();
  });
  child.on('message', (message: { type: string; id?: number; sample?: ServerSample }) => {
    if (message.type !== 'sample' || message.id === undefined) return;
    const p = pending.get(message.id);
    pending.delete(message.id);
    p?.resolve(message.sample!);
  });

  const waitExit = (timeoutMs: number): Promise<void> =>
    new Promise((resolve) => {
      if (exited) return resolve();
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
      }, timeoutMs);
      exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server process did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    const onEarlyExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`server process exited before it was ready (${signal ?? code})`));
    };
    child.once('exit', onEarlyExit);
    child.on('message', (message: { type: string; url?: string; error?: string }) => {
      if (message.type === 'failed') {
        clearTimeout(timer);
        child.off('exit', onEarlyExit);
        child.kill('SIGKILL');
        reject(new Error(`server failed to start: ${message.error}`));
        return;
      }
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      resolve({
        url: message.url!,
        pid: child.pid!,
        sample(timeoutMs = 30_000) {
          if (exited) return Promise.reject(new Error('server process has exited'));
          return new Promise((res, rej) => {
            const id = nextId++;
            const t = setTimeout(() => {
              pending.delete(id);
              rej(new Error(`server did not answer a sample within ${timeoutMs} ms`));
            }, timeoutMs);
            pending.set(id, {
              resolve: (s) => {
                clearTimeout(t);
                res(s);
              },
              reject: (e) => {
                clearTimeout(t);
                rej(e);
              },
            });
            child.send({ type: 'sample', id });
          });
        },
        close(timeoutMs = 10_000) {
          if (!exited && child.connected) child.send({ type: 'close' });
          return waitExit(timeoutMs);
        },
        kill() {
          if (!exited) child.kill('SIGKILL');
        },
        exitReason: () => exitReason,
      });
    });
  });
}
