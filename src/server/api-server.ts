import type { Server } from 'node:http';
import { type Clock, systemClock } from '../protocol/clock.js';
import { Admission } from './admission/admission.js';
import { NamespaceLifecycle } from './admission/namespace-lifecycle.js';
import { Cacher } from './cache/cacher.js';
import { CacheDelegator } from './cache/delegator.js';
import { WatchWriter } from './cache/watch-sink.js';
import { CrdController } from './controllers/crd-controller.js';
import { NamespaceController } from './controllers/namespace-controller.js';
import { CUSTOM_RESOURCE_DEFINITIONS } from './crd/serve/crd-kind.js';
import { director, isSnapshotAction } from './director.js';
import { withFaults } from './faults/fault-filter.js';
import { Faults } from './faults/server-faults.js';
import { recordUpdateOwnership } from './handlers/field-ownership.js';
import type { ResourceContext } from './handlers/resource-handler.js';
import { type Authenticator, serverAuthenticator } from './http/auth.js';
import { buildHandlerChain } from './http/handler-chain.js';
import { listen } from './http/listen.js';
import { disabledAdmissionPlugins, kindsWithAdmission } from './kinds/admission-plugins.js';
import { KindTable } from './kinds/served/kind-table.js';
import { REGISTRY } from './kinds/served/registry.js';
import { type NonResourceContext, serverHealth } from './non-resource.js';
import { DEFAULTS, type ServerOptions, SYSTEM_NAMESPACES, watchSettings } from './options.js';
import { buildKubeconfig, writeKubeconfig } from './pki/kubeconfig.js';
import { ObjectStorage } from './registry/object-storage.js';
import type { RunningServer } from './running-server.js';
import { SnapshotShelf } from './snapshots/shelf.js';
import { entriesOf, type ServerSnapshot, Snapshots, storeFrom } from './snapshots/snapshots.js';
import { ServerMetrics } from './stats/metrics.js';
import { newStats } from './stats/stats.js';
import { CompactionLoop } from './stores/compaction-loop.js';
import type { Store } from './stores/types.js';
import type { LiveUi } from './ui/live-ui.js';

export type { RunningServer, ServerSnapshot } from './running-server.js';

/**
 * Starts a Kubernetes-compatible API server in this process: the same server
 * `watchmark serve` runs. Stop it with `close()`; a new one may then be
 * started over the same `store`, as kube-apiserver restarts over etcd.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const ownStore = await openEtcdStore(options);
  let server: ApiServer;
  try {
    server = new ApiServer(options, ownStore);
  } catch (err) {
    await ownStore?.close();
    throw err;
  }
  try {
    await server.start();
  } catch (err) {
    // Nothing may outlive a failed start: the etcd client, a listening socket.
    await server.close();
    throw err;
  }
  return server;
}

/**
 * The etcd store of `--etcd-servers`, loaded only when asked for: the etcd
 * client (gRPC and its protocol definitions) takes most of a second to load.
 */
async function openEtcdStore(options: ServerOptions): Promise<Store | undefined> {
  if (!options.etcd || options.store) return undefined;
  const { EtcdStore } = await import('./stores/etcd.js');
  return new EtcdStore({ log: options.log, ...options.etcd });
}

