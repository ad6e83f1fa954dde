/**
 * The API servers of a chaos run, each at a fixed address (port) that it
 * keeps across restarts, so clients pointed at it reach its successor as
 * they would a restarted kube-apiserver:
 *
 * - {@link InProcessServer}: a server in this process, over the memory store
 *   (one store that outlives restarts) or over etcd (a fresh etcd client per
 *   start, as a new process would have). A restart is a clean close.
 * - {@link ChildServer}: `startServer` in a child process over etcd, which
 *   can be SIGKILLed mid-request and replaced by a fresh process over the
 *   same data. With the memory store a kill -9 would lose everything, so a
 *   child server always runs over etcd.
 */

import { readFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import {
  type MemoryStore,
  type RunningServer,
  type ServerOptions,
  startServer,
} from '../../src/server/index.js';
import { httpExpect } from '../http.js';
import type { WarmChild, WarmPool } from './warm-child.js';

/** One API server of a chaos world; see the file comment. */
export interface ChaosServer {
  /** A name for reports (`server-0`). */
  readonly name: string;
  /** The base URL; the same across restarts once started. */
  readonly url: string;
  /** Whether it serves now. */
  readonly running: boolean;
  /** Starts it (again) at its address. */
  start(): Promise<void>;
  /** Closes it cleanly: watches end, then the listener. */
  stop(): Promise<void>;
  /** Kills it as a crash would (SIGKILL) and waits until it is gone. */
  kill(): Promise<void>;
  /** Cuts every open watch stream; resolves with how many. */
  dropWatches(): Promise<number>;
  /** Compacts the store to now and empties the watch caches' history. */
  compact(): Promise<void>;
  /** The last lines the server logged, for failure reports. */
  logTail(lines: number): Promise<string[]>;
  /** Why the server went away without being told to, or undefined (a crash is a finding). */
  unexpectedExit(): string | undefined;
  /** Stops it, if running, and releases what it holds. */
  close(): Promise<void>;
}

/** Where a run's servers keep their data. */
export type Backing =
  | { kind: 'memory'; store: MemoryStore }
  | { kind: 'etcd'; endpoints: string[]; prefix: string };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How long a server may take to bind its old port again (a closed server's port may linger). */
const REBIND_MS = 5_000;

/** A server in this process; see the file comment. */
export class InProcessServer implements ChaosServer {
  readonly name: string;
  private server: RunningServer | undefined;
  private port = 0;
  private readonly options: ServerOptions;
  private readonly backing: Backing;
  private readonly log: string[] = [];

  constructor(name: string, backing: Backing, options: ServerOptions) {
    this.name = name;
    this.backing = backing;
    this.options = options;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const b = this.backing;
    const deadline = Date.now() + REBIND_MS;
    for (;;) {
      try {
        this.server = await startServer({
          // The chaos writes pods into namespaces no serviceaccount controller fills: the
          // ServiceAccount plugin is off, as envtest runs kube-apiserver.
          disableAdmissionPlugins: ['ServiceAccount'],
          ...this.options,
          ...(b.kind === 'memory'
            ? { store: b.store }
            : { etcd: { endpoints: b.endpoints, prefix: b.prefix } }),
          port: this.port,
          insecureHttp: true,
          insecureNoAuth: true,
          log: (line) => this.note(line),
        });
        this.port = Number(new URL(this.server.url).port);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw err;
        await sleep(10);
      }
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.close();
  }

  kill(): Promise<void> {
    // There is no process of its own to kill: the closest is closing it.
    return this.stop();
  }

  async dropWatches(): Promise<number> {
    return this.server?.dropWatches() ?? 0;
  }

  async compact(): Promise<void> {
    await this.server?.compact();
  }

  async logTail(lines: number): Promise<string[]> {
    return this.log.slice(-lines);
  }

  unexpectedExit(): string | undefined {
    return undefined;
  }

  close(): Promise<void> {
    return this.stop();
  }

  private note(line: string): void {
    this.log.push(`${new Date().toISOString()}: ${line}`);
    if (this.log.length > 50) this.log.shift();
  }
}

/**
 * A server in a child process over etcd; see the file comment. Its
 * processes come from a {@link WarmPool}: loaded before they are needed, so
 * a restart costs a server start, not a Node.js start (seconds on a busy
 * machine).
 */
export class ChildServer implements ChaosServer {
  readonly name: string;
  private child: WarmChild | undefined;
  private readonly pool: WarmPool;
  private port = 0;
  private readonly options: ServerOptions;
  private readonly logPath: string;
  /** For the debug endpoints: one connection per call, none left open. */
  private readonly agent = new Agent({ keepAlive: false });
  private crashed: string | undefined;
  private closed = false;

  /** `options` must be plain data (they travel over IPC); the server logs to `logPath`. */
  constructor(
    name: string,
    backing: Extract<Backing, { kind: 'etcd' }>,
    options: ServerOptions,
    logPath: string,
    pool: WarmPool,
  ) {
    this.name = name;
    this.options = { ...options, etcd: { endpoints: backing.endpoints, prefix: backing.prefix } };
    this.logPath = logPath;
    this.pool = pool;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exit === undefined;
  }

  async start(): Promise<void> {
    if (this.running || this.closed) return;
    const deadline = Date.now() + REBIND_MS;
    for (;;) {
      const child = this.pool.take(`chaos ${this.name}`);
      try {
        const url = await child.start(
          { options: { ...this.options, port: this.port }, logPath: this.logPath },
          30_000,
        );
        if (this.closed) {
          // Closed while it started: it must not outlive the world.
          await child.close();
          return;
        }
        this.child = child;
        this.port = Number(new URL(url).port);
        return;
      } catch (err) {
        await child.kill();
        // The killed process's port is free at once, but another process may hold it a moment.
        if (!/EADDRINUSE/.test((err as Error).message) || Date.now() > deadline) throw err;
        await sleep(20);
      }
    }
  }

  async stop(): Promise<void> {
    const child = this.take();
    await child?.close(5_000);
  }

  async kill(): Promise<void> {
    await this.take()?.kill();
  }

  /** Detaches the running process, noting a crash if it already ended on its own. */
  private take(): WarmChild | undefined {
    const child = this.child;
    this.child = undefined;
    this.noteExit(child);
    return child;
  }

  async dropWatches(): Promise<number> {
    const answer = await this.debug('drop-watches');
    return answer ? (JSON.parse(answer) as { droppedWatches: number }).droppedWatches : 0;
  }

  async compact(): Promise<void> {
    await this.debug('compact');
  }

  /** POSTs a debug action; undefined when the server is down or was killed while it answered. */
  private async debug(action: string): Promise<string | undefined> {
    if (!this.running) return undefined;
    try {
      return (await httpExpect(this.agent, this.url, 'POST', `/debug/watchmark/${action}`, [200])).text;
    } catch (err) {
      // A kill landing mid-call (the disruptions run beside the schedule) is no failure.
      if (!this.running && !/HTTP \d+/.test((err as Error).message)) return undefined;
      throw err;
    }
  }

  unexpectedExit(): string | undefined {
    this.noteExit(this.child);
    return this.crashed;
  }

  /** A process that ended before we stopped or killed it crashed. */
  private noteExit(child: WarmChild | undefined): void {
    if (child?.exit !== undefined && this.crashed === undefined) {
      this.crashed = `${this.name} (pid ${child.pid}) exited on its own (${child.exit})`;
    }
  }

  async logTail(lines: number): Promise<string[]> {
    const text = await readFile(this.logPath, 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).slice(-lines);
  }

  /** Stops the server and releases the agent. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.stop();
    } finally {
      this.agent.destroy();
    }
  }
}
