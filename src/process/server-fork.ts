/**
 * Parent side of an API server in a child process (the study's and the
 * benchmarks'): fork the script, wait for its `ready`, ask it for samples over
 * IPC, close it. Whoever forks a server owns it and closes it on every path;
 * a process-exit hook kills any that outlive their owner. Any child that
 * speaks the same protocol can be forked this way (the study's churn writer,
 * with an empty url).
 *
 * The child speaks the protocol of server-child-runtime.ts:
 * in `{type:'sample', id}` | `{type:'close'}` | the caller's own messages;
 * out `{type:'ready', url}` | `{type:'sample', id, sample}` | `{type:'failed', error}`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The child script `name` beside the module at `moduleUrl`: `name.ts` under
 * tsx, `name.js` beside a built one, with the node flags each needs. For scripts
 * outside the package (support/); the package's own go through
 * `packageScript` (protocol/package-files.ts), since its build is bundled.
 */
export function siblingScript(moduleUrl: string, name: string): { path: string; execArgv: string[] } {
  const ts = moduleUrl.endsWith('.ts');
  const path = fileURLToPath(new URL(`./${name}${ts ? '.ts' : '.js'}`, moduleUrl));
  return { path, execArgv: ts ? ['--import', 'tsx'] : [] };
}

/** How to start the child. */
export interface ForkSpec {
  /** The child script. */
  script: string;
  /** Node flags of the child (`--import tsx` for a .ts script). */
  execArgv: string[];
  /** Added to the parent's environment (the server options travel here). */
  env: Record<string, string>;
  /** How long the child may take to listen. */
  startTimeoutMs: number;
  /** What the child is, for messages (default `server`). */
  label?: string;
}

/** A running server child that answers samples of type `S`. */
export interface ForkedServer<S> {
  readonly url: string;
  readonly pid: number;
  /** Asks the child for a fresh sample (rejects after `timeoutMs`, or if the child dies). */
  sample(timeoutMs?: number): Promise<S>;
  /** Sends the child a message of the caller's own (ignored once it has exited). */
  send(message: { type: string }): void;
  /** Closes the server and waits for the process to exit (kills it after `timeoutMs`). */
  close(timeoutMs?: number): Promise<void>;
  /** Kills the process now (SIGKILL); for error paths. */
  kill(): void;
  /** How the process ended (`exit code 1`, `signal SIGKILL`), or undefined while it runs. */
  exitReason(): string | undefined;
}

const live = new Set<ChildProcess>();

// Last line of defence: whatever way the parent exits, no server outlives it.
process.on('exit', () => killAllForkedServers());

/** Kills every server child still running (signal handlers call this before exiting). */
export function killAllForkedServers(): void {
  for (const child of live) child.kill('SIGKILL');
}

/** Forks `spec.script` and resolves once the server in it listens. */
export function forkServer<S>(spec: ForkSpec): Promise<ForkedServer<S>> {
  const what = spec.label ?? 'server';
  const child = fork(spec.script, [], {
    execArgv: spec.execArgv,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  let exitReason: string | undefined;
  const exitWaiters: Array<() => void> = [];
  const pending = new Map<number, { resolve: (s: S) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  child.on('exit', (code, signal) => {
    exitReason = signal ? `signal ${signal}` : `exit code ${code}`;
    live.delete(child);
    for (const p of pending.values()) p.reject(new Error(`the ${what} process exited (${exitReason})`));
    pending.clear();
    for (const w of exitWaiters.splice(0)) w();
  });
  child.on('message', (m: { type: string; id?: number; sample?: S }) => {
    if (m.type !== 'sample' || m.id === undefined) return;
    pending.get(m.id)?.resolve(m.sample!);
    pending.delete(m.id);
  });

  const handle: Omit<ForkedServer<S>, 'url'> = {
    pid: child.pid!,
    sample(timeoutMs = 30_000) {
      if (exitReason) return Promise.reject(new Error(`the ${what} process has exited (${exitReason})`));
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the ${what} did not answer a sample within ${timeoutMs} ms`));
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
    send(message) {
      if (!exitReason && child.connected) child.send(message);
    },
    close(timeoutMs = 10_000) {
      if (exitReason) return Promise.resolve();
      if (child.connected) child.send({ type: 'close' });
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        exitWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    kill() {
      if (!exitReason) child.kill('SIGKILL');
    },
    exitReason: () => exitReason,
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${what} process did not start within ${spec.startTimeoutMs} ms`));
    }, spec.startTimeoutMs);
    const onEarlyExit = () => {
      clearTimeout(timer);
      reject(new Error(`the ${what} process exited before it was ready (${exitReason})`));
    };
    child.once('exit', onEarlyExit);
    child.on('message', (m: { type: string; url?: string; error?: string }) => {
      if (m.type !== 'ready' && m.type !== 'failed') return;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      if (m.type === 'failed') {
        child.kill('SIGKILL');
        reject(new Error(`the ${what} failed to start: ${m.error}`));
      } else resolve({ ...handle, url: m.url! });
    });
  });
}
