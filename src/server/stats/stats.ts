import type { WatchEventType } from '../../protocol/events.js';

/** How a list was served, by its resourceVersion semantics. */
export type ListMode = 'consistent' | 'cache' | 'notOlderThan' | 'exact' | 'continue';

/**
 * The server's exact counters, served as JSON at `/debug/watchmark/stats` and
 * as Prometheus metrics. The bookmark study reads these, so every increment
 * sits next to the action it counts.
 */
export interface ServerStats {
  /** Watch streams open now. */
  openWatchers: number;
  /** Watch requests that started a stream. */
  watchesStarted: number;
  /** Events written to watch streams, by type (BOOKMARK includes initial-events-end markers). */
  eventsSent: Record<WatchEventType, number>;
  /** Periodic and pre-deadline bookmarks written. */
  bookmarksSent: number;
  /** Initial-events-end bookmarks that closed a streaming list's initial state. */
  initialEventsEndSent: number;
  /** 410 answers: ERROR events on watches plus 410 list/get answers. */
  expiredSent: number;
  /** 504 "Too large resource version" answers. */
  tooLargeSent: number;
  /** Lists served, by mode. */
  lists: Record<ListMode, number>;
  /** Objects returned by lists, by mode. */
  listObjects: Record<ListMode, number>;
  /**
   * Objects lists looked at to find those, by mode: read from the store, or
   * visited in the cache (apiserver_cache_list_fetched_objects_total). A
   * `spec.nodeName=` list from the cache visits only that node's pods.
   */
  listObjectsExamined: Record<ListMode, number>;
  /**
   * History events a watch start looked at: every event after the start
   * resourceVersion, whatever the watcher's selector (apiserver_init_events_total).
   */
  initEventsExamined: number;
  /** Of those, the events actually sent to the new watcher. */
  initEventsSent: number;
  /** Synthetic ADDED events for the initial state (RV unset/"0", streaming lists). */
  initialStateEventsSent: number;
  /** Watchers closed because they could not keep up. */
  slowWatchersClosed: number;
  /** Bookmarks skipped because the watcher's buffer was full. */
  bookmarksDropped: number;
  /** Bytes written to watch streams. */
  watchBytesWritten: number;
  /** Watch lines (events and bookmarks) handed to watch responses. */
  watchLinesWritten: number;
  /** Response writes those lines went out in: lines per write is what gathering a turn's lines saves. */
  watchWrites: number;
  /** Bytes written in non-watch answers. */
  responseBytesWritten: number;
  /** Writes (create, update, patch, delete) that changed the store. */
  writes: number;
  /** Requests answered, and how many were errors (status >= 400). */
  requests: number;
  requestErrors: number;
}

/** A zeroed {@link ServerStats}. */
export function newStats(): ServerStats {
  const modes = (): Record<ListMode, number> => ({
    consistent: 0,
    cache: 0,
    notOlderThan: 0,
    exact: 0,
    continue: 0,
  });
  return {
    openWatchers: 0,
    watchesStarted: 0,
    eventsSent: { ADDED: 0, MODIFIED: 0, DELETED: 0, BOOKMARK: 0, ERROR: 0 },
    bookmarksSent: 0,
    initialEventsEndSent: 0,
    expiredSent: 0,
    tooLargeSent: 0,
    lists: modes(),
    listObjects: modes(),
    listObjectsExamined: modes(),
    initEventsExamined: 0,
    initEventsSent: 0,
    initialStateEventsSent: 0,
    slowWatchersClosed: 0,
    bookmarksDropped: 0,
    watchBytesWritten: 0,
    watchLinesWritten: 0,
    watchWrites: 0,
    responseBytesWritten: 0,
    writes: 0,
    requests: 0,
    requestErrors: 0,
  };
}
