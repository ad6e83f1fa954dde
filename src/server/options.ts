import type { Clock } from '../protocol/clock.js';
import type { AdmissionHooks } from './admission/types.js';
import type { RequestRecord } from './faults/request-attributes.js';
import type { WatchSettings } from './handlers/watch.js';
import type { EtcdStoreOptions } from './stores/etcd.js';
import type { Store } from './stores/types.js';

/** Options of {@link startServer}; each mirrors a `watchmark serve` flag. Durations are in ms. */
export interface ServerOptions {
  /** Address to listen on (`--bind-address`), default 127.0.0.1. */
  bindAddress?: string;
  /** Port (`--port`); 0 picks a free one (default). */
  port?: number;
  /** The store to serve; a new in-memory store by default. A store passed in is never closed by the server. */
  store?: Store;
  /**
   * Start over a copy of this snapshot's state (`RunningServer.snapshot()`) in a memory store of
   * the server's own: the same objects and resourceVersions, served at once. A snapshot taken in
   * this process also lends its decoded objects, so a start over it skips decoding them. Not
   * with `store` or `etcd`.
   */
  startFrom?: import('./snapshots/snapshots.js').ServerSnapshot;
  /** Serve from etcd instead of memory (`--etcd-servers`, `--etcd-prefix`, `--etcd-cafile/certfile/keyfile`). */
  etcd?: EtcdStoreOptions;
  /** Time source; the system clock by default. */
  clock?: Clock;
  /** Random source in [0, 1) for watch timeouts; Math.random by default. */
  random?: () => number;
  /** How often each bookmark-enabled watcher gets a bookmark (`--bookmark-interval`, default 1m). */
  bookmarkInterval?: number;
  /** How long before a watch's deadline its last bookmark goes (`--bookmark-lead`, default 2s). */
  bookmarkLead?: number;
  /** The watch cache's history span (`--history-window`, default 75s). */
  historyWindow?: number;
  /** Most events a resource's history holds (default 102400, kube-apiserver's upper bound). */
  historyCapacity?: number;
  /** How long the store keeps old revisions (`--compaction-interval`, default 5m; 0 never compacts). */
  compactionInterval?: number;
  /** Watch timeout range start when clients send no timeoutSeconds (`--min-request-timeout`, default 1800s). */
  minRequestTimeout?: number;
  /** Never send periodic bookmarks (`--no-bookmarks`); streaming lists still end with their marker. */
  noBookmarks?: boolean;
  /**
   * Create the namespaces kube-apiserver creates at start (default, kube-system,
   * kube-public, kube-node-lease) when they are missing; default true
   * (`--no-system-namespaces` turns it off).
   */
  systemNamespaces?: boolean;
  /** Reject sendInitialEvents with 422 (`--no-watch-list`). */
  noWatchList?: boolean;
  /** How long a request for a future resourceVersion waits before its 504 (default 3s). */
  tooLargeWait?: number;
  /** Unread bytes after which a watcher is closed as too slow (default 16 MiB). */
  maxWatcherBufferBytes?: number;
  /** Serve plain HTTP (`--insecure-http`); only together with `insecureNoAuth`. */
  insecureHttp?: boolean;
  /** Turn authentication off (`--insecure-no-auth`). */
  insecureNoAuth?: boolean;
  /** Serving certificate and key PEM (`--tls-cert-file/--tls-private-key-file`); generated when absent. */
  tls?: { certPem: string; keyPem: string; caPem?: string };
  /** The static token file's text and name (`--token-file`). */
  tokenFile?: { text: string; name: string };
  /** PEM bundle of CAs for x509 client certificates (`--client-ca-file`). */
  clientCA?: string;
  /** Use this bearer token for the generated kubeconfig instead of a random one. */
  token?: string;
  /** Write the kubeconfig here (mode 0600). */
  kubeconfigOut?: string;
  /**
   * Serve the live view at `/ui` (`watchmark serve` turns it on; `--no-ui` off):
   * lanes of every open watch, streamed from the server's own state, behind
   * the API's authentication. Default false for {@link startServer}.
   */
  ui?: boolean;
  /**
   * Called once per resource request (not health, discovery or debug paths) as its answer
   * goes out: the verb kube-apiserver's request-info resolves, what it addressed, its user
   * agent and field manager, the status sent (a watch: when its stream starts) and the
   * resourceVersion answered. Unset, requests are not looked at.
   */
  onRequest?: (record: RequestRecord) => void;
  /**
   * In-process admission hooks, called where kube-apiserver calls admission webhooks (see
   * docs/admission.md); MutatingWebhookConfiguration and ValidatingWebhookConfiguration objects
   * work with or without them.
   */
  admission?: AdmissionHooks;
  /**
   * Built-in admission plugins to turn off, by kube-apiserver's names
   * (`--disable-admission-plugins`): `ServiceAccount` (on, it refuses a pod whose account does
   * not exist, so a server without a controller making each namespace's `default` account needs
   * it off, as envtest has it; its pods then name no service account), `Priority`,
   * `DefaultTolerationSeconds`, `TaintNodesByCondition`. A name
   * kube-apiserver does not know, or one watchmark cannot turn off, fails the start.
   */
  disableAdmissionPlugins?: string[];
  /** Receives one-line log messages (errors of background work). */
  log?: (message: string) => void;
  /**
   * Benchmark knob, not a user setting: `false` turns off the typed-object check of writes
   * (wrong types refused, unknown fields dropped), so that `npm run bench:server` can measure
   * what the check costs. Default on; a server without it stores what Go clients cannot read.
   */
  typeCheck?: boolean;
  /**
   * Benchmark knob, not a user setting: `false` writes each watch line on its own instead of
   * gathering one event-loop turn's lines per watcher into one write, so that
   * `npm run bench:server` can measure what gathering saves. Default on. A running server
   * changes it with {@link RunningServer.tune}.
   */
  watchWriteCoalescing?: boolean;
}

/** The namespaces kube-apiserver's bootstrap controller keeps in existence. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** The defaults, as kube-apiserver's. */
export const DEFAULTS = {
  bindAddress: '127.0.0.1',
  bookmarkInterval: 60_000,
  bookmarkLead: 2_000,
  historyWindow: 75_000,
  historyCapacity: 102_400,
  compactionInterval: 300_000,
  minRequestTimeout: 1_800_000,
  tooLargeWait: 3_000,
  maxWatcherBufferBytes: 16 * 1024 * 1024,
} as const;

/** The watch settings of a server started with `opts`, the defaults filled in. */
export function watchSettings(opts: ServerOptions): WatchSettings {
  return {
    bookmarkIntervalMs: opts.bookmarkInterval ?? DEFAULTS.bookmarkInterval,
    bookmarkLeadMs: opts.bookmarkLead ?? DEFAULTS.bookmarkLead,
    minRequestTimeoutMs: opts.minRequestTimeout ?? DEFAULTS.minRequestTimeout,
    periodicBookmarks: !opts.noBookmarks,
    watchList: !opts.noWatchList,
    maxWatcherBufferBytes: opts.maxWatcherBufferBytes ?? DEFAULTS.maxWatcherBufferBytes,
    tooLargeWaitMs: opts.tooLargeWait ?? DEFAULTS.tooLargeWait,
  };
}
