/**
 * The garbage collector's monitors: one informer per deletable resource
 * (deletable-resources.ts), every event fed to the graph builder, and the
 * set kept in line with discovery, as kube-controller-manager's
 * garbagecollector.go `Sync` (every 30 s: when discovery changed, reset the
 * REST mapper and `resyncMonitors`) and graph_builder.go `syncMonitors`
 * (start the new, stop the gone). A CustomResourceDefinition event asks
 * for that resync at once, so a kind defined after the start is collected
 * as soon as it is served.
 *
 * Every informer asks for metadata only (PartialObjectMetadata), as
 * kube-controller-manager's do (graph_builder.go `controllerFor` takes its
 * informers from the metadata informer factory): the graph needs uid,
 * ownerReferences, finalizers and deletionTimestamp, and operations.ts reads
 * a live object itself where it needs one. A list of large objects (CRDs
 * with their schemas) is then a fraction of its size to send and parse.
 */
import type { KubeClient } from '../client/client.js';
import { Informer } from '../client/informer/informer.js';
import { ResourceClient } from '../client/rest.js';
import { apiVersionOf, findBuiltin, type ResourceType } from '../client/watch/resources.js';
import type { Clock, TimerHandle } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { deletableResources, resourceId } from './deletable-resources.js';
import type { GraphBuilder } from './graph-builder.js';

/** Options of {@link Monitors}. */
export interface MonitorsOptions {
  kube: KubeClient;
  graph: GraphBuilder;
  clock: Clock;
  signal: AbortSignal;
  /** Discovery is read again this often (kube-controller-manager: 30 s); 0 = only on CRD events. */
  resyncPeriodMs: number;
  log: (line: string) => void;
}

interface Monitor {
  type: ResourceType;
  informer: Informer;
}

/** The informers the graph is built from (see the module comment). */
export class Monitors {
  private readonly opts: MonitorsOptions;
  private readonly monitors = new Map<string, Monitor>();
  private crds: Informer | undefined;
  private timer: TimerHandle | undefined;
  /** The resync under way, and whether another was asked for meanwhile. */
  private resyncing: Promise<void> | undefined;
  private again = false;
  /** Bumped whenever the set of monitors changes. */
  private generation = 0;
  private stopped = false;
  /** Monitors being stopped: stop() waits for them. */
  private readonly stopping = new Set<Promise<void>>();

  constructor(opts: MonitorsOptions) {
    this.opts = opts;
  }

  /** Reads discovery and starts a monitor per deletable resource; then follows CRDs. */
  async start(): Promise<void> {
    await this.resyncOnce();
    const crdType = findBuiltin('customresourcedefinitions') as ResourceType;
    // Only that a definition came, changed or went matters here: its metadata says so.
    this.crds = new Informer(this.metadataSource(crdType), { clock: this.opts.clock });
    const resync = () => this.requestResync();
    this.crds.on({ add: resync, update: resync, delete: resync });
    this.crds.start();
    this.schedule();
  }

  /** The resources monitored now, as `group/version/plural`. */
  get resources(): string[] {
    return [...this.monitors.keys()].sort();
  }

  /** Whether every monitor has listed (graph_builder.go, `IsSynced`: none at all is not synced). */
  get isSynced(): boolean {
    return this.monitors.size > 0 && [...this.monitors.values()].every((m) => m.informer.isSynced);
  }

  /** Resolves once every monitor (those started meanwhile too) has listed and the resync under way is done. */
  async synced(): Promise<void> {
    for (;;) {
      await this.resyncing;
      const generation = this.generation;
      await Promise.all([...this.monitors.values()].map((m) => m.informer.synced()));
      if (!this.resyncing && generation === this.generation) return;
    }
  }

  /** Reads discovery again now (coalesced with one under way). */
  requestResync(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.resyncing) {
      this.again = true;
      return this.resyncing;
    }
    this.resyncing = (async () => {
      try {
        do {
          this.again = false;
          await this.resyncOnce();
        } while (this.again && !this.stopped);
      } catch (err) {
        if (!this.stopped) this.opts.log(`garbage collector: discovery failed: ${(err as Error).message}`);
      } finally {
        this.resyncing = undefined;
      }
    })();
    return this.resyncing;
  }

  /** Stops every informer; resolves when they are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.resyncing;
    const all = [...this.monitors.values()].map((m) => m.informer.stop());
    this.monitors.clear();
    await Promise.all([...all, this.crds?.stop(), ...this.stopping]);
  }

  private schedule(): void {
    if (this.opts.resyncPeriodMs <= 0 || this.stopped) return;
    this.timer = this.opts.clock.setTimeout(() => {
      void this.requestResync().then(() => this.schedule());
    }, this.opts.resyncPeriodMs);
  }

  /** `syncMonitors`: start monitors for new resources, stop those no longer served. */
  private async resyncOnce(): Promise<void> {
    const types = await deletableResources(this.opts.kube.transport, this.opts.signal);
    if (this.stopped) return;
    const wanted = new Map(types.map((t) => [resourceId(t), t]));
    let changed = false;
    for (const [id, m] of this.monitors) {
      if (wanted.has(id)) continue;
      changed = true;
      this.monitors.delete(id);
      const p = m.informer.stop().finally(() => this.stopping.delete(p));
      this.stopping.add(p);
    }
    for (const [id, type] of wanted) {
      if (this.monitors.has(id)) continue;
      changed = true;
      this.monitors.set(id, { type, informer: this.monitor(type) });
    }
    // The mapper may hold a snapshot from before: owner references to new kinds resolve after a reset.
    if (changed) {
      this.generation++;
      this.opts.kube.mapper.reset();
    }
  }

  private monitor(type: ResourceType): Informer {
    // A streaming list (client-go's WatchListClient): one request instead of a list and a watch,
    // about a third off the start; a server that refuses it gets the list.
    const informer = new Informer(this.metadataSource(type), { clock: this.opts.clock, initial: 'stream' });
    const apiVersion = apiVersionOf(type);
    const kind = type.kind;
    const graph = this.opts.graph;
    informer.on({
      add: (obj: KubeObject) => graph.process({ type: 'add', obj, apiVersion, kind }),
      update: (old: KubeObject, obj: KubeObject) =>
        graph.process({ type: 'update', obj, old, apiVersion, kind }),
      delete: (obj: KubeObject) => graph.process({ type: 'delete', obj, apiVersion, kind }),
    });
    informer.start();
    return informer;
  }

  /** Lists and watches `type` in every namespace, metadata only. */
  private metadataSource(type: ResourceType) {
    return new ResourceClient(this.opts.kube.transport, type).listWatch({ metadataOnly: true });
  }
}
