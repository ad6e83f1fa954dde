import type { Clock } from '../../protocol/clock.js';
import { StatusError } from '../../protocol/status.js';
import { queryFlag } from '../http/query-flag.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import { resourcePrefix } from '../storage/stores/keys.js';
import type { Store } from '../storage/stores/types.js';
import type { Cacher } from '../watchcache/cacher.js';
import type { EventEncoder } from '../watchcache/event.js';
import type { WatchWriter } from '../watchcache/watch-sink.js';
import {
  CacheWatcher,
  type WatcherObserver,
  type WatchFilter,
  type WatchSink,
} from '../watchcache/watcher.js';
import { awaitRevision, parseResourceVersion } from './resource-version.js';

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
  store: Store;
  cacher: Cacher;
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

function invalid(field: string, message: string): StatusError {
  return StatusError.of('Invalid', `ListOptions.meta.k8s.io "" is invalid: ${field}: ${message}`, {
    kind: 'ListOptions',
    group: 'meta.k8s.io',
    causes: [{ reason: 'FieldValueForbidden', message, field }],
  });
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
  const { settings, cacher, clock, stats } = ctx;
  const rv = parseResourceVersion(query.resourceVersion);
  const bookmarks = queryFlag(query.allowWatchBookmarks) ?? false;
  const sendInitial = queryFlag(query.sendInitialEvents);
  const match = query.resourceVersionMatch || undefined;
  if (sendInitial !== undefined) {
    if (!settings.watchList) {
      throw invalid(
        'sendInitialEvents',
        'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      );
    }
    if (match !== 'NotOlderThan') {
      throw invalid(
        'resourceVersionMatch',
        'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
    }
    if (sendInitial && !bookmarks) {
      throw invalid(
        'allowWatchBookmarks',
        'Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true',
      );
    }
  } else if (match !== undefined) {
    throw invalid(
      'resourceVersionMatch',
      'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  }
  let timeoutMs: number;
  if (query.timeoutSeconds !== undefined && query.timeoutSeconds !== '') {
    if (!/^\d{1,9}$/.test(query.timeoutSeconds)) {
      throw StatusError.of('BadRequest', `invalid timeoutSeconds: ${JSON.stringify(query.timeoutSeconds)}`);
    }
    timeoutMs = Number(query.timeoutSeconds) * 1000;
    if (timeoutMs === 0) timeoutMs = settings.minRequestTimeoutMs * (1 + ctx.random());
  } else {
    timeoutMs = settings.minRequestTimeoutMs * (1 + ctx.random());
  }

  // Decide where the stream starts: the current state (RV unset or "0", or a
  // streaming list), or the history after RV.
  const withState = sendInitial === true || (sendInitial === undefined && (rv === undefined || rv === 0));
  if (rv === undefined && (withState || sendInitial === false)) {
    // Unset means "most recent": the cache must have caught up with the store.
    await cacher.waitForRevision(await ctx.store.currentRevision(), settings.tooLargeWaitMs);
  } else if (rv !== undefined) {
    await awaitRevision(cacher, stats, rv, settings.tooLargeWaitMs);
  }

  const cache = cacher.cacheFor(kind);
  const sink = openSink();
  stats.watchesStarted++;
  stats.openWatchers++;
  const startRevision = rv ?? cacher.latestRevision;
  const observer = ctx.observeWatch?.({ kind, resourceVersion: rv, allowBookmarks: bookmarks });
  const watcher = new CacheWatcher(filter, sink, withState ? cacher.latestRevision : startRevision, {
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
    latestRevision: () => cacher.latestRevision,
    observer,
    onClosed: (w) => {
      stats.openWatchers--;
      cache.unregister(w);
    },
  });

  if (withState) {
    const prefix = resourcePrefix(kind, filter.namespace);
    for (const key of cache.keys(prefix)) {
      const cached = cache.objects.get(key)!;
      if (filter.matches(cached.object)) watcher.deliverInitial(cached.object, cached.json);
      if (watcher.isClosed) return undefined;
    }
    watcher.advanceTo(cacher.latestRevision);
    // The end marker goes even when the server sends no periodic bookmarks.
    if (sendInitial === true) watcher.sendInitialEventsEnd(cacher.latestRevision);
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
