import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type Clock, systemClock, type TimerHandle } from '../protocol/clock.js';
import { failureStatus, StatusError } from '../protocol/status.js';
import { Admission } from './admission/admission.js';
import { type CacheEntries, Cacher } from './cache/cacher.js';
import { WatchWriter } from './cache/watch-sink.js';
import { NamespaceLifecycle } from './controllers/namespace-deleter.js';
import { CrdController } from './controllers/crd-controller.js';
import { CUSTOM_RESOURCE_DEFINITIONS } from './crd/serve/crd-kind.js';
import { memoryStoreOnly, SnapshotShelf } from './debug-snapshots.js';
import { requestAttributes } from './faults/request-attributes.js';
import { recordAnswer } from './faults/request-recorder.js';
import { Faults } from './faults/server-faults.js';
import { handleResource, type ResourceContext } from './handlers/resource-handler.js';
import type { WatchSettings } from './handlers/watch.js';
import { Authenticator, generateToken, parseTokenFile, type UserInfo } from './http/auth.js';
import type { HealthEndpoints } from './http/health.js';
import { sendStatus, toStatus } from './http/http-io.js';
import { listen } from './http/listen.js';
import { claimedByGoRestful, servedForAnyMethod } from './http/non-resource-routes.js';
import { queryFlag } from './http/query-flag.js';
import {
  isRouteNotFound,
  parseResourcePath,
  routeMethodNotAllowed,
  splitRequestTarget,
} from './http/request-info.js';
import { disabledAdmissionPlugins, kindsWithAdmission } from './kinds/admission-plugins.js';
import { KindTable } from './kinds/served/kind-table.js';
import { REGISTRY } from './kinds/served/registry.js';
import type { ResourceKind } from './kinds/types.js';
import {
  type NonResourceContext,
  notFound,
  serveDebug,
  servedGroups,
  serveNonResource,
  serverHealth,
} from './non-resource.js';
import { DEFAULTS, type ServerOptions, SYSTEM_NAMESPACES } from './options.js';
import { buildKubeconfig, writeKubeconfig } from './pki/kubeconfig.js';
import { ObjectStorage } from './registry/object-storage.js';
import type { RunningServer, ServerSnapshot } from './running-server.js';
import { ServerMetrics } from './stats/metrics.js';
import { newStats } from './stats/stats.js';
import { Compactor } from './stores/compaction.js';
import { MemoryStore } from './stores/memory.js';
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

/**
 * Paths anyone may read: kube-apiserver's `system:public-info-viewer` role
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go) grants
 * unauthenticated users exactly the health roots and /version; the per-check
 * paths (`/livez/ping`) need credentials.
 */
const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

/**
 * The cache entries at each snapshot a server of this process took, for a restore, or a new
 * server started from the snapshot, to reuse instead of decoding every object again: entries
 * are immutable, and those of the built-in kinds (CustomResourceDefinitions among them) mean
 * the same to every server. A snapshot copied through JSON comes without them.
 */
const snapshotEntries = new WeakMap<ServerSnapshot, CacheEntries>();

/** A memory store holding `snapshot`'s state, or an empty one. */
function storeFrom(snapshot: ServerSnapshot | undefined): MemoryStore {
  const store = new MemoryStore();
  if (snapshot === undefined) return store;
  checkSnapshot(snapshot, 'startFrom');
  store.restore(snapshot.store);
  return store;
}

