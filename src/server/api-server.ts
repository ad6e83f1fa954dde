import { type Clock, systemClock } from '../protocol/clock.js';
import { Admission } from './admission/admission.js';
import { NamespaceLifecycle } from './admission/namespace-lifecycle.js';
import { writeDefaultServiceCIDR as ensureServiceCIDR } from './bootstrap/default-service-cidr.js';
import { writeFlowControlConfiguration as ensureFlowControl } from './bootstrap/flowcontrol-config.js';
import { writeBootstrapObjects } from './bootstrap/index.js';
import { Cacher } from './cache/cacher.js';
import { CacheDelegator } from './cache/delegator.js';
import { WatchWriter } from './cache/watch-sink.js';
import { CrdController } from './controllers/crd-controller.js';
import { NamespaceController } from './controllers/namespace-controller.js';
import { SystemControllers } from './controllers/system-controllers.js';
import { CUSTOM_RESOURCE_DEFINITIONS } from './crd/serve/crd-kind.js';
import { Faults } from './faults/server-faults.js';
import { recordUpdateOwnership } from './handlers/field-ownership.js';
import type { ResourceContext } from './handlers/resource-handler.js';
import { disabledAdmissionPlugins, kindsWithAdmission } from './kinds/admission-plugins.js';
import { KindTable } from './kinds/served/kind-table.js';
import { REGISTRY } from './kinds/served/registry.js';
import { DEFAULTS, type ServerOptions, SYSTEM_NAMESPACES, watchSettings } from './options.js';
import { ObjectStorage } from './registry/object-storage.js';
import type { RunningServer } from './running-server.js';
import { Serving } from './serving.js';
import { entriesOf, type ServerSnapshot, Snapshots, storeFrom } from './snapshots/snapshots.js';
import { newStats } from './stats/stats.js';
import { CompactionLoop } from './stores/compaction-loop.js';
import type { Store } from './stores/types.js';

/**
 * One API server: builds what requests are served from (the kinds, the store, the watch cache,
 * object storage and admission, the controllers that run in the server) and starts and stops it,
 * with the serving side (serving.ts) in front. start-server.ts's `startServer` makes one.
 */
export class ApiServer implements RunningServer {
  readonly store: Store;
  readonly stats = newStats();
  url = '';
  kubeconfig = '';
  kubeconfigPath: string | undefined;
  token: string | undefined;
  caPem: string | undefined;
  private readonly opts: ServerOptions;
  private readonly clock: Clock;
  /** The kinds this server serves: the built-ins, and custom kinds as their definitions are established. */
  private readonly kinds: KindTable;
  private readonly crds: CrdController;
  private readonly cacher: Cacher;
  private readonly objects: ObjectStorage;
  private readonly namespaces: NamespaceController;
  private readonly system: SystemControllers | undefined;
  private readonly ctx: ResourceContext;
  private readonly compaction: CompactionLoop;
  private readonly snapshots: Snapshots;
  private serving: Serving | undefined;
  private readonly background = new Set<Promise<void>>();
  /** Requests being served now (a watch until its stream starts): a restore waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  readonly faults: Faults;
  private closing = false;

  /** `opts` were checked (start-server.ts); a store not passed in them is the server's to close. */
  constructor(opts: ServerOptions, ownStore?: Store) {
    this.opts = opts;
    const disabled = disabledAdmissionPlugins(opts.disableAdmissionPlugins);
    this.kinds = new KindTable(kindsWithAdmission([...REGISTRY, CUSTOM_RESOURCE_DEFINITIONS], disabled));
    const log = opts.log ?? (() => {});
    this.store = opts.store ?? ownStore ?? storeFrom(opts.startFrom);
    this.clock = opts.clock ?? systemClock;
    this.cacher = new Cacher(this.store, this.kinds, {
      clock: this.clock,
      stats: this.stats,
      history: {
        windowMs: opts.historyWindow ?? DEFAULTS.historyWindow,
        capacity: opts.historyCapacity ?? DEFAULTS.historyCapacity,
      },
      onError: (err) => log(`watch cache: store watch failed: ${err.message}`),
    });
    this.objects = new ObjectStorage(
      this.store,
      this.clock,
      this.stats,
      (kind, value) => this.cacher.noteWritten(kind, value),
      recordUpdateOwnership,
      new NamespaceLifecycle({ cacher: this.cacher, objects: () => this.objects, clock: this.clock }),
    );
    const deps = { objects: this.objects, cacher: this.cacher, clock: this.clock, log };
    this.namespaces = new NamespaceController({
      ...deps,
      kinds: this.kinds,
      systemNamespaces: opts.systemNamespaces === false ? [] : SYSTEM_NAMESPACES,
    });
    if (opts.systemNamespaces !== false)
      this.system = new SystemControllers({ ...deps, ensureFlowControl, ensureServiceCIDR });
    this.crds = new CrdController({ ...deps, kinds: this.kinds });
    const settings = watchSettings(opts);
    this.ctx = {
      data: new CacheDelegator(this.store, this.cacher, this.stats, settings.tooLargeWaitMs),
      clock: this.clock,
      stats: this.stats,
      settings,
      watchWriter: new WatchWriter(this.stats, opts.watchWriteCoalescing ?? true),
      random: opts.random ?? Math.random,
      objects: this.objects,
      kinds: this.kinds,
      typeCheck: opts.typeCheck,
      admission: new Admission({ ...deps, hooks: opts.admission, kinds: this.kinds, disabled }),
      countBytes: (bytes) => {
        this.stats.responseBytesWritten += bytes;
      },
    };
    this.faults = new Faults({
      clock: this.clock,
      watches: this.ctx.watchWriter,
      dropWatches: () => this.dropWatches(),
      compact: () => this.compact(),
    });
    this.compaction = new CompactionLoop({
      store: this.store,
      clock: this.clock,
      intervalMs: opts.compactionInterval ?? DEFAULTS.compactionInterval,
      runInBackground: (what, work) => this.runInBackground(what, work),
    });
    this.snapshots = new Snapshots({
      store: this.store,
      cacher: this.cacher,
      door: this.faults.gate,
      closed: () => this.closing,
      quiesce: async () => {
        await Promise.allSettled([...this.inFlight]);
        await this.crds.idle();
        await this.namespaces.idle();
        await this.system?.idle();
        await Promise.allSettled([...this.background]);
      },
      forget: () => {
        // The compaction loop's target is a revision of the old history.
        this.compaction.reset();
        this.crds.forgetWrites();
      },
      restart: async () => {
        await this.crds.idle();
        // The fill queued every namespace again (NamespaceController.start's `onFill`).
        await this.namespaces.ensureSystemNamespaces();
      },
    });
  }

