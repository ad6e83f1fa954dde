import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type Clock, systemClock, type TimerHandle } from '../protocol/clock.js';
import { failureStatus, StatusError } from '../protocol/status.js';
import { CrdController } from './crd/serve/controller.js';
import { CUSTOM_RESOURCE_DEFINITIONS } from './crd/serve/crd-kind.js';
import { handleResource, type ResourceContext } from './handlers/resource-handler.js';
import type { WatchSettings } from './handlers/watch.js';
import { Authenticator, generateToken, parseTokenFile, type UserInfo } from './http/auth.js';
import type { HealthEndpoints } from './http/health.js';
import { sendStatus, toStatus } from './http/http-io.js';
import { listen } from './http/listen.js';
import { parseResourcePath, splitRequestTarget } from './http/request-info.js';
import { KindTable } from './kinds/kind-table.js';
import { REGISTRY } from './kinds/registry.js';
import type { ResourceKind } from './kinds/types.js';
import { type NonResourceContext, serveDebug, serveNonResource, serverHealth } from './non-resource.js';
import { DEFAULTS, type ServerOptions, SYSTEM_NAMESPACES } from './options.js';
import { buildKubeconfig, writeKubeconfig } from './pki/kubeconfig.js';
import { ServerMetrics } from './stats/metrics.js';
import { newStats, type ServerStats } from './stats/stats.js';
import { NamespaceLifecycle } from './storage/namespace-lifecycle.js';
import { ObjectStorage } from './storage/object-storage.js';
import { Compactor } from './storage/stores/compaction.js';
import { MemoryStore } from './storage/stores/memory.js';
import type { Store } from './storage/stores/types.js';
import type { LiveUi } from './ui/live-ui.js';
import { Cacher } from './watchcache/cacher.js';
import { WatchWriter } from './watchcache/watch-sink.js';

/** A running API server. */
export interface RunningServer {
  /** The base URL, e.g. `https://127.0.0.1:37421`. */
  readonly url: string;
  /** The kubeconfig (YAML) that reaches this server with full rights. */
  readonly kubeconfig: string;
  /** Where the kubeconfig was written, when `kubeconfigOut` was given. */
  readonly kubeconfigPath: string | undefined;
  /** The generated (or given) bearer token; undefined with auth off. */
  readonly token: string | undefined;
  /** PEM of the CA clients must trust; undefined over plain HTTP. */
  readonly caPem: string | undefined;
  /** The store served. */
  readonly store: Store;
  /** The live counters (also at /debug/watchmark/stats). */
  readonly stats: ServerStats;
  /** The resourceVersion the watch caches have reached. */
  latestRevision(): number;
  /** Compacts the store to now and empties the watch caches' history. */
  compact(): Promise<number>;
  /** Cuts every open watch stream mid-flight. Returns how many. */
  dropWatches(): number;
  /**
   * A link that opens the live view at `/ui` once (a single-use login code
   * for this server), or undefined when the server runs without `ui`.
   */
  uiLoginUrl(): string | undefined;
  /** Pages that have the live view's stream open now (0 without `ui`). */
  uiPagesOpen(): number;
  /**
   * Changes a benchmark knob of the running server (see {@link ServerOptions.watchWriteCoalescing}):
   * the fan-out benchmark alternates it between rounds of one run.
   */
  tune(knobs: { watchWriteCoalescing?: boolean }): void;
  /** Ends every watch cleanly, stops listening and releases everything. */
  close(): Promise<void>;
}

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
  const { EtcdStore } = await import('./storage/stores/etcd.js');
  return new EtcdStore({ log: options.log, ...options.etcd });
}

/**
 * Paths anyone may read: kube-apiserver's `system:public-info-viewer` role
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go) grants
 * unauthenticated users exactly the health roots and /version; the per-check
 * paths (`/livez/ping`) need credentials.
 */
const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

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
  private readonly kinds = new KindTable([...REGISTRY, CUSTOM_RESOURCE_DEFINITIONS]);
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
  private readonly compactor: Compactor;
  private readonly background = new Set<Promise<void>>();
  private closing = false;
  /** Terminating namespaces that still hold objects with finalizers. */
  private readonly terminatingNamespaces = new Set<string>();

  constructor(opts: ServerOptions, ownStore?: Store) {
    if (opts.insecureHttp && !opts.insecureNoAuth) {
      throw new Error(
        '--insecure-http requires --insecure-no-auth: kubectl never sends credentials over plain HTTP',
      );
    }
    this.opts = opts;
    this.ownsStore = !opts.store;
    const log = opts.log ?? (() => {});
    this.store = opts.store ?? ownStore ?? new MemoryStore();
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
      finalizeNamespace: (name) => this.finalizeNamespace(name),
      countBytes: (bytes) => {
        this.stats.responseBytesWritten += bytes;
      },
    };
    this.nonResource = {
      stats: this.stats,
      store: this.store,
      cacher: this.cacher,
      health: this.health,
      metrics: this.metrics,
      kinds: this.kinds,
      compact: () => this.compact(),
      dropWatches: () => this.dropWatches(),
    };
  }

  latestRevision(): number {
    return this.cacher.latestRevision;
  }

  async start(): Promise<void> {
    const opts = this.opts;
    await this.cacher.start();
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
    this.kubeconfig = buildKubeconfig({ server: this.url, caPem: this.caPem, token: this.token });
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

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
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
    this.route(req, res).catch((err: unknown) => {
      const status = toStatus(err);
      if (status.code >= 500) (this.opts.log ?? (() => {}))(`${req.method} ${req.url}: ${status.message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.stats.responseBytesWritten += sendStatus(res, status);
    });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The raw target, never `new URL()`: URL parsing resolves dot segments and
    // would route `.../configmaps/..` to the namespace (see request-info.ts).
    const { segments, path, query } = splitRequestTarget(req.url ?? '/');
    // The live view has its own door (a login link, or the token once, for a session cookie).
    if (this.ui && this.uiModule?.LiveUi.owns(path)) return this.ui.routes.handle(req, res, path, query);
    if (this.authenticator && !PUBLIC_PATHS.has(path) && !this.authenticator.authenticate(req)) {
      throw new StatusError(failureStatus('Unauthorized', 'Unauthorized'));
    }
    const method = req.method ?? 'GET';
    const info = parseResourcePath(segments, (g, v, p) => this.kinds.findByPlural(g, v, p));
    if (info && this.ui) {
      // Per request, so the UI can put this client's watch on its lane (user agent, address, selectors).
      const ctx = { ...this.ctx, observeWatch: this.ui.observeWatch(req, info, query) };
      if (this.uiModule?.isList(method, info, query)) this.ui.observeList(req, res, info, query);
      return handleResource(ctx, req, res, info, query);
    }
    if (info) return handleResource(this.ctx, req, res, info, query);
    if (path.startsWith('/debug/watchmark/'))
      return serveDebug(this.nonResource, method, path.slice('/debug/watchmark/'.length), res);
    if (method !== 'GET' && method !== 'HEAD') {
      throw StatusError.of(
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource`,
      );
    }
    return serveNonResource(this.nonResource, req, res, path, query);
  }
}