/** Throws unless `snapshot` is what `snapshot()` returns (or its JSON copy). */
function checkSnapshot(snapshot: ServerSnapshot, what: string): void {
  if (snapshot?.format !== 'watchmark.server-snapshot/v1') {
    throw new Error(`${what} takes what snapshot() returned (format ${JSON.stringify(snapshot?.format)})`);
  }
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
  private readonly namespaces: NamespaceLifecycle;
  private readonly metrics: ServerMetrics;
  private readonly ctx: ResourceContext;
  /** What the non-resource paths (health, discovery, OpenAPI, metrics, debug) read. */
  private readonly nonResource: NonResourceContext;
  private readonly health: HealthEndpoints;
  private authenticator: Authenticator | undefined;
  private ui: LiveUi | undefined;
  /** The live view's module, loaded at start only when `ui` is on. */
  private uiModule: typeof import('./ui/live-ui.js') | undefined;
  private http: Server | undefined;
  private compactionTimer: TimerHandle | undefined;
  private compactor: Compactor;
  private readonly background = new Set<Promise<void>>();
  /** Requests being routed now (a watch until its stream starts): a restore waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The last restore, so the next waits for it. */
  private restoring: Promise<void> = Promise.resolve();
  readonly faults: Faults;
  private closing = false;
  /** Terminating namespaces that still hold objects with finalizers. */
  private readonly terminatingNamespaces = new Set<string>();

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
    this.compactor = new Compactor(this.store);
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
    this.objects = new ObjectStorage(this.store, this.clock, this.stats, (kind, value) =>
      this.cacher.noteWritten(kind, value),
    );
    this.namespaces = new NamespaceLifecycle(this.objects, this.store, this.clock);
    this.crds = new CrdController({
      objects: this.objects,
      cacher: this.cacher,
      kinds: this.kinds,
      clock: this.clock,
      log,
    });
    this.metrics = new ServerMetrics(this.stats);
    this.health = serverHealth(this.store, this.clock, () => this.closing);
    // A namespace held by objects with finalizers finishes when the last of them goes.
    this.objects.onFinalized = (namespace) => {
      if (namespace !== undefined && this.terminatingNamespaces.has(namespace))
        this.finalizeNamespace(namespace);
    };
    const settings: WatchSettings = {
      bookmarkIntervalMs: opts.bookmarkInterval ?? DEFAULTS.bookmarkInterval,
      bookmarkLeadMs: opts.bookmarkLead ?? DEFAULTS.bookmarkLead,
      minRequestTimeoutMs: opts.minRequestTimeout ?? DEFAULTS.minRequestTimeout,
      periodicBookmarks: !opts.noBookmarks,
      watchList: !opts.noWatchList,
      maxWatcherBufferBytes: opts.maxWatcherBufferBytes ?? DEFAULTS.maxWatcherBufferBytes,
      tooLargeWaitMs: opts.tooLargeWait ?? DEFAULTS.tooLargeWait,
    };
    this.ctx = {
      store: this.store,
      cacher: this.cacher,
      clock: this.clock,
      stats: this.stats,
      settings,
      watchWriter: new WatchWriter(this.stats, opts.watchWriteCoalescing ?? true),
      tooLargeWaitMs: settings.tooLargeWaitMs,
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
      userOf: (req) => this.authenticator?.authenticate(req),
      finalizeNamespace: (name) => this.finalizeNamespace(name),
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
      faults: this.faults,
      stats: this.stats,
      store: this.store,
      cacher: this.cacher,
      health: this.health,
      metrics: this.metrics,
      kinds: this.kinds,
      compact: () => this.compact(),
      dropWatches: () => this.dropWatches(),
      snapshots: new SnapshotShelf({
        storeName: () => this.store.name,
        snapshot: () => this.snapshot(),
        restore: (snapshot) => this.restore(snapshot),
      }),
    };
  }

  latestRevision(): number {
    return this.cacher.latestRevision;
  }

  async start(): Promise<void> {
    const opts = this.opts;
    // Over a snapshot taken in this process, the caches take its decoded entries as they are.
    await this.cacher.start(opts.startFrom && !opts.store ? snapshotEntries.get(opts.startFrom) : undefined);
    // The definitions stored now are served before the server answers anything.
    await this.crds.start();
    if (opts.systemNamespaces !== false) await this.namespaces.ensureNamespaces(SYSTEM_NAMESPACES);
    for (const name of await this.namespaces.terminating()) this.finalizeNamespace(name);
    if (!opts.insecureNoAuth) {
      const tokens = opts.tokenFile
        ? parseTokenFile(opts.tokenFile.text, opts.tokenFile.name)
        : new Map<string, UserInfo>();
      this.token = opts.token ?? generateToken();
      tokens.set(this.token, { name: 'watchmark-admin', groups: ['system:masters'] });
      this.authenticator = new Authenticator({ tokens, clientCA: opts.clientCA });
    }
    const listener = await listen(
      { ...opts, bindAddress: opts.bindAddress ?? DEFAULTS.bindAddress, clock: this.clock },
      (req, res) => this.handle(req, res),
    );
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
    if (opts.ui) this.ui = await this.startUi();
    this.scheduleCompaction();
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
    this.uiModule = await import('./ui/live-ui.js');
    return new this.uiModule.LiveUi({
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

  async snapshot(): Promise<ServerSnapshot> {
    const store = this.memoryStore('snapshot');
    const snap = store.snapshot();
    const snapshot: ServerSnapshot = {
      format: 'watchmark.server-snapshot/v1',
      revision: snap.revision,
      store: snap,
    };
    // The memory store tells the caches of every write at once: they hold this very revision.
    snapshotEntries.set(snapshot, this.cacher.captureEntries());
    return snapshot;
  }

  /**
   * New requests wait at the door while the state is swapped; those under way finish first, as
   * a graceful shutdown lets them. Then the store takes the snapshot, and everything kept
   * beside it starts over from the store as at a start (`start()`): the watch caches (ending
   * every watch), the served custom resources (the definitions controller resyncs after the
   * fill), the system namespaces and the terminating namespaces' cleanup.
   */
  async restore(snapshot: ServerSnapshot): Promise<void> {
    const store = this.memoryStore('restore');
    checkSnapshot(snapshot, 'restore()');
    if (this.closing) throw new Error('restore(): the server is closed');
    // One at a time, in the order asked, so two at once leave the last one's state whole.
    const turn = this.restoring.then(() => this.restoreNow(store, snapshot));
    this.restoring = turn.catch(() => {});
    return turn;
  }

  private async restoreNow(store: MemoryStore, snapshot: ServerSnapshot): Promise<void> {
    this.faults.gate.close();
    try {
      await Promise.allSettled([...this.inFlight]);
      await this.crds.idle();
      await Promise.allSettled([...this.background]);
      store.restore(snapshot.store);
      this.terminatingNamespaces.clear();
      // The compaction loop's target is a revision of the old history.
      this.compactor = new Compactor(this.store);
      this.crds.forgetWrites();
      await this.cacher.reload(snapshotEntries.get(snapshot));
      await this.crds.idle();
      if (this.opts.systemNamespaces !== false) await this.namespaces.ensureNamespaces(SYSTEM_NAMESPACES);
      for (const name of await this.namespaces.terminating()) this.finalizeNamespace(name);
    } finally {
      this.faults.gate.open();
    }
  }

  private memoryStore(what: string): MemoryStore {
    if (!(this.store instanceof MemoryStore)) {
      throw new Error(memoryStoreOnly(`${what}() works`, this.store.name));
    }
    return this.store;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.faults.dispose();
    this.compactionTimer?.cancel();
    this.ui?.close();
    for (const cache of this.cacher.all()) for (const w of cache.watchers.all()) w.close('shutdown');
    await this.crds.stop();
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

  /**
   * Compacts like kube-apiserver: every interval, to the revision seen at the
   * previous tick, so exact reads and continue tokens stay valid for one
   * whole interval.
   */
  private scheduleCompaction(): void {
    const interval = this.opts.compactionInterval ?? DEFAULTS.compactionInterval;
    if (interval <= 0) return;
    this.compactionTimer = this.clock.setTimeout(() => {
      this.runInBackground('compaction', async () => {
        await this.compactor.tick();
      });
      if (!this.closing) this.scheduleCompaction();
    }, interval);
  }

  /** Runs the namespace controller's pass over a terminating namespace in the background. */
  private finalizeNamespace(name: string): void {
    // Marked before the pass, so a finalizer removed during it still triggers the next one.
    this.terminatingNamespaces.add(name);
    this.runInBackground(`finalize namespace ${name}`, async () => {
      if (!(await this.namespaces.finalizeNamespace(name, this.deletableKinds()))) return;
      this.terminatingNamespaces.delete(name);
      // kube-node-lease may be deleted (it is not immortal); kube-apiserver's system namespaces
      // controller (pkg/controlplane/controller/systemnamespaces, `Controller.sync`, every minute)
      // creates it again. Here that happens as soon as it is gone.
      if (this.opts.systemNamespaces !== false && (SYSTEM_NAMESPACES as readonly string[]).includes(name))
        await this.namespaces.ensureNamespaces([name]);
    });
  }

  /**
   * One kind per resource, as the namespace deleter discovers them (preferred versions): a
   * custom resource's storage version, not each of its served versions.
   */
  private deletableKinds(): ResourceKind[] {
    const custom = new Map<string, ResourceKind>();
    const out: ResourceKind[] = [];
    for (const k of this.kinds.all()) {
      if (!k.custom) out.push(k);
      else if (!k.custom.conversionError) {
        const seen = custom.get(k.custom.crdName);
        if (!seen || k.version === k.custom.storageVersion) custom.set(k.custom.crdName, k);
      }
    }
    return [...out, ...custom.values()];
  }

  private runInBackground(what: string, work: () => Promise<void>): void {
    const p = work()
      .catch((err: Error) => (this.opts.log ?? (() => {}))(`${what} failed: ${err.message}`))
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.stats.requests++;
    res.on('finish', () => {
      if (res.statusCode >= 400) this.stats.requestErrors++;
    });
    const arrived = this.opts.onRequest ? this.clock.now() : 0;
    // A paused (or restoring) server answers nothing, health checks included.
    if (this.faults.gate.closed) {
      this.faults.gate.pass(() => {
        if (!req.socket.destroyed) this.serve(req, res, arrived);
      });
      return;
    }
    this.serve(req, res, arrived);
  }

  private serve(req: IncomingMessage, res: ServerResponse, arrived: number): void {
    const routed = this.route(req, res, arrived).catch((err: unknown) => {
      const status = toStatus(err);
      if (status.code >= 500) (this.opts.log ?? (() => {}))(`${req.method} ${req.url}: ${status.message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.stats.responseBytesWritten += sendStatus(res, status);
    });
    // A restore asked over HTTP waits for the requests under way: never for itself.
    if (req.url?.startsWith('/debug/watchmark/snapshots/')) return;
    this.inFlight.add(routed);
    void routed.finally(() => this.inFlight.delete(routed));
  }

  private async route(req: IncomingMessage, res: ServerResponse, arrived: number): Promise<void> {
    // The raw target, never `new URL()`: URL parsing resolves dot segments and
    // would route `.../configmaps/..` to the namespace (see request-info.ts).
    const { segments, path, query } = splitRequestTarget(req.url ?? '/');
    // The live view has its own door (a login link, or the token once, for a session cookie).
    if (this.ui && this.uiModule?.LiveUi.owns(path)) return this.ui.routes.handle(req, res, path, query);
    if (this.authenticator && !PUBLIC_PATHS.has(path) && !this.authenticator.authenticate(req)) {
      throw new StatusError(failureStatus('Unauthorized', 'Unauthorized'));
    }
    const method = req.method ?? 'GET';
    let info: ReturnType<typeof parseResourcePath>;
    try {
      info = parseResourcePath(segments, (g, v, p) => this.kinds.findByPlural(g, v, p));
    } catch (err) {
      // A group nothing serves has no web service: the mux's text 404, not go-restful's Status.
      if (
        isRouteNotFound(err) &&
        segments[0] === 'apis' &&
        !claimedByGoRestful(path, servedGroups(this.nonResource))
      ) {
        return notFound(this.nonResource, res, path);
      }
      throw err;
    }
    if (info && (this.opts.onRequest || this.faults.rules.active)) {
      const attrs = requestAttributes(req, info, query, arrived);
      if (this.opts.onRequest) {
        // As the handler decides (resource-handler.ts): only a GET streams.
        const streaming =
          method === 'GET' &&
          (info.watchPath || (info.subresource === undefined && queryFlag(query.get('watch')) === true));
        recordAnswer(res, attrs, streaming, this.opts.onRequest);
      }
      // A failed request is answered before its body is read: nothing is looked up or written.
      const fault = this.faults.rules.take(attrs);
      if (fault) {
        this.stats.responseBytesWritten += sendStatus(res, fault);
        return;
      }
    }
    if (info && this.ui) {
      // Per request, so the UI can put this client's watch on its lane (user agent, address, selectors).
      const ctx = { ...this.ctx, observeWatch: this.ui.observeWatch(req, info, query) };
      if (this.uiModule?.isList(method, info, query)) this.ui.observeList(req, res, info, query);
      return handleResource(ctx, req, res, info, query);
    }
    if (info) return handleResource(this.ctx, req, res, info, query);
    if (path.startsWith('/debug/watchmark/'))
      return serveDebug(this.nonResource, req, path.slice('/debug/watchmark/'.length), res);
    if (method !== 'GET' && method !== 'HEAD' && !servedForAnyMethod(path)) {
      // go-restful refuses the method on a route it owns; the mux knows no such path.
      if (claimedByGoRestful(path, servedGroups(this.nonResource))) throw routeMethodNotAllowed();
      return notFound(this.nonResource, res, path);
    }
    return serveNonResource(this.nonResource, req, res, path, query);
  }
}
