import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../protocol/clock.js';
import type { Cacher } from '../cache/cacher.js';
import type { WatcherObserver } from '../cache/watcher.js';
import type { WatchStart } from '../handlers/watch.js';
import type { Filter, ResourceApiRequest } from '../http/api-request.js';
import { queryFlag } from '../http/query-flag.js';
import type { ResourceRequest } from '../http/request-info.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import { UiRoutes, type UiRoutesOptions } from './routes.js';
import { type HistoryView, UiStream } from './stream.js';
import { type ClientRequest, WatchTimeline } from './timeline.js';

/** Options of {@link LiveUi}: the routes' own (authentication, fault injections) and the state to follow. */
export interface LiveUiOptions extends Omit<UiRoutesOptions, 'stream' | 'countBytes'> {
  clock: Clock;
  stats: ServerStats;
  cacher: Cacher;
  /** Lanes drawn in detail (default 100: the garbage collector alone watches 53 resources); the rest are summed with a count. */
  laneLimit?: number;
  /** How often the page gets a frame (default 100 ms). */
  frameIntervalMs?: number;
}

/**
 * The live view at `/ui`: follows every watch and list of the server as
 * lanes ({@link WatchTimeline}), streams them to pages ({@link UiStream}) and
 * serves the page and its buttons ({@link UiRoutes}). The API server's chain lets
 * {@link door} answer the view's own paths and has it {@link observe} each resource request.
 */
export class LiveUi {
  readonly timeline: WatchTimeline;
  readonly stream: UiStream;
  readonly routes: UiRoutes;
  private readonly cacher: Cacher;

  constructor(opts: LiveUiOptions) {
    this.cacher = opts.cacher;
    this.timeline = new WatchTimeline({
      laneLimit: opts.laneLimit ?? 100,
      idleLaneMs: 5 * 60_000,
      now: () => opts.clock.now(),
    });
    this.stream = new UiStream({
      clock: opts.clock,
      stats: opts.stats,
      timeline: this.timeline,
      history: () => this.history(),
      intervalMs: opts.frameIntervalMs ?? 100,
      maxBufferedBytes: 4 * 1024 * 1024,
    });
    this.routes = new UiRoutes({
      open: opts.open,
      secure: opts.secure,
      authenticate: opts.authenticate,
      authenticateToken: opts.authenticateToken,
      compact: opts.compact,
      dropWatches: opts.dropWatches,
      stream: this.stream,
      countBytes: (bytes) => {
        opts.stats.responseBytesWritten += bytes;
      },
    });
  }

  /** Whether `path` is the UI's (`/ui` or below). */
  static owns(path: string): boolean {
    return path === '/ui' || path.startsWith('/ui/');
  }

  /** Records a compaction (from the page, the debug route, the timer-less demo) for the page's list of happenings. */
  noteCompaction(revision: number): void {
    this.stream.note({
      kind: 'compact',
      rv: revision,
      text: `compacted the history at resourceVersion ${revision}`,
    });
  }

  /** Records that every watch was cut. */
  noteDrop(count: number): void {
    this.stream.note({
      kind: 'drop',
      rv: this.cacher.latestRevision,
      text: `dropped ${count} watch streams at resourceVersion ${this.cacher.latestRevision}`,
    });
  }

  /**
   * The handler chain's side door (http/handler-chain.ts): the view's own paths are answered
   * here, before authentication (a login link, or the token once, for a session cookie).
   */
  readonly door: Filter = (request, next) =>
    LiveUi.owns(request.path)
      ? this.routes.handle(request.req, request.res, request.path, request.query)
      : next(request);

  /**
   * Follows one resource request: a LIST goes on its client's lane once answered; the hook
   * returned puts its watch, if it is one, there as it starts (the handlers' `observeWatch`).
   */
  observe(request: ResourceApiRequest): (start: WatchStart) => WatcherObserver {
    const { req, res, info, query } = request;
    if (isList(request.method, info, query)) this.observeList(req, res, info, query);
    return this.observeWatch(req, info, query);
  }

  /** The `observeWatch` hook for one request: its watch goes on the lane of its client. */
  observeWatch(req: IncomingMessage, info: ResourceRequest, query: URLSearchParams) {
    return (start: WatchStart): WatcherObserver =>
      this.timeline.watch(clientOf(req, info, query), start.allowBookmarks, start.resourceVersion);
  }

  /** Records a LIST once it has been answered with 200 (a relist when its client's watch got a 410). */
  observeList(
    req: IncomingMessage,
    res: ServerResponse,
    info: ResourceRequest,
    query: URLSearchParams,
  ): void {
    // A paginated list is one list: its later pages (with `continue`) add nothing to the lane.
    if (query.get('continue')) return;
    const client = clientOf(req, info, query);
    res.once('finish', () => {
      if (res.statusCode === 200) this.timeline.listed(client, this.cacher.latestRevision);
    });
  }

  /** Ends every page's stream. */
  close(): void {
    this.stream.close();
  }

  private history(): HistoryView {
    const latest = this.cacher.latestRevision;
    const oldestByResource: Record<string, number> = {};
    let oldest = latest;
    for (const cache of this.cacher.all()) {
      const o = cache.oldestWatchableRevision;
      if (cache.watchers.size > 0) oldestByResource[resourceName(cache.kind)] = o;
    }
    const watched = Object.values(oldestByResource);
    if (watched.length > 0) oldest = Math.min(...watched);
    else for (const cache of this.cacher.all()) oldest = Math.min(oldest, cache.oldestWatchableRevision);
    return { latest, oldest, oldestByResource };
  }
}

/** The identity a request's lane is keyed by. */
function clientOf(req: IncomingMessage, info: ResourceRequest, query: URLSearchParams): ClientRequest {
  let fieldSelector = query.get('fieldSelector') || undefined;
  if (info.name !== undefined) {
    const byName = `metadata.name=${info.name}`;
    fieldSelector = fieldSelector ? `${fieldSelector},${byName}` : byName;
  }
  return {
    resource: resourceName(info.kind),
    namespace: info.kind.namespaced ? info.namespace : undefined,
    labelSelector: query.get('labelSelector') || undefined,
    fieldSelector,
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 200),
    address: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
  };
}

/** Whether a resource request is a LIST (GET of a collection, not a watch). */
export function isList(method: string, info: ResourceRequest, query: URLSearchParams): boolean {
  if (method !== 'GET' || info.name !== undefined || info.watchPath || info.subresource !== undefined)
    return false;
  return queryFlag(query.get('watch')) !== true;
}

/** A resource as kubectl names it: `pods`, `deployments.apps`. */
function resourceName(kind: Pick<ResourceKind, 'group' | 'plural'>): string {
  return kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
}
