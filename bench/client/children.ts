/**
 * Parent-side handles of the client benchmark's child processes: the server
 * (server-child.ts) and one process per client job (child.ts),
 * all `node --import tsx`. Every child is tracked until it exits and killed
 * when the parent exits, whatever the path.
 *
 * Placement. On two CPUs, where the scheduler puts the server, the client's
 * main thread and the client's GC helper threads changes a client's speed by
 * up to 1.7x from one process to the next (bench/client/notes.md, "Why
 * client-node beats the floor", finding 6). `pinned` puts the server on CPU 0
 * and each client process, all its threads, on CPU 1 (`taskset`, Linux), so
 * every client gets the same CPU and the server never shares it; `unpinned`
 * leaves placement to the scheduler, as users run. Where `taskset` is
 * missing or there is one CPU, pinned is not available and the report says so.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ClientJob, ClientResult, Placement, ServerInfo, ServerPlan } from './plan.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./server-child.ts', import.meta.url));
const CLIENT_SCRIPT = fileURLToPath(new URL('./child.ts', import.meta.url));
const live = new Set<ChildProcess>();

process.on('exit', () => killAllChildren());

/** Kills every child still running (SIGKILL). */
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
}

/** The CPU the server runs on when pinned; clients get {@link CLIENT_CPU}. */
const SERVER_CPU = '0';
const CLIENT_CPU = '1';

let tasksetFound: boolean | undefined;

/** Whether `pinned` placement can be had here: two CPUs or more, and `taskset`. */
export function canPin(): boolean {
  if (tasksetFound === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      tasksetFound = true;
    } catch {
      tasksetFound = false;
    }
  }
  return tasksetFound && cpus().length >= 2;
}

/** Moves a running process, every thread of it, to its CPUs for `placement` (the server: CPU 0, or all). */
export function placeServer(pid: number, placement: Placement): void {
  if (placement === 'pinned' && !canPin()) throw new Error('pinned placement needs taskset and two CPUs');
  if (!canPin()) return;
  const list = placement === 'pinned' ? SERVER_CPU : `0-${cpus().length - 1}`;
  execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
}

/**
 * `node --import tsx script` with an IPC channel; pinned, started through
 * `taskset -c 1` (which execs node in place, so the channel's descriptor and
 * every thread node starts inherit the CPU).
 */
function forkTs(
  script: string,
  env: Record<string, string>,
  execArgv: string[],
  placement: Placement = 'unpinned',
): ChildProcess {
  if (placement === 'pinned' && !canPin()) throw new Error('pinned placement needs taskset and two CPUs');
  const nodeArgs = ['--import', 'tsx', ...execArgv, script];
  const [command, args] =
    placement === 'pinned'
      ? ['taskset', ['-c', CLIENT_CPU, process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

/** Waits for a child's `want` message; rejects on `failed`, an early exit or the timeout (killing it). */
function awaitMessage<T>(
  child: ChildProcess,
  want: string,
  what: string,
  timeoutMs: number,
  onProgress?: (text: string) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(() => {
          child.kill('SIGKILL');
          reject(new Error(`${what}: no answer within ${timeoutMs} ms`));
        }),
      timeoutMs,
    );
    const onMessage = (m: { type: string; text?: string; error?: string }) => {
      if (m.type === 'progress') onProgress?.(m.text ?? '');
      else if (m.type === 'failed')
        finish(() => {
          child.kill('SIGKILL');
          reject(new Error(`${what} failed: ${m.error}`));
        });
      else if (m.type === want) finish(() => resolve(m as T));
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(() => reject(new Error(`${what} exited early (${signal ?? code})`)));
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

function waitExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A running server child. */
export interface ServerChild {
  info: ServerInfo;
  /** Asks the server to close, waits for the process (SIGKILL after 10 s). */
  close(): Promise<void>;
}

/** Starts the server child, which seeds and churns before answering. */
export async function startServerChild(plan: ServerPlan, timeoutMs: number): Promise<ServerChild> {
  const child = forkTs(SERVER_SCRIPT, { WATCHMARK_BENCH_CLIENT_PLAN: JSON.stringify(plan) }, [
    '--max-old-space-size=8192',
  ]);
  const info = await awaitMessage<ServerInfo>(child, 'ready', 'server', timeoutMs);
  return {
    info,
    async close() {
      if (child.connected) child.send({ type: 'close' });
      await waitExit(child, 10_000);
    },
  };
}

/** A client process (child.ts), single run or worker as `env` says: GC exposed, room for 50,000 pods. */
function forkClient(env: Record<string, string>, placement: Placement): ChildProcess {
  return forkTs(CLIENT_SCRIPT, env, ['--expose-gc', '--max-old-space-size=8192'], placement);
}

/** Runs one client job in a fresh process, placed as asked, and returns what it measured. */
export async function runClientJob(
  job: ClientJob,
  timeoutMs: number,
  placement: Placement = 'unpinned',
): Promise<ClientResult> {
  const child = forkClient({ WATCHMARK_BENCH_CLIENT_JOB: JSON.stringify(job) }, placement);
  try {
    const m = await awaitMessage<{ result: ClientResult }>(
      child,
      'result',
      `${job.client} ${job.phase}`,
      timeoutMs,
    );
    return m.result;
  } finally {
    await waitExit(child, 5_000);
  }
}

/** A client process that stays up and runs jobs on demand (worker mode of child.ts). */
export interface ClientWorker {
  /** Runs one job in the worker; one at a time. */
  run(job: ClientJob, timeoutMs: number): Promise<ClientResult>;
  /** The worker's process id (for its CPU time). */
  pid: number;
  /** Asks the worker to exit and waits (SIGKILL after 5 s). */
  close(): Promise<void>;
}

/** Starts a worker: a client process that waits for jobs (`node --expose-gc`, as single runs), placed as asked. */
export async function startClientWorker(
  what: string,
  timeoutMs: number,
  placement: Placement = 'unpinned',
): Promise<ClientWorker> {
  const child = forkClient({ WATCHMARK_BENCH_CLIENT_WORKER: '1' }, placement);
  await awaitMessage(child, 'ready', `${what} worker`, timeoutMs);
  return {
    pid: child.pid ?? 0,
    async run(job, runTimeoutMs) {
      const answer = awaitMessage<{ result: ClientResult }>(
        child,
        'result',
        `${job.client} ${job.phase}`,
        runTimeoutMs,
      );
      child.send({ type: 'run', job });
      return (await answer).result;
    },
    async close() {
      if (child.connected) child.send({ type: 'exit' });
      await waitExit(child, 5_000);
    },
  };
}
