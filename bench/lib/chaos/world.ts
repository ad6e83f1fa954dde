/**
 * The live half of the chaos test: one API server over a MemoryStore that
 * outlives restarts (same port, so resourceVersions continue, as
 * kube-apiserver restarting over etcd), a fault proxy in front of it, a
 * writer client that talks to the server directly and a reader client
 * (the informers') that goes through the proxy. `close()` releases all of
 * it on every path.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../../src/client/client.js';
import type { ResourceClient } from '../../../src/client/rest.js';
import { TransportError } from '../../../src/client/transport.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { StatusError } from '../../../src/protocol/status.js';
import { MemoryStore, type RunningServer, startServer } from '../../../src/server/index.js';
import { buildKubeconfig } from '../../../src/server/kubeconfig.js';
import { type FaultAction, FaultProxy } from '../fault-proxy.js';
import { type ChaosConfig, NAMESPACES, type Res, type Step } from './schedule.js';

/** What a run's steps did, for reports. */
export interface WorldStats {
  writes: number;
  writeErrors: number;
  restarts: number;
  compactions: number;
  droppedWatches: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A server, its store, a fault proxy and two clients; see the file comment. */
export class World {
  readonly store = new MemoryStore();
  readonly stats: WorldStats = { writes: 0, writeErrors: 0, restarts: 0, compactions: 0, droppedWatches: 0 };
  server!: RunningServer;
  proxy!: FaultProxy;
  /** Talks to the server directly: the writes, and the truth the caches are checked against. */
  writer!: KubeClient;
  /** Talks through the proxy: the informers'. */
  reader!: KubeClient;
  private readonly config: ChaosConfig;
  private port = 0;
  private dir = '';
  private armed: Array<{ action: FaultAction; watchOnly: boolean }> = [];
  private serverUp = false;

  private constructor(config: ChaosConfig) {
    this.config = config;
  }

  /** Starts everything; on failure releases what was started and rethrows. */
  static async open(config: ChaosConfig): Promise<World> {
    const world = new World(config);
    try {
      await world.init();
    } catch (err) {
      await world.close();
      throw err;
    }
    return world;
  }

