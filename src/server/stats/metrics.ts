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
    // Every `*_total` is a counter, as Prometheus naming requires: rate() and increase()
    // treat a drop in a counter as a restart, and some tools refuse rate() of a gauge.
    // ServerStats already holds the running totals, so each scrape copies them in
    // (reset, then add the total) instead of counting twice.
    const counter = (name: string, help: string, read: () => number) =>
      new prom.Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    const counterBy = (name: string, help: string, label: string, read: () => Record<string, number>) =>
      new prom.Counter({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        collect() {
          this.reset();
          for (const [k, v] of Object.entries(read())) this.inc({ [label]: k }, v);
        },
      });
    gauge('watchmark_open_watchers', 'Watch streams open now.', () => s.openWatchers);
    counter(
      'watchmark_watches_started_total',
      'Watch requests that started a stream.',
      () => s.watchesStarted,
    );
    counterBy(
      'watchmark_watch_events_sent_total',
      'Events written to watch streams, by type.',
      'type',
      () => s.eventsSent,
    );
    counter(
      'watchmark_bookmarks_sent_total',
      'Periodic and pre-deadline bookmarks written.',
      () => s.bookmarksSent,
    );
    counter(
      'watchmark_bookmarks_dropped_total',
      'Bookmarks skipped because a watcher was behind.',
      () => s.bookmarksDropped,
    );
    counter(
      'watchmark_initial_events_end_sent_total',
      'Initial-events-end bookmarks written.',
      () => s.initialEventsEndSent,
    );
    counter(
      'watchmark_expired_sent_total',
      '410 Expired answers (watch ERROR events and lists).',
      () => s.expiredSent,
    );
    counter(
      'watchmark_too_large_sent_total',
      '504 too large resource version answers.',
      () => s.tooLargeSent,
    );
    counterBy('watchmark_lists_total', 'Lists served, by resourceVersion mode.', 'mode', () => s.lists);
    counterBy(
      'watchmark_list_objects_total',
      'Objects returned by lists, by mode.',
      'mode',
      () => s.listObjects,
    );
    counterBy(
      'watchmark_list_objects_examined_total',
      'Objects lists looked at (read from the store or visited in the cache), by mode.',
      'mode',
      () => s.listObjectsExamined,
    );
    counter(
      'watchmark_init_events_examined_total',
      'History events looked at by watch starts (as apiserver_init_events_total).',
      () => s.initEventsExamined,
    );
    counter(
      'watchmark_init_events_sent_total',
      'History events sent by watch starts.',
      () => s.initEventsSent,
    );
    counter(
      'watchmark_initial_state_events_sent_total',
      'Synthetic ADDED events of initial states.',
      () => s.initialStateEventsSent,
    );
    counter(
      'watchmark_slow_watchers_closed_total',
      'Watchers closed for not keeping up.',
      () => s.slowWatchersClosed,
    );
    counter(
      'watchmark_watch_bytes_written_total',
      'Bytes written to watch streams.',
      () => s.watchBytesWritten,
    );
    counter(
      'watchmark_watch_lines_written_total',
      'Watch lines handed to watch responses.',
      () => s.watchLinesWritten,
    );
    counter(
      'watchmark_watch_writes_total',
      'Response writes the watch lines went out in.',
      () => s.watchWrites,
    );
    counter(
      'watchmark_response_bytes_written_total',
      'Bytes written in other answers.',
      () => s.responseBytesWritten,
    );
    counter('watchmark_writes_total', 'Writes that changed the store.', () => s.writes);
    counter('watchmark_requests_total', 'Requests answered.', () => s.requests);
    counter('watchmark_request_errors_total', 'Requests answered with an error.', () => s.requestErrors);
    this.registry = registry;
    return registry;
  }
}
