import type { Clock } from '../../protocol/clock.js';
import { StatusError } from '../../protocol/status.js';
import type { CacheDelegator } from '../cache/delegator.js';
import type { EventEncoder } from '../cache/event.js';
import type { WatchWriter } from '../cache/watch-sink.js';
import { CacheWatcher, type WatcherObserver, type WatchFilter, type WatchSink } from '../cache/watcher.js';
import { queryFlag } from '../http/query-flag.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import {
  forbidden,
  invalidListOptions,
  type ListOptionsError,
  notSupported,
  parseQueryInt64,
  parseResourceVersion,
} from './resource-version.js';

/** Watch timing knobs of the server (all in ms). */
export interface WatchSettings {
  bookmarkIntervalMs: number;
  bookmarkLeadMs: number;
  /** Without `timeoutSeconds`, a watch lasts a random time in [min, 2 x min). */
  minRequestTimeoutMs: number;
  periodicBookmarks: boolean;
  watchList: boolean;
  maxWatcherBufferBytes: number;
  tooLargeWaitMs: number;
}

/** What the watch service needs from the server. */
export interface WatchContext {
  /** The watch cache, through the delegator (cache/delegator.ts). */
  data: CacheDelegator;
  clock: Clock;
  stats: ServerStats;
  settings: WatchSettings;
  /** Opens watch responses: this server's, so its counters and settings are its own. */
  watchWriter: WatchWriter;
  /** Random source in [0, 1), injectable for tests. */
  random: () => number;
  /** Returns an observer for a watch about to start (the live UI sets it per request); optional. */
  observeWatch?: (start: WatchStart) => WatcherObserver | undefined;
}

/** What a starting watch asked for, as given to {@link WatchContext.observeWatch}. */
export interface WatchStart {
  kind: ResourceKind;
  /** The resourceVersion asked for (undefined when unset). */
  resourceVersion: number | undefined;
  allowBookmarks: boolean;
}

/** The watch-relevant query parameters. */
export interface WatchQuery {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  allowWatchBookmarks?: string;
  sendInitialEvents?: string;
  timeoutSeconds?: string;
}

/**
 * Starts a watch as kube-apiserver's cacher does. Everything that can fail
 * before the stream starts (bad parameters, 504 for a future
 * resourceVersion) throws a StatusError; after `openSink()` the rest is
 * synchronous, so no event can slip between the initial events and the
 * watcher's registration. A resourceVersion older than the history becomes
 * an ERROR event with a 410 Expired Status. `bookmarkType` is the kind and
 * apiVersion bookmarks carry when `encoder` sends another type than `kind`'s
 * (a PartialObjectMetadata watch).
 */
