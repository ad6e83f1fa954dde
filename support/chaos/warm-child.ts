/**
 * Parent side of a chaos server process (server-child.ts) that is forked
 * ahead of need: it loads its code, then waits for {@link WarmChild.start}.
 * The shared forkServer (src/process/server-fork.ts) starts a server as soon
 * as the process runs; a chaos run wants the successor of a server it is
 * about to kill loaded already, and started only once the port is free.
 * A {@link WarmPool} keeps a few loaded; whoever takes one owns it:
 * `close()` or `kill()` on every path, and a process-exit hook kills any left.
 */

import { type ChildProcess, fork } from 'node:child_process';
import type { ChildScript } from './server-bundle.js';
import type { ChaosChildSpec } from './server-child.js';

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A chaos server process; see the file comment. */
export class WarmChild {
  readonly pid: number;
  /** Resolves once the process has loaded its code (rejects if it exits first). */
  readonly loaded: Promise<void>;
  private readonly child: ChildProcess;
  private exitReason: string | undefined;
  private readonly exited: Promise<void>;

  constructor(script: ChildScript, label: string) {
    this.child = fork(script.path, [], {
      execArgv: script.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    live.add(this.child);
    this.pid = this.child.pid ?? 0;
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitReason = signal ? `signal ${signal}` : `exit code ${code}`;
        live.delete(this.child);
        resolve();
      });
    });
    this.loaded = new Promise((resolve, reject) => {
      const onMessage = (m: { type?: string }) => {
        if (m.type !== 'loaded') return;
        this.child.off('message', onMessage);
        resolve();
      };
      this.child.on('message', onMessage);
      void this.exited.then(() => reject(new Error(`${label} exited while loading (${this.exitReason})`)));
    });
    // Nobody may be waiting for `loaded` when the process dies (a spare closed unused).
    this.loaded.catch(() => {});
  }

  /** How the process ended, or undefined while it runs. */
  get exit(): string | undefined {
    return this.exitReason;
  }

  /** Starts the server; resolves with its URL once it listens (rejects if it fails or exits). */
  async start(spec: ChaosChildSpec, timeoutMs: number): Promise<string> {
    await this.loaded;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`no ready within ${timeoutMs} ms`)), timeoutMs);
      const onMessage = (m: { type?: string; url?: string; error?: string }) => {
        if (m.type === 'ready') done(undefined, m.url);
        else if (m.type === 'failed') done(new Error(`the server failed to start: ${m.error}`));
      };
      const onExit = () => done(new Error(`the server exited before it was ready (${this.exitReason})`));
      const done = (err: Error | undefined, url?: string) => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        if (err) reject(err);
        else resolve(url!);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send({ type: 'start', spec });
    });
  }

  /** SIGKILL, as a crash; resolves once the process is gone (its port free). */
  async kill(): Promise<void> {
    if (this.exitReason === undefined) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Asks the server to close cleanly; SIGKILL after `timeoutMs`. Resolves once the process is gone. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.exitReason !== undefined) return;
    if (this.child.connected) this.child.send({ type: 'close' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * A few loaded server processes kept ready, so that a seed's first server
 * and a killed server's successor start at once. One per lane of seeds;
 * `close()` kills the ones still waiting.
 */
export class WarmPool {
  private readonly script: ChildScript;
  private readonly size: number;
  private readonly idle: WarmChild[] = [];
  private closed = false;

  constructor(script: ChildScript, size: number) {
    this.script = script;
    this.size = size;
    this.refill();
  }

  /** A process (loaded or loading) that the caller now owns; a new one is forked in its place. */
  take(label: string): WarmChild {
    if (this.closed) throw new Error('the warm pool is closed');
    const child = this.idle.shift() ?? new WarmChild(this.script, label);
    this.refill();
    return child;
  }

  /** Kills the processes nobody took. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((c) => c.kill()));
  }

  private refill(): void {
    // A process that died while waiting (it should not) is replaced rather than handed out.
    for (let i = this.idle.length - 1; i >= 0; i--)
      if (this.idle[i].exit !== undefined) this.idle.splice(i, 1);
    while (!this.closed && this.idle.length < this.size)
      this.idle.push(new WarmChild(this.script, 'chaos server'));
  }
}