class ApiServer implements RunningServer {
  readonly store: Store;
  readonly stats = newStats();
  url = '';
  kubeconfig = '';
  kubeconfigPath: string | undefined;
  token: string | undefined;
  caPem: string | undefined;
  private readonly opts: ServerOptions;
  private readonly ownsStore: boolean;
  private readonly clock: Clock;
  /** The kinds this server serves: the built-ins, and custom kinds as their definitions are established. */
  private readonly kinds: KindTable;
  private readonly crds: CrdController;
  private readonly cacher: Cacher;
  private readonly objects: ObjectStorage;
  private readonly namespaces: NamespaceController;
  private readonly metrics: ServerMetrics;
  private readonly ctx: ResourceContext;
  /** What the non-resource paths (health, discovery, OpenAPI, metrics) read. */
  private readonly nonResource: NonResourceContext;
  private readonly compaction: CompactionLoop;
  private readonly snapshots: Snapshots;
  private authenticator: Authenticator | undefined;
  private ui: LiveUi | undefined;
  private http: Server | undefined;
  private readonly background = new Set<Promise<void>>();
  /** Requests being served now (a watch until its stream starts): a restore waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  readonly faults: Faults;
  private closing = false;

  constructor(opts: ServerOptions, ownStore?: Store) {
    if (opts.startFrom && (opts.store || opts.etcd)) {
      throw new Error('startFrom starts a memory store of its own: it cannot be combined with store or etcd');
    }
    if (opts.insecureHttp && !opts.insecureNoAuth) {
      throw new Error(
        '--insecure-http requires --insecure-no-auth: kubectl never sends credentials over plain HTTP',
      );
    }
    this.kinds = new KindTable(
      kindsWithAdmission(
        [...REGISTRY, CUSTOM_RESOURCE_DEFINITIONS],
        disabledAdmissionPlugins(opts.disableAdmissionPlugins),
      ),
    );
    this.opts = opts;
    this.ownsStore = !opts.store;
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
    this.namespaces = new NamespaceController({
      objects: this.objects,
      cacher: this.cacher,
      kinds: this.kinds,
      clock: this.clock,
      log,
      systemNamespaces: opts.systemNamespaces === false ? [] : SYSTEM_NAMESPACES,
    });
    this.crds = new CrdController({
      objects: this.objects,
      cacher: this.cacher,
      kinds: this.kinds,
      clock: this.clock,
      log,
    });
    this.metrics = new ServerMetrics(this.stats);
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
      admission: new Admission({
        hooks: opts.admission,
        cacher: this.cacher,
        objects: this.objects,
        kinds: this.kinds,
        log,
      }),
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
    this.nonResource = {
      stats: this.stats,
      health: serverHealth(this.store, this.clock, () => this.closing),
      metrics: this.metrics,
      kinds: this.kinds,
    };
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
    // The system namespaces exist before the server answers; terminating ones are finished.
    await this.namespaces.start();
    if (!opts.insecureNoAuth)
      ({ authenticator: this.authenticator, token: this.token } = serverAuthenticator(opts));
    if (opts.ui) this.ui = await this.startUi();
    const bindAddress = opts.bindAddress ?? DEFAULTS.bindAddress;
    const listener = await listen({ ...opts, bindAddress, clock: this.clock }, this.handlerChain());
    this.http = listener.http;
    this.url = listener.url;
    this.caPem = listener.caPem;
    this.kubeconfig = buildKubeconfig({
      server: this.url,
      caPem: this.caPem,
      token: this.token,
      // Over plain HTTP there is nothing to verify, but @kubernetes/client-node refuses an http://
      // server unless the kubeconfig says so (its KubeConfig.createAgent); kubectl ignores it.
      insecureSkipTlsVerify: this.caPem === undefined && this.url.startsWith('http:'),
    });
    if (opts.kubeconfigOut) {
      await writeKubeconfig(opts.kubeconfigOut, this.kubeconfig);
      this.kubeconfigPath = opts.kubeconfigOut;
    }
    this.compaction.start();
  }

  /** The chain every request goes down (http/handler-chain.ts), over this server's parts. */
  private handlerChain() {
    const countBytes = (bytes: number) => {
      this.stats.responseBytesWritten += bytes;
    };
    const debug = {
      ...{ stats: this.stats, store: this.store, cacher: this.cacher, faults: this.faults },
      compact: () => this.compact(),
      dropWatches: () => this.dropWatches(),
      snapshots: new SnapshotShelf({
        storeName: () => this.store.name,
        snapshot: () => this.snapshot(),
        restore: (snapshot) => this.restore(snapshot),
      }),
    };
    return buildHandlerChain({
      counts: this.stats,
      countBytes,
      log: (line) => this.opts.log?.(line),
      clock: this.clock,
      recordsRequests: Boolean(this.opts.onRequest),
      door: this.faults.gate,
      inFlight: this.inFlight,
      // A restore asked over HTTP waits for the requests under way: never for itself.
      waitGroupExempt: (req) => isSnapshotAction(req.url),
      sideDoors: this.ui ? [this.ui.door] : [],
      authenticator: this.authenticator,
      kinds: this.kinds,
      resourceFilters: [withFaults({ rules: this.faults.rules, onRequest: this.opts.onRequest, countBytes })],
      director: director({ resources: this.ctx, nonResource: this.nonResource, debug, liveView: this.ui }),
    });
  }

  uiLoginUrl(): string | undefined {
    return this.ui?.routes.loginUrl(this.url);
  }

  tune(knobs: { watchWriteCoalescing?: boolean }): void {
    if (knobs.watchWriteCoalescing !== undefined)
      this.ctx.watchWriter.coalescing = knobs.watchWriteCoalescing;
  }

  uiPagesOpen(): number {
    return this.ui?.stream.connected ?? 0;
  }

  private async startUi(): Promise<LiveUi> {
    const { LiveUi } = await import('./ui/live-ui.js');
    return new LiveUi({
      clock: this.clock,
      stats: this.stats,
      cacher: this.cacher,
      open: this.authenticator === undefined,
      secure: !this.opts.insecureHttp,
      authenticate: (req) => this.authenticator?.authenticate(req) !== undefined,
      authenticateToken: (token) => this.authenticator?.authenticateToken(token) !== undefined,
      compact: () => this.compact(),
      dropWatches: () => this.dropWatches(),
    });
  }

  async compact(): Promise<number> {
    const revision = await this.store.currentRevision();
    await this.store.compact(revision);
    // Over etcd the caches follow a moment behind: drop history only once they
    // hold everything up to the compaction, or older events would survive it.
    await this.cacher.waitForRevision(revision, this.opts.tooLargeWait ?? DEFAULTS.tooLargeWait);
    this.cacher.dropHistory();
    this.ui?.noteCompaction(revision);
    return revision;
  }

  dropWatches(): number {
    let n = 0;
    for (const cache of this.cacher.all()) {
      for (const w of cache.watchers.all()) {
        w.close('dropped');
        n++;
      }
    }
    this.ui?.noteDrop(n);
    return n;
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
    this.ui?.close();
    for (const cache of this.cacher.all()) for (const w of cache.watchers.all()) w.close('shutdown');
    await this.crds.stop();
    await this.namespaces.stop();
    this.cacher.stop();
    const http = this.http;
    if (http) {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeIdleConnections();
        setImmediate(() => http.closeAllConnections());
      });
    }
    await Promise.allSettled([...this.background]);
    if (this.ownsStore) await this.store.close();
  }

  private runInBackground(what: string, work: () => Promise<void>): void {
    const p = work()
      .catch((err: Error) => (this.opts.log ?? (() => {}))(`${what} failed: ${err.message}`))
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }
}