export async function serveWatch(
  ctx: WatchContext,
  kind: ResourceKind,
  filter: WatchFilter,
  query: WatchQuery,
  encoder: EventEncoder,
  openSink: () => WatchSink,
  bookmarkType?: { kind: string; apiVersion: string },
): Promise<CacheWatcher | undefined> {
  const { settings, data, clock, stats } = ctx;
  const bookmarks = queryFlag(query.allowWatchBookmarks) ?? false;
  // The parameter codec parses timeoutSeconds first (a 400 with Go's ParseInt error).
  const timeoutSeconds =
    query.timeoutSeconds !== undefined && query.timeoutSeconds !== ''
      ? parseQueryInt64(query.timeoutSeconds)
      : undefined;
  let sendInitial = queryFlag(query.sendInitialEvents);
  let match = query.resourceVersionMatch || undefined;
  // With WatchList on, a legacy watch (resourceVersion unset or "0", neither
  // sendInitialEvents nor resourceVersionMatch) is a streaming list
  // (k8s.io/apimachinery/pkg/apis/meta/internalversion/defaults.go `SetListOptionsDefaults`):
  // the same initial ADDED events, and the initial-events-end bookmark when
  // bookmarks are allowed.
  if (
    settings.watchList &&
    sendInitial === undefined &&
    match === undefined &&
    (query.resourceVersion === undefined || query.resourceVersion === '' || query.resourceVersion === '0')
  ) {
    sendInitial = true;
    match = 'NotOlderThan';
  }
  // validation.go `validateWatchOptions`: every error at once. Since 1.34
  // sendInitialEvents no longer requires allowWatchBookmarks.
  const errors: ListOptionsError[] = [];
  if (sendInitial !== undefined) {
    if (match !== 'NotOlderThan') {
      errors.push(
        forbidden(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        ),
      );
    }
    if (!settings.watchList) {
      errors.push(
        forbidden(
          'sendInitialEvents',
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        ),
      );
    }
  }
  if (match !== undefined) {
    if (sendInitial === undefined) {
      errors.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ),
      );
    }
    if (match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
  }
  if (errors.length > 0) throw invalidListOptions(errors);
  // The storage versioner parses the resourceVersion (a bare 500 when it cannot).
  const rv = parseResourceVersion(query.resourceVersion);

  if (timeoutSeconds !== undefined && timeoutSeconds < 0) {
    // A negative timeout is a deadline already past (handlers/watch.go): the
    // 200 stream ends before any event.
    openSink().end();
    return undefined;
  }
  let timeoutMs: number;
  if (timeoutSeconds !== undefined && timeoutSeconds !== 0) {
    timeoutMs = timeoutSeconds * 1000;
  } else {
    timeoutMs = settings.minRequestTimeoutMs * (1 + ctx.random());
  }

  // Decide where the stream starts (data.go `Watch`): a streaming list
  // sends the current state first; otherwise the stream starts after RV, or,
  // with sendInitialEvents=false and RV unset or "0", at the newest revision.
  // (Without the WatchList gate, no defaulting: a legacy watch still starts with the state.)
  const withState = sendInitial === true || (sendInitial === undefined && (rv === undefined || rv === 0));
  let tooLarge: StatusError | undefined;
  if (rv === undefined && (withState || sendInitial === false)) {
    // Unset means "most recent": the cache must have caught up with the store.
    await data.awaitConsistent();
  } else if (rv !== undefined && rv > 0 && withState) {
    // Only a streaming list waits for the cache to reach RV; one it does not
    // reach in time is an ERROR event in a 200 stream (data.go
    // `waitUntilWatchCacheFreshAndForceAllEvents`, then `newErrWatcher`).
    // Any other watch from a future RV simply waits for events after it.
    try {
      await data.awaitRevision(rv);
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      tooLarge = err;
    }
  }

  const cache = data.cacheFor(kind);
  const sink = openSink();
  stats.watchesStarted++;
  stats.openWatchers++;
  const startRevision = rv === undefined || (rv === 0 && sendInitial === false) ? data.latestRevision : rv;
  const observer = ctx.observeWatch?.({ kind, resourceVersion: rv, allowBookmarks: bookmarks });
  const watcher = new CacheWatcher(filter, sink, withState ? data.latestRevision : startRevision, {
    clock,
    stats,
    encoder,
    // A transformed watch transforms its bookmarks too (handlers/response.go `watchEmbeddedEncoder`).
    kind: bookmarkType?.kind ?? kind.kind,
    apiVersion: bookmarkType?.apiVersion ?? apiVersionOf(kind),
    allowBookmarks: bookmarks,
    periodicBookmarks: settings.periodicBookmarks,
    bookmarkIntervalMs: settings.bookmarkIntervalMs,
    bookmarkLeadMs: settings.bookmarkLeadMs,
    deadline: clock.now() + timeoutMs,
    maxBufferedBytes: settings.maxWatcherBufferBytes,
    latestRevision: () => data.latestRevision,
    observer,
    onClosed: (w) => {
      stats.openWatchers--;
      cache.unregister(w);
    },
  });
  if (tooLarge) {
    watcher.fail(tooLarge.status);
    return undefined;
  }

  if (withState) {
    const prefix = data.prefixOf(kind, filter.namespace);
    for (const key of cache.keys(prefix)) {
      const cached = cache.objects.get(key)!;
      if (filter.matches(cached.object)) watcher.deliverInitial(cached.object, cached.json);
      if (watcher.isClosed) return undefined;
    }
    watcher.advanceTo(data.latestRevision);
    // The end marker goes to clients that allow bookmarks, even when the
    // server sends no periodic ones (data.go `getBookmarkAfterResourceVersionLockedFunc`).
    if (bookmarks && sendInitial === true) watcher.sendInitialEventsEnd(data.latestRevision);
    cache.register(watcher);
  } else {
    const expired = cache.watchFrom(watcher, startRevision);
    if (expired) {
      stats.expiredSent++;
      watcher.fail(expired);
      return undefined;
    }
  }
  if (watcher.isClosed) return undefined;
  observer?.started(watcher.revision);
  watcher.startTimers();
  return watcher;
}
