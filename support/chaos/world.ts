/**
 * The live half of the chaos test: one API server (two in a failover run)
 * at a fixed port each, over a store that outlives them (a MemoryStore, or a
 * key prefix of a real etcd), so that a restarted or killed server's
 * successor continues the same resourceVersions, as kube-apiserver does over
 * etcd. A fault proxy in front of the server the informers use, writer
 * clients that talk to the servers directly, and a reader client (the
 * informers') that goes through the proxy. `close()` releases all of it on
 * every path.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type ResourceClient } from '../../src/index.js';
import {
  buildKubeconfig,
  createEtcdStore,
  type EtcdStore,
  MemoryStore,
  type ServerOptions,
} from '../../src/server/index.js';
import { type FaultAction, FaultProxy } from '../fault-proxy/fault-proxy.js';
import { installWidgetCrd } from './crd.js';
import { ServerFleet } from './fleet.js';
import { type NamespaceStep, namespacesLeft, runNamespaceStep } from './namespaces.js';
import { type ChaosConfig, NAMESPACES, type Res, type Step } from './schedule.js';
import { sourceServerChild } from './server-bundle.js';
import { type ChaosServer, ChildServer, InProcessServer } from './servers.js';
import { WarmPool } from './warm-child.js';
import { writeStep } from './writes.js';

/** What a run's steps did, for reports. */
export interface WorldStats {
  writes: number;
  writeErrors: number;
  restarts: number;
  kills: number;
  failovers: number;
  compactions: number;
  droppedWatches: number;
}

/** Which store the servers run over: memory, or a key prefix of the etcd at `endpoints`. */
export type WorldStore = { kind: 'memory' } | { kind: 'etcd'; endpoints: string[]; prefix: string };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How long a write keeps trying while its server is down (a killed server takes a moment to come back). */
const WRITE_RETRY_MS = 30_000;

/** Servers, their store, a fault proxy and the clients; see the file comment. */
export class World {
  readonly stats: WorldStats = {
    writes: 0,
    writeErrors: 0,
    restarts: 0,
    kills: 0,
    failovers: 0,
    compactions: 0,
    droppedWatches: 0,
  };
  readonly servers: ChaosServer[] = [];
  /** Restarts, kills and failovers of the servers. */
  private fleet!: ServerFleet;
  proxy!: FaultProxy;
  /** Talks through the proxy: the informers'. */
  reader!: KubeClient;
  /** One per server, talking to it directly: the writes, and the truth the caches are checked against. */
  private readonly writers: KubeClient[] = [];
  private writesDone = 0;
  private readonly config: ChaosConfig;
  private readonly where: WorldStore;
  /** Where server processes come from (kill and failover runs); a pool of our own is ours to close. */
  private pool: WarmPool | undefined;
  private ownsPool = false;
  private memory: MemoryStore | undefined;
  /** The parent's own etcd client over the run's prefix: the newest revision, independent of any server. */
  private etcd: EtcdStore | undefined;
  private dir = '';
  private armed: Array<{ action: FaultAction; watchOnly: boolean }> = [];
  /** What happened when (writes, disruptions, the informers' requests), for failure reports. */
  private readonly journal: string[] = [];
  private readonly openedAt = Date.now();

  private constructor(config: ChaosConfig, where: WorldStore, pool: WarmPool | undefined) {
    this.config = config;
    this.where = where;
    this.pool = pool;
  }

  /**
   * Starts everything; on failure releases what was started and rethrows.
   * Kill and failover runs take their server processes from `pool` (one of
   * their own, running the TypeScript under tsx, when none is given).
   */
  static async open(
    config: ChaosConfig,
    where: WorldStore = { kind: 'memory' },
    pool?: WarmPool,
  ): Promise<World> {
    const world = new World(config, where, pool);
    try {
      await world.init();
    } catch (err) {
      await world.close();
      throw err;
    }
    return world;
  }

