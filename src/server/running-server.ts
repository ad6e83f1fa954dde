/**
 * What `startServer()` returns: the running server's address, credentials and the actions a
 * program or test takes on it (compaction, dropped watches, faults, snapshot and restore).
 */
import type { ServerFaults } from './faults/server-faults.js';
import type { ServerSnapshot } from './snapshots/snapshots.js';
import type { ServerStats } from './stats/stats.js';
import type { Store } from './stores/types.js';

export type { ServerSnapshot } from './snapshots/snapshots.js';

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
  /** Fault injection: failing requests, stalling watches, pausing the server. */
  readonly faults: ServerFaults;
  /**
   * The whole state (every object, resourceVersions and history included); memory store
   * only: over etcd it throws (take an etcd snapshot instead).
   */
  snapshot(): Promise<ServerSnapshot>;
  /**
   * Puts the state of `snapshot` back, as a kube-apiserver restarted over a restored etcd:
   * the same URL and credentials; every open watch ends; the watch caches, the custom
   * resources served and the namespaces are those of the snapshot; the next write gets the
   * snapshot's revision + 1. Memory store only.
   */
  restore(snapshot: ServerSnapshot): Promise<void>;
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
