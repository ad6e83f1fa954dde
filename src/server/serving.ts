/**
 * The side of a server that faces the network, as k8s.io/apiserver's GenericAPIServer holds it:
 * who may come in (the authenticator, and the admin token the kubeconfig carries), the live view,
 * the handler every request goes down (http/handler-chain.ts in front of director.ts), the
 * listening socket (http/listen.ts, kube's `SecureServingInfo.Serve`) and the kubeconfig that
 * reaches it. api-server.ts builds what the requests are served from and hands it here.
 */
import type { Server } from 'node:http';
import type { Cacher } from './cache/cacher.js';
import type { DebugContext } from './debug-routes.js';
import { director, isSnapshotAction } from './director.js';
import { withFaults } from './faults/fault-filter.js';
import type { Faults } from './faults/server-faults.js';
import type { ResourceContext } from './handlers/resource-handler.js';
import { authenticateServiceAccountToken } from './handlers/service-account-token.js';
import { virtualResourceParts } from './handlers/virtual-services.js';
import { type Authenticator, type BearerTokenAuthenticator, serverAuthenticator } from './http/auth.js';
import { buildHandlerChain } from './http/handler-chain.js';
import { closeServer, listen } from './http/listen.js';
import type { KindTable } from './kinds/served/kind-table.js';
import { serverHealth } from './non-resource.js';
import { DEFAULTS, type ServerOptions } from './options.js';
import { buildKubeconfig, writeKubeconfig } from './pki/kubeconfig.js';
import type { RunningServer } from './running-server.js';
import { SnapshotShelf } from './snapshots/shelf.js';
import { ServerMetrics } from './stats/metrics.js';
import type { Store } from './stores/types.js';
import type { LiveUi } from './ui/live-ui.js';

/** What the requests are served from, as api-server.ts built it. */
export interface ServingParts {
  opts: ServerOptions;
  /** The server: its counters, and the actions the debug routes and the live view's buttons call. */
  server: Pick<RunningServer, 'stats' | 'compact' | 'dropWatches' | 'snapshot' | 'restore'>;
  store: Store;
  cacher: Cacher;
  kinds: KindTable;
  faults: Faults;
  /** The requests under way, for a restore to wait for (http/with-wait-group.ts). */
  inFlight: Set<Promise<void>>;
  /** What the resource handlers serve from. */
  resources: ResourceContext;
  /** True once the server is closing: `/readyz` fails, so load balancers stop sending to it. */
  closing(): boolean;
}

/** Where a started server is, and what reaches it. */
export interface ServerAddress {
  url: string;
  caPem: string | undefined;
  token: string | undefined;
  kubeconfig: string;
  kubeconfigPath: string | undefined;
}

/** The authenticator, the live view and the listening socket of one server. */
export class Serving {
  readonly authenticator: Authenticator | undefined;
  readonly address: ServerAddress = {
    url: '',
    caPem: undefined,
    token: undefined,
    kubeconfig: '',
    kubeconfigPath: undefined,
  };
  ui: LiveUi | undefined;
  private http: Server | undefined;

  constructor(private readonly parts: ServingParts) {
    const resources = parts.resources;
    // The service-account token issuer and the store's probe the unstored resources answer with.
    Object.assign(resources, virtualResourceParts(parts.store));
    if (parts.opts.insecureNoAuth) return;
    const issuer = resources.tokenIssuer;
    // The service-account tokens the server issues authenticate requests and TokenReviews.
    const bearerTokens: BearerTokenAuthenticator | undefined = issuer
      ? (token, audiences) =>
          authenticateServiceAccountToken(
            issuer,
            resources.objects,
            resources.kinds,
            token,
            audiences ?? [issuer.issuer],
            resources.clock.now(),
          )
      : undefined;
    const { authenticator, token } = serverAuthenticator({ ...parts.opts, bearerTokens });
    this.authenticator = authenticator;
    this.address.token = token;
    resources.authenticateToken = (reviewed, audiences) => authenticator.reviewToken(reviewed, audiences);
  }

  /**
   * Starts the live view (with `ui`), listens, and writes the kubeconfig. What was started before
   * a failure stays for {@link close} to end.
   */
  async start(): Promise<void> {
    const { opts } = this.parts;
    if (opts.ui) this.ui = await this.startUi();
    const clock = this.parts.resources.clock;
    const bindAddress = opts.bindAddress ?? DEFAULTS.bindAddress;
    const listener = await listen({ ...opts, bindAddress, clock }, this.handler());
    this.http = listener.http;
    const address = this.address;
    address.url = listener.url;
    address.caPem = listener.caPem;
    address.kubeconfig = buildKubeconfig({
      server: address.url,
      caPem: address.caPem,
      token: address.token,
      // Over plain HTTP there is nothing to verify, but @kubernetes/client-node refuses an http://
      // server unless the kubeconfig says so (its KubeConfig.createAgent); kubectl ignores it.
      insecureSkipTlsVerify: address.caPem === undefined && address.url.startsWith('http:'),
    });
    if (opts.kubeconfigOut) {
      await writeKubeconfig(opts.kubeconfigOut, address.kubeconfig);
      address.kubeconfigPath = opts.kubeconfigOut;
    }
  }

  /** Stops listening: idle connections close at once, the rest once their answers are out. */
  async close(): Promise<void> {
    if (this.http) await closeServer(this.http);
  }

  /** The chain every request goes down, over the parts the server built. */
  private handler() {
    const { opts, store, cacher, kinds, faults, server } = this.parts;
    const { stats } = server;
    const countBytes = (bytes: number) => {
      stats.responseBytesWritten += bytes;
    };
    const debug: DebugContext = {
      stats,
      store,
      cacher,
      faults,
      compact: () => server.compact(),
      dropWatches: () => server.dropWatches(),
      snapshots: new SnapshotShelf({
        storeName: () => store.name,
        snapshot: () => server.snapshot(),
        restore: (snapshot) => server.restore(snapshot),
      }),
    };
    const clock = this.parts.resources.clock;
    const nonResource = {
      stats,
      health: serverHealth(store, clock, this.parts.closing),
      metrics: new ServerMetrics(stats),
      kinds,
      tokenIssuer: this.parts.resources.tokenIssuer,
    };
    return buildHandlerChain({
      counts: stats,
      countBytes,
      log: (line) => opts.log?.(line),
      clock,
      recordsRequests: Boolean(opts.onRequest),
      door: faults.gate,
      inFlight: this.parts.inFlight,
      // A restore asked over HTTP waits for the requests under way: never for itself.
      waitGroupExempt: (req) => isSnapshotAction(req.url),
      sideDoors: this.ui ? [this.ui.door] : [],
      authenticator: this.authenticator,
      kinds,
      resourceFilters: [withFaults({ rules: faults.rules, onRequest: opts.onRequest, countBytes })],
      director: director({ resources: this.parts.resources, nonResource, debug, liveView: this.ui }),
    });
  }

  /** The live view, loaded only when asked for. */
  private async startUi(): Promise<LiveUi> {
    const { LiveUi } = await import('./ui/live-ui.js');
    const { authenticator, parts } = this;
    return new LiveUi({
      clock: parts.resources.clock,
      stats: parts.server.stats,
      cacher: parts.cacher,
      open: authenticator === undefined,
      secure: !parts.opts.insecureHttp,
      authenticate: (req) => authenticator?.authenticate(req) !== undefined,
      authenticateToken: (token) => authenticator?.authenticateToken(token) !== undefined,
      compact: () => parts.server.compact(),
      dropWatches: () => parts.server.dropWatches(),
    });
  }
}