  latestRevision(): number {
    return this.cacher.latestRevision;
  }

  async start(): Promise<void> {
    const opts = this.opts;
    // Over a snapshot taken in this process, the caches take its decoded entries as they are.
    await this.cacher.start(opts.store ? undefined : entriesOf(opts.startFrom));
    // The definitions stored now are served before the server answers anything.
    await this.crds.start();
    // The system namespaces and the bootstrap objects exist before the server answers;
    // terminating namespaces are finished.
    await this.namespaces.start();
    if (opts.systemNamespaces !== false) await writeBootstrapObjects(this.objects);
    this.serving = new Serving({
      opts,
      server: this,
      store: this.store,
      cacher: this.cacher,
      kinds: this.kinds,
      faults: this.faults,
      inFlight: this.inFlight,
      resources: this.ctx,
      closing: () => this.closing,
    });
    await this.serving.start();
    Object.assign(this, this.serving.address);
    await this.system?.start(Number(new URL(this.url).port));
    // Over etcd the caches hear of the server's own start-up writes a moment later: the server
    // is started once they hold them, so its first resourceVersion is the store's.
    await this.cacher.waitForRevision(
      await this.store.currentRevision(),
      opts.tooLargeWait ?? DEFAULTS.tooLargeWait,
    );
    this.compaction.start();
  }

  uiLoginUrl(): string | undefined {
    return this.serving?.ui?.routes.loginUrl(this.url);
  }

  tune({ watchWriteCoalescing }: { watchWriteCoalescing?: boolean }): void {
    if (watchWriteCoalescing !== undefined) this.ctx.watchWriter.coalescing = watchWriteCoalescing;
  }

  uiPagesOpen(): number {
    return this.serving?.ui?.stream.connected ?? 0;
  }

  async compact(): Promise<number> {
    const revision = await this.store.currentRevision();
    await this.store.compact(revision);
    // Over etcd the caches follow a moment behind: drop history only once they
    // hold everything up to the compaction, or older events would survive it.
    await this.cacher.waitForRevision(revision, this.opts.tooLargeWait ?? DEFAULTS.tooLargeWait);
    this.cacher.dropHistory();
    this.serving?.ui?.noteCompaction(revision);
    return revision;
  }

  dropWatches(): number {
    const watchers = this.cacher.all().flatMap((cache) => cache.watchers.all());
    for (const w of watchers) w.close('dropped');
    this.serving?.ui?.noteDrop(watchers.length);
    return watchers.length;
  }

  snapshot(): Promise<ServerSnapshot> {
    return this.snapshots.take();
  }

  restore(snapshot: ServerSnapshot): Promise<void> {
    return this.snapshots.restore(snapshot);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.faults.dispose();
    this.compaction.stop();
    this.serving?.ui?.close();
    for (const cache of this.cacher.all()) for (const w of cache.watchers.all()) w.close('shutdown');
    await this.crds.stop();
    await this.namespaces.stop();
    await this.system?.stop();
    this.cacher.stop();
    await this.serving?.close();
    await Promise.allSettled([...this.background]);
    if (!this.opts.store) await this.store.close();
  }

  private runInBackground(what: string, work: () => Promise<void>): void {
    const p = work()
      .catch((err: Error) => (this.opts.log ?? (() => {}))(`${what} failed: ${err.message}`))
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }
}