  private async init(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'watchmark-chaos-'));
    await this.startServer();
    this.port = Number(new URL(this.server.url).port);
    this.proxy = await FaultProxy.start({ target: this.server.url, decide: (req) => this.decide(req.watch) });
    this.writer = await this.client('writer', this.server.url);
    this.reader = await this.client('reader', this.proxy.url);
    for (const ns of NAMESPACES) {
      await this.writer.resource('namespaces').create({ metadata: { name: ns } });
    }
  }

  private async client(name: string, server: string): Promise<KubeClient> {
    const path = join(this.dir, `${name}.kubeconfig`);
    await writeFile(path, buildKubeconfig({ server }), { mode: 0o600 });
    return KubeClient.load({ kubeconfig: path, qps: 0 });
  }

  private async startServer(): Promise<void> {
    const c = this.config;
    for (let attempt = 0; ; attempt++) {
      try {
        this.server = await startServer({
          store: this.store,
          port: this.port,
          insecureHttp: true,
          insecureNoAuth: true,
          bookmarkInterval: c.bookmarkIntervalMs,
          bookmarkLead: 20,
          noBookmarks: c.mode === 'serverNoBookmarks',
          tooLargeWait: 100,
          compactionInterval: 0,
        });
        this.serverUp = true;
        return;
      } catch (err) {
        // The port of the closed server may linger for a moment.
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw err;
        await sleep(10);
      }
    }
  }

  /** The proxy's policy: armed faults first, in order, then pass. */
  private decide(watch: boolean): FaultAction {
    const i = this.armed.findIndex((a) => !a.watchOnly || watch);
    if (i < 0) return { kind: 'pass' };
    return this.armed.splice(i, 1)[0].action;
  }

  /** Stops injecting faults: disarms the proxy and ends any pause (stalled connections stay dead). */
  calm(): void {
    this.armed = [];
    this.proxy.resume();
  }

  /** The store's newest resourceVersion. */
  latestRevision(): Promise<number> {
    return this.store.currentRevision();
  }

  /** A resource across all namespaces, for reading the truth. */
  all(res: Res): ResourceClient {
    return this.writer.resource(res).inNamespace(undefined);
  }

  /** Runs one step. Write failures are counted, not thrown: the checks read the server's real state. */
  async run(step: Step): Promise<void> {
    switch (step.op) {
      case 'sleep':
        return sleep(step.ms);
      case 'dropWatches':
        this.stats.droppedWatches += this.server.dropWatches();
        return;
      case 'compact':
        this.stats.compactions++;
        await this.server.compact();
        return;
      case 'pause':
        this.proxy.pause(step.ms);
        return;
      case 'stall':
        this.proxy.stall(step.ms);
        return;
      case 'cutAll':
        this.proxy.cutAll();
        return;
      case 'lateHandlers':
        // The engine's business: it owns the informers.
        return;
      case 'arm':
        for (let i = 0; i < step.count; i++)
          this.armed.push({ action: step.action, watchOnly: step.watchOnly });
        return;
      case 'restart':
        this.stats.restarts++;
        await this.stopServer();
        await sleep(step.downMs);
        await this.startServer();
        return;
      default:
        return this.write(step);
    }
  }

  private async write(step: Extract<Step, { ns: string }>): Promise<void> {
    this.stats.writes++;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.writeOnce(step);
        return;
      } catch (err) {
        // A keep-alive socket the restarted server closed may be reused once: retry (a retried
        // create or delete that had landed answers 409 or 404, which is fine here).
        if (err instanceof TransportError && attempt < 3) continue;
        // 404/409 when an earlier write of the plan failed; anything else is worth a look.
        this.stats.writeErrors++;
        if (!(err instanceof StatusError) || ![404, 409].includes(err.code)) throw err;
        return;
      }
    }
  }

  private async writeOnce(step: Extract<Step, { ns: string }>): Promise<void> {
    const res: Res = step.op === 'phase' ? 'pods' : step.res;
    const client = this.writer.resource<KubeObject>(res, step.ns);
    switch (step.op) {
      case 'create':
        await client.create(
          res === 'pods'
            ? {
                metadata: { name: step.name, labels: { tier: step.tier }, annotations: { data: step.data } },
                spec: { containers: [{ name: 'c', image: 'nginx' }] },
              }
            : { metadata: { name: step.name, labels: { tier: step.tier } }, data: { v: step.data } },
        );
        return;
      case 'modify':
        await client.patch(
          step.name,
          res === 'pods' ? { metadata: { annotations: { data: step.data } } } : { data: { v: step.data } },
        );
        return;
      case 'relabel':
        await client.patch(step.name, { metadata: { labels: { tier: step.tier } } });
        return;
      case 'phase':
        await client.patch(step.name, { status: { phase: step.phase } }, 'merge', { subresource: 'status' });
        return;
      case 'delete':
        await client.delete(step.name);
        return;
    }
  }

  private async stopServer(): Promise<void> {
    if (!this.serverUp) return;
    this.serverUp = false;
    await this.server.close();
  }

  /** Releases everything, whatever state it is in; returns what failed to close instead of throwing. */
  async close(): Promise<string[]> {
    const errors: string[] = [];
    const steps: Array<() => Promise<unknown> | undefined> = [
      () => this.reader?.close(),
      () => this.writer?.close(),
      () => this.proxy?.close(),
      () => this.stopServer(),
      () => this.store.close(),
      () => (this.dir ? rm(this.dir, { recursive: true, force: true }) : undefined),
    ];
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        // Teardown goes on (the next resource must be released too) and the failure is reported.
        errors.push(`teardown: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    return errors;
  }
}
