/**
 * Parent side of the study's server process (server-child.ts): fork it, ask
 * it for exact counters, close it. The run that spawns a server owns it and
 * closes it on every path; a process-exit hook kills any that outlive it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerOptions, ServerStats } from '../server/index.js';

/** The server's counters and resource use at one instant. */
export interface ServerSample {
  /** CPU time (user + system) of the server process so far, in µs. */
  cpuUs: number;
  rssBytes: number;
  /** The exact counters (the same as `GET /debug/watchmark/stats`). */
  stats: ServerStats;
  /** The server's event-loop delay since the last {@link StudyServer.resetDelay}: max and 99th percentile, ms. */
  delayMaxMs: number;
  delayP99Ms: number;
  /** The resourceVersion the watch caches have reached. */
  latestRevision: number;
}

/** A running server process. */
export interface StudyServer {
  readonly url: string;
  /** A fresh sample; rejects if the child does not answer within `timeoutMs` or dies. */
  sample(timeoutMs?: number): Promise<ServerSample>;
  /** Starts the event-loop delay measurement over (at a run's baseline). */
  resetDelay(): void;
  /** Closes the server and waits for the process to exit (killing it after `timeoutMs`). */
  close(timeoutMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** The child script beside this module: .ts under tsx (tests, `npm run study`), .js once built. */
function childScript(): { path: string; execArgv: string[] } {
  const ts = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(ts ? './server-child.ts' : './server-child.js', import.meta.url));
  return { path, execArgv: ts ? ['--import', 'tsx'] : [] };
}

/** Forks a watchmark API server with `options` and resolves once it listens. */
export function spawnStudyServer(options: ServerOptions, startTimeoutMs = 30_000): Promise<StudyServer> {
  const script = childScript();
  const child = fork(script.path, [], {
    execArgv: [...script.execArgv, '--max-old-space-size=2048'],
    env: { ...process.env, WATCHMARK_STUDY_SERVER: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  let exited: string | undefined;
  const pending = new Map<number, { resolve: (s: ServerSample) => void; reject: (e: Error) => void }>();
  const exitWaiters: Array<() => void> = [];
  let nextId = 1;
  child.on('exit', (code, signal) => {
    exited = signal ? `signal ${signal}` : `exit code ${code}`;
    live.delete(child);
    for (const p of pending.values()) p.reject(new Error(`the server process exited (${exited})`));
    pending.clear();
    for (const w of exitWaiters.splice(0)) w();
  });
  child.on('message', (m: { type: string; id?: number; sample?: ServerSample }) => {
    if (m.type !== 'sample' || m.id === undefined) return;
    pending.get(m.id)?.resolve(m.sample!);
    pending.delete(m.id);
  });

  const handle: StudyServer = {
    url: '',
    sample(timeoutMs = 30_000) {
      if (exited) return Promise.reject(new Error(`the server process has exited (${exited})`));
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the server did not answer a sample within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (s) => {
            clearTimeout(timer);
            resolve(s);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        child.send({ type: 'sample', id });
      });
    },
    resetDelay() {
      if (!exited && child.connected) child.send({ type: 'reset-delay' });
    },
    close(timeoutMs = 10_000) {
      if (exited) return Promise.resolve();
      if (child.connected) child.send({ type: 'close' });
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        exitWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server process did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    const onEarlyExit = () => {
      clearTimeout(timer);
      reject(new Error(`the server process exited before it was ready (${exited})`));
    };
    child.once('exit', onEarlyExit);
    child.on('message', (m: { type: string; url?: string; error?: string }) => {
      if (m.type !== 'ready' && m.type !== 'failed') return;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      if (m.type === 'failed') {
        child.kill('SIGKILL');
        reject(new Error(`the server failed to start: ${m.error}`));
      } else resolve({ ...handle, url: m.url! });
    });
  });
}