  private async init(): Promise<void> {
    const { disruption } = this.config;
    if (disruption !== 'restart' && this.where.kind !== 'etcd') {
      throw new Error(`disruption ${disruption} needs the etcd store: a killed memory server loses its data`);
    }
    this.dir = await mkdtemp(join(tmpdir(), 'watchmark-chaos-'));
    const options = this.serverOptions();
    const etcd = this.where.kind === 'etcd' ? this.where : undefined;
    const count = disruption === 'failover' ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const name = `server-${i}`;
      if (this.where.kind === 'memory') {
        this.memory ??= new MemoryStore();
        this.servers.push(new InProcessServer(name, { kind: 'memory', store: this.memory }, options));
      } else if (disruption === 'restart') {
        this.servers.push(new InProcessServer(name, etcd!, options));
      } else {
        if (!this.pool) {
          this.pool = new WarmPool(sourceServerChild().script, count);
          this.ownsPool = true;
        }
        this.servers.push(new ChildServer(name, etcd!, options, join(this.dir, `${name}.log`), this.pool));
      }
    }
    if (this.where.kind === 'etcd') {
      this.etcd = await createEtcdStore({ endpoints: this.where.endpoints, prefix: this.where.prefix });
    }
    this.fleet = new ServerFleet(this.servers, {
      note: (what) => this.note(what),
      stats: this.stats,
      proxy: () => this.proxy,
    });
    // Two servers over one empty prefix both create the system namespaces: one at a time.
    for (const s of this.servers) await s.start();
    this.proxy = await FaultProxy.start({
      target: this.servers[0].url,
      decide: (req) => {
        const action = this.decide(req.watch);
        const query = req.query.toString();
        this.note(
          `${req.method} ${req.path}${query ? `?${decodeURIComponent(query)}` : ''} -> ` +
            `${this.nameOf(this.proxy.upstream)}${action.kind === 'pass' ? '' : ` (${JSON.stringify(action)})`}`,
        );
        return action;
      },
    });
    for (const s of this.servers) this.writers.push(await this.client(`writer-${s.name}`, s.url, 10_000));
    // The informers' own requests give up after 1 s (engine.ts); the RESTMapper's discovery read
    // that resolves the custom type is the client's, so it gets the same deadline here. Under the
    // default 60 s, a discovery request on a connection the proxy blackholed holds every
    // resolution of the type that long: the read is shared, and an informer retrying after its
    // own 1 s timeout waits on the same read again (seeds 224 and 339, --start 201).
    this.reader = await this.client('reader', this.proxy.url, 1_000);
    // The namespaces, and the custom type served by every server, before any informer starts.
    await Promise.all([
      ...NAMESPACES.map((ns) => this.writers[0].resource('namespaces').create({ metadata: { name: ns } })),
      installWidgetCrd(this.writers),
    ]);
  }

  private serverOptions(): ServerOptions {
    const c = this.config;
    return {
      bookmarkInterval: c.bookmarkIntervalMs,
      bookmarkLead: 20,
      noBookmarks: c.mode === 'serverNoBookmarks',
      tooLargeWait: 100,
      compactionInterval: 0,
    };
  }

  private async client(name: string, server: string, requestTimeoutMs?: number): Promise<KubeClient> {
    const path = join(this.dir, `${name}.kubeconfig`);
    await writeFile(path, buildKubeconfig({ server }), { mode: 0o600 });
    return KubeClient.load({ kubeconfig: path, qps: 0, requestTimeoutMs });
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
    this.proxy?.resume();
  }

  /** The store's newest resourceVersion, asked of the store itself (etcd: not through any server). */
  latestRevision(): Promise<number> {
    if (this.etcd) return this.etcd.currentRevision();
    return this.memory!.currentRevision();
  }

  /** A resource across all namespaces (or in `namespace`), for reading the truth. */
  truth(res: Res, namespace?: string): ResourceClient {
    return this.truthFrom(this.fleet.upServer(), res, namespace);
  }

  /** `res` as server `i` serves it. */
  truthFrom(i: number, res: Res, namespace?: string): ResourceClient {
    return this.writers[i].resource(res).inNamespace(namespace);
  }

  /** Records a line of the run's timeline. */
  note(what: string): void {
    this.journal.push(`${String(Date.now() - this.openedAt).padStart(6)} ms ${what}`);
    if (this.journal.length > 400) this.journal.shift();
  }

  /** The run's timeline: writes, disruptions, the informers' requests through the proxy. */
  timeline(): string[] {
    return [...this.journal];
  }

  private nameOf(url: string): string {
    return this.servers.find((s) => s.url === url)?.name ?? url;
  }

  /** The last lines each server logged, for failure reports. */
  async serverLogs(lines: number): Promise<string[]> {
    const out: string[] = [];
    for (const s of this.servers) out.push(...(await s.logTail(lines)).map((l) => `${s.name}: ${l}`));
    return out;
  }

  /**
   * Waits for disruptions still under way (a killed server's successor
   * starting) and returns what failed among them; every server runs after it.
   */
  quiesce(): Promise<string[]> {
    return this.fleet.quiesce();
  }

  /** Runs one step. Write failures are counted, not thrown: the checks read the server's real state. */
  async run(step: Step): Promise<void> {
    switch (step.op) {
      case 'sleep':
        return sleep(step.ms);
      case 'dropWatches': {
        const server = this.servers[this.fleet.active];
        const dropped = await server.dropWatches();
        this.stats.droppedWatches += dropped;
        this.note(`${server.name} dropped ${dropped} watches`);
        return;
      }
      case 'compact': {
        this.stats.compactions++;
        const server = this.servers[this.fleet.upServer()];
        await server.compact();
        this.note(`${server.name} compacted`);
        return;
      }
      case 'pause':
        this.proxy.pause(step.ms);
        this.note(`proxy paused for ${step.ms} ms`);
        return;
      case 'stall':
        this.note(`proxy stalled ${this.proxy.stall(step.ms)} connections for ${step.ms} ms`);
        return;
      case 'cutAll':
        this.note(`proxy cut ${this.proxy.cutAll()} exchanges`);
        return;
      case 'lateHandlers':
        // The engine's business: it owns the informers.
        return;
      case 'arm':
        for (let i = 0; i < step.count; i++)
          this.armed.push({ action: step.action, watchOnly: step.watchOnly });
        this.note(
          `armed ${step.count}x ${JSON.stringify(step.action)}${step.watchOnly ? ' for watches' : ''}`,
        );
        return;
      case 'restart':
        return this.fleet.restart(step.downMs);
      case 'kill':
        this.fleet.killLater(step);
        return;
      case 'failover':
        this.fleet.failover(step.cut);
        return;
      case 'holdNamespace':
      case 'deleteNamespace':
      case 'releaseNamespace':
        return this.namespaceStep(step);
      default:
        return this.write(step);
    }
  }

  private async write(step: Extract<Step, { ns: string }>): Promise<void> {
    this.stats.writes++;
    // In a failover run the writes alternate between the servers, as clients behind a load balancer.
    const preferred = this.writesDone++ % this.writers.length;
    const via = (attempt: number) => (preferred + attempt) % this.writers.length;
    const what = `${step.op} ${step.res} ${step.ns}/${step.name}`;
    try {
      const w = await writeStep((attempt) => this.writers[via(attempt)], step, WRITE_RETRY_MS);
      if (w.outcome === 'refused') this.stats.writeErrors++;
      this.note(
        `${what} via ${this.servers[via(w.attempt)].name}: ${w.outcome} @${w.resourceVersion ?? '-'}`,
      );
    } catch (err) {
      this.note(`${what}: failed: ${(err as Error).message}`);
      throw err;
    }
  }

  /** A namespace cycle's step, through its server first and the other one while that is down. */
  private async namespaceStep(step: NamespaceStep): Promise<void> {
    const via = (attempt: number) => (step.via + attempt) % this.writers.length;
    try {
      this.note(await runNamespaceStep((attempt) => this.writers[via(attempt)], step, WRITE_RETRY_MS));
    } catch (err) {
      this.note(`${step.op} ${step.namespace}: failed: ${(err as Error).message}`);
      throw err;
    }
  }

  /** The namespaces the schedule deleted that are still there after `timeoutMs` (failure lines). */
  namespacesLeft(timeoutMs: number): Promise<string[]> {
    const deleted = this.config.steps.flatMap((s) => (s.op === 'deleteNamespace' ? [s.namespace] : []));
    return namespacesLeft(() => this.writers[this.fleet.upServer()], deleted, timeoutMs);
  }

  /** Releases everything, whatever state it is in; returns what failed to close instead of throwing. */
  async close(): Promise<string[]> {
    const errors: string[] = [];
    const steps: Array<() => Promise<unknown> | undefined> = [
      () => this.reader?.close(),
      ...this.writers.map((w) => () => w.close()),
      () => this.proxy?.close(),
      // Pending kills and restarts stop early; wait for them, then stop the servers.
      () => this.fleet?.close(),
      ...this.servers.map((s) => () => s.close()),
      () => (this.ownsPool ? this.pool?.close() : undefined),
      () => this.memory?.close(),
      () => this.etcd?.close(),
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
