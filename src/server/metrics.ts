import type { ServerStats } from './stats.js';

/**
 * Prometheus metrics in text format with the same figures as
 * `/debug/watchmark/stats`. prom-client is loaded on the first scrape, and
 * every server gets its own registry so several servers in one process never
 * mix their counts.
 */
export class ServerMetrics {
  private readonly stats: ServerStats;
  private registry: import('prom-client').Registry | undefined;

  constructor(stats: ServerStats) {
    this.stats = stats;
  }

  /** The metrics text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    const registry = this.registry ?? (await this.build());
    return { contentType: registry.contentType, body: await registry.metrics() };
  }

  private async build(): Promise<import('prom-client').Registry> {
    const prom = await import('prom-client');
    const registry = new prom.Registry();
    const s = this.stats;
    const gauge = (name: string, help: string, read: () => number) =>
      new prom.Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    const byLabel = (name: string, help: string, label: string, read: () => Record<string, number>) =>
      new prom.Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        collect() {
          for (const [k, v] of Object.entries(read())) this.set({ [label]: k }, v);
        },
      });
    gauge('watchmark_open_watchers', 'Watch streams open now.', () => s.openWatchers);
    gauge('watchmark_watches_started_total', 'Watch requests that started a stream.', () => s.watchesStarted);
    byLabel(
      'watchmark_watch_events_sent_total',
      'Events written to watch streams, by type.',
      'type',
      () => s.eventsSent,
    );
    gauge(
      'watchmark_bookmarks_sent_total',
      'Periodic and pre-deadline bookmarks written.',
      () => s.bookmarksSent,
    );
    gauge(
      'watchmark_bookmarks_dropped_total',
      'Bookmarks skipped because a watcher was behind.',
      () => s.bookmarksDropped,
    );
    gauge(
      'watchmark_initial_events_end_sent_total',
      'Initial-events-end bookmarks written.',
      () => s.initialEventsEndSent,
    );
    gauge(
      'watchmark_expired_sent_total',
      '410 Expired answers (watch ERROR events and lists).',
      () => s.expiredSent,
    );
    gauge('watchmark_too_large_sent_total', '504 too large resource version answers.', () => s.tooLargeSent);
    byLabel('watchmark_lists_total', 'Lists served, by resourceVersion mode.', 'mode', () => s.lists);
    byLabel(
      'watchmark_list_objects_total',
      'Objects returned by lists, by mode.',
      'mode',
      () => s.listObjects,
    );
    byLabel(
      'watchmark_list_objects_examined_total',
      'Objects lists looked at (read from the store or visited in the cache), by mode.',
      'mode',
      () => s.listObjectsExamined,
    );
    gauge(
      'watchmark_init_events_examined_total',
      'History events looked at by watch starts (as apiserver_init_events_total).',
      () => s.initEventsExamined,
    );
    gauge('watchmark_init_events_sent_total', 'History events sent by watch starts.', () => s.initEventsSent);
    gauge(
      'watchmark_initial_state_events_sent_total',
      'Synthetic ADDED events of initial states.',
      () => s.initialStateEventsSent,
    );
    gauge(
      'watchmark_slow_watchers_closed_total',
      'Watchers closed for not keeping up.',
      () => s.slowWatchersClosed,
    );
    gauge(
      'watchmark_watch_bytes_written_total',
      'Bytes written to watch streams.',
      () => s.watchBytesWritten,
    );
    gauge(
      'watchmark_response_bytes_written_total',
      'Bytes written in other answers.',
      () => s.responseBytesWritten,
    );
    gauge('watchmark_writes_total', 'Writes that changed the store.', () => s.writes);
    gauge('watchmark_requests_total', 'Requests answered.', () => s.requests);
    gauge('watchmark_request_errors_total', 'Requests answered with an error.', () => s.requestErrors);
    this.registry = registry;
    return registry;
  }
}
