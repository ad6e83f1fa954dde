import type { WatchEventType } from '../../protocol/events.js';

/** Why a (re)list happened. */
export type ListCause = 'initial' | 'expired' | 'tooLarge' | 'error';

/**
 * Why a watch stream ended: its timeout, a clean close by the server before it,
 * a connection reset or unexpected EOF of a watch that was working (`reset`,
 * resumed at once as client-go does), an error, the idle timeout, or 410.
 */
export type WatchEndCause = 'timeout' | 'serverClose' | 'reset' | 'error' | 'idle' | 'expired';

/**
 * A watcher's counters, readable at any time (`watcher.metrics`) and
 * exportable to a prom-client registry with {@link registerWatcherMetrics}.
 */
export interface WatcherMetrics {
  /**
   * Lists (initial sync or relist), by cause: one per request for an initial
   * state that got an answer or an error, in both modes: a paginated list
   * (all its pages; the full list that replaces it when a continue token
   * expires is the same list) or a streaming list's watch request, opened or
   * refused. A refused list retried counts again.
   */
  lists: Record<ListCause, number>;
  /** List pages fetched (a paginated list is several). */
  pages: number;
  /** Objects received by lists. */
  listedObjects: number;
  /** Watch requests that opened a stream. */
  watchesStarted: number;
  /** Watch streams ended, by cause. */
  watchEnds: Record<WatchEndCause, number>;
  /** Events received, by type. */
  events: Record<WatchEventType, number>;
  /** Bookmarks received (also counted in events.BOOKMARK). */
  bookmarks: number;
  /** Watch restarts that resumed from the last resourceVersion instead of relisting. */
  resumes: number;
  /** Failures reported (and retried). */
  errors: number;
  /** Bytes read from the server. */
  bytesRead: number;
  /** The last resourceVersion seen ("" before the first sync). */
  resourceVersion: string;
  /** Clock time of the last event or bookmark (0 before any). */
  lastEventAt: number;
}

/** A zeroed {@link WatcherMetrics}. */
export function newWatcherMetrics(): WatcherMetrics {
  return {
    lists: { initial: 0, expired: 0, tooLarge: 0, error: 0 },
    pages: 0,
    listedObjects: 0,
    watchesStarted: 0,
    watchEnds: { timeout: 0, serverClose: 0, reset: 0, error: 0, idle: 0, expired: 0 },
    events: { ADDED: 0, MODIFIED: 0, DELETED: 0, BOOKMARK: 0, ERROR: 0 },
    bookmarks: 0,
    resumes: 0,
    errors: 0,
    bytesRead: 0,
    resourceVersion: '',
    lastEventAt: 0,
  };
}

/** The subset of prom-client's Registry this needs (so prom-client stays optional). */
export interface MetricsRegistry {
  registerMetric(metric: unknown): void;
}

/**
 * Exposes a watcher's counters in a prom-client registry, labelled by
 * `name`. prom-client is imported on call, never by the library itself.
 */
export async function registerWatcherMetrics(
  registry: MetricsRegistry,
  name: string,
  read: () => WatcherMetrics,
  now: () => number = Date.now,
): Promise<void> {
  const prom = await import('prom-client');
  const reg = registry as unknown as import('prom-client').Registry;
  const gauge = (
    metric: string,
    help: string,
    labelNames: string[],
    fill: (g: import('prom-client').Gauge) => void,
  ) =>
    new prom.Gauge({
      name: metric,
      help,
      labelNames: ['watcher', ...labelNames],
      registers: [reg],
      collect() {
        fill(this);
      },
    });
  gauge('watchmark_client_lists_total', 'Lists sent (paginated or streaming), by cause.', ['cause'], (g) => {
    for (const [cause, v] of Object.entries(read().lists)) g.set({ watcher: name, cause }, v);
  });
  gauge('watchmark_client_list_pages_total', 'List pages fetched.', [], (g) =>
    g.set({ watcher: name }, read().pages),
  );
  gauge('watchmark_client_watches_started_total', 'Watch streams opened.', [], (g) =>
    g.set({ watcher: name }, read().watchesStarted),
  );
  gauge('watchmark_client_watch_ends_total', 'Watch streams ended, by cause.', ['cause'], (g) => {
    for (const [cause, v] of Object.entries(read().watchEnds)) g.set({ watcher: name, cause }, v);
  });
  gauge('watchmark_client_events_total', 'Watch events received, by type.', ['type'], (g) => {
    for (const [type, v] of Object.entries(read().events)) g.set({ watcher: name, type }, v);
  });
  gauge('watchmark_client_resumes_total', 'Watch restarts that avoided a relist.', [], (g) =>
    g.set({ watcher: name }, read().resumes),
  );
  gauge('watchmark_client_errors_total', 'Failures reported and retried.', [], (g) =>
    g.set({ watcher: name }, read().errors),
  );
  gauge('watchmark_client_bytes_read_total', 'Bytes read from the server.', [], (g) =>
    g.set({ watcher: name }, read().bytesRead),
  );
  gauge('watchmark_client_seconds_since_last_event', 'Seconds since the last event or bookmark.', [], (g) => {
    const m = read();
    g.set({ watcher: name }, m.lastEventAt ? (now() - m.lastEventAt) / 1000 : -1);
  });
}
