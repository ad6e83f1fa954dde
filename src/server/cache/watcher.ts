import type { Clock, TimerHandle } from '../../protocol/clock.js';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type WatchEventType,
} from '../../protocol/events.js';
import type { Status } from '../../protocol/status.js';
import type { ServerStats } from '../stats/stats.js';
import type { CacheEvent, EventEncoder } from './event.js';

/** Where a watcher's bytes go: in the server, an HTTP response. */
export interface WatchSink {
  /** Queues bytes for the client. */
  write(chunk: Buffer): void;
  /** Bytes queued and not yet handed to the socket. */
  readonly bufferedBytes: number;
  /** Ends the stream cleanly (the watch timed out, or the server stops). */
  end(): void;
  /** Cuts the stream mid-flight, as a dropped connection would. */
  destroy(): void;
}

/**
 * Which objects a watcher wants. The handler builds it from the request's
 * namespace and selectors; `index` names the exact-match value that lets the
 * cache dispatch an event only to the watchers it can concern.
 */
export interface WatchFilter {
  namespace?: string;
  index?: { field: DispatchField; value: string };
  /**
   * What the field selector pins exactly (`metadata.namespace=`, `metadata.name=`): a list
   * reads only that namespace's keys, or that one object's key (registry/generic/registry/store.go
   * `ListPredicate`, `MatchesSingleNamespace` and `MatchesSingle`).
   */
  exact?: { namespace?: string; name?: string };
  matches(object: KubeObject): boolean;
  /** Whether the filter selects everything in its namespace (no label or field selector). */
  everything: boolean;
}

/** The fields watchers are indexed by. */
export type DispatchField = 'metadata.namespace' | 'metadata.name' | 'spec.nodeName';

/** Timing and limits of one watcher. */
export interface WatcherOptions {
  clock: Clock;
  stats: ServerStats;
  encoder: EventEncoder;
  /** `kind`/`apiVersion` for bookmark objects. */
  kind: string;
  apiVersion: string;
  allowBookmarks: boolean;
  /** False when the server runs with `--no-bookmarks`: only the initial-events-end marker is sent. */
  periodicBookmarks: boolean;
  bookmarkIntervalMs: number;
  bookmarkLeadMs: number;
  /** When the watch ends (clock ms). */
  deadline: number;
  /** Bytes a client may leave unread before it is closed as too slow. */
  maxBufferedBytes: number;
  /** The latest resourceVersion the server knows (global), for bookmarks. */
  latestRevision(): number;
  /** Called once when the watcher is gone, whatever the cause. */
  onClosed(watcher: CacheWatcher): void;
  /** Told of every line written and of the end (the live UI's timeline); optional. */
  observer?: WatcherObserver;
}

/** Why a watcher ended. */
export type WatcherCloseReason = 'timeout' | 'shutdown' | 'dropped' | 'slow' | 'error' | 'client';

/**
 * Follows one watcher's stream as it is written, for the live UI. Called
 * synchronously on the write path, so implementations only record.
 */
export interface WatcherObserver {
  /** A line of `type` went to the client; `revision` is the resourceVersion it carries (0 when none). */
  written(type: WatchEventType, revision: number, bytes: number): void;
  /** The watch ended with an ERROR event carrying `status` (410 Expired, most often). */
  failed(status: Status): void;
  /** The watcher was registered for live events, resuming from `revision`. */
  started(revision: number): void;
  /** The watcher ended. */
  closed(reason: WatcherCloseReason): void;
}

/**
 * One open watch: it converts cache events for its filter (ADDED when an
 * object starts matching, DELETED when it stops), writes them, sends bookmarks
 * on time, and closes at its deadline or when it cannot keep up.
 */
export class CacheWatcher {
  readonly filter: WatchFilter;
  private readonly sink: WatchSink;
  private readonly opts: WatcherOptions;
  /** The newest resourceVersion this client has been sent (events and bookmarks). */
  private sentRevision: number;
  /**
   * Events at or below this resourceVersion are never sent: a watch from a
   * resourceVersion the server has not reached yet waits for newer events
   * (cache_watcher.go `process` sends only events newer than its start).
   */
  private readonly floor: number;
  private deadlineTimer: TimerHandle | undefined;
  private bookmarkTimer: TimerHandle | undefined;
  private nextBookmarkAt = 0;
  private preDeadlineDone = false;
  private closed = false;

  constructor(filter: WatchFilter, sink: WatchSink, startRevision: number, opts: WatcherOptions) {
    this.filter = filter;
    this.sink = sink;
    this.opts = opts;
    this.sentRevision = startRevision;
    this.floor = startRevision;
  }

  /** True once the watcher has ended. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** The resourceVersion the client could resume from. */
  get revision(): number {
    return this.sentRevision;
  }

  /** Starts the deadline and bookmark timers; call after the initial events are written. */
  startTimers(): void {
    const { clock, deadline } = this.opts;
    this.deadlineTimer = clock.setTimeout(() => this.close('timeout'), deadline - clock.now());
    if (this.opts.allowBookmarks && this.opts.periodicBookmarks) {
      this.nextBookmarkAt = clock.now() + this.opts.bookmarkIntervalMs;
      this.scheduleBookmark();
    }
  }

  /**
   * Sends `event` if the filter cares about it; returns whether it was sent.
   * Selector transitions follow cache_watcher.go: a modified object that
   * starts matching is ADDED, one that stops matching is DELETED.
   */
  deliver(event: CacheEvent): boolean {
    if (this.closed || event.revision <= this.floor) return false;
    const type = this.typeFor(event);
    if (type === undefined) {
      return false;
    }
    this.write(event.line(type, this.opts.encoder), type, event.revision);
    if (event.revision > this.sentRevision) this.sentRevision = event.revision;
    return true;
  }

  /** Writes a synthetic ADDED for an object of the initial state. */
  deliverInitial(object: KubeObject, objectJson: string): void {
    this.write(this.opts.encoder.encode('ADDED', object, objectJson), 'ADDED', 0);
    this.opts.stats.initialStateEventsSent++;
  }

  /** Sets the resourceVersion the client is known to have (the snapshot it was given). */
  advanceTo(revision: number): void {
    if (revision > this.sentRevision) this.sentRevision = revision;
  }

  /** Writes the BOOKMARK that ends a streaming list's initial events (KEP-3157). */
  sendInitialEventsEnd(revision: number): void {
    this.advanceTo(revision);
    this.write(this.bookmarkLine(String(revision), true), 'BOOKMARK', revision);
    this.opts.stats.initialEventsEndSent++;
  }

  /** Writes an ERROR event with `status`, then ends the stream. */
  fail(status: Status): void {
    this.opts.observer?.failed(status);
    this.write(this.framed(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`), 'ERROR', 0);
    this.close('error');
  }

  /**
   * Ends the watch. `timeout`/`shutdown` end the stream cleanly (no terminal
   * event, as kube-apiserver); `dropped` cuts it as a broken connection would.
   */
  close(reason: WatcherCloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.deadlineTimer?.cancel();
    this.bookmarkTimer?.cancel();
    if (reason === 'dropped' || reason === 'slow') this.sink.destroy();
    else if (reason !== 'client') this.sink.end();
    if (reason === 'slow') this.opts.stats.slowWatchersClosed++;
    this.opts.observer?.closed(reason);
    this.opts.onClosed(this);
  }

  private typeFor(event: CacheEvent): WatchEventType | undefined {
    const matches = (o: KubeObject | undefined) => o !== undefined && this.filter.matches(o);
    switch (event.type) {
      case 'ADDED':
        return matches(event.object) ? 'ADDED' : undefined;
      case 'DELETED':
        return matches(event.object) ? 'DELETED' : undefined;
      case 'MODIFIED': {
        const now = matches(event.object);
        const before = matches(event.prevObject);
        if (now) return before ? 'MODIFIED' : 'ADDED';
        return before ? 'DELETED' : undefined;
      }
    }
  }

  private write(line: Buffer, type: WatchEventType, revision: number): void {
    const { stats } = this.opts;
    this.sink.write(line);
    stats.eventsSent[type]++;
    stats.watchBytesWritten += line.length;
    this.opts.observer?.written(type, revision, line.length);
    // A client that leaves this much unread is closed rather than allowed to
    // grow server memory without bound; it will resume from its last RV.
    if (this.sink.bufferedBytes > this.opts.maxBufferedBytes) this.close('slow');
  }

  private bookmarkLine(resourceVersion: string, initialEventsEnd = false): Buffer {
    const metadata: Record<string, unknown> = { resourceVersion };
    if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
    const object = { kind: this.opts.kind, apiVersion: this.opts.apiVersion, metadata };
    return this.framed(`{"type":"BOOKMARK","object":${JSON.stringify(object)}}\n`);
  }

  /** A line the watcher builds itself, in the encoder's wire form (a protobuf frame, say). */
  private framed(jsonLine: string): Buffer {
    const line = Buffer.from(jsonLine);
    return this.opts.encoder.frame?.(line) ?? line;
  }

  /**
   * Bookmarks are due every bookmark interval and once more `bookmarkLead`
   * before the deadline, so a client whose watch times out resumes from a
   * fresh resourceVersion (cacher.go). Whichever is due first is scheduled.
   */
  private scheduleBookmark(): void {
    const { clock, deadline, bookmarkLeadMs } = this.opts;
    const preDeadline = deadline - bookmarkLeadMs;
    let at = this.nextBookmarkAt;
    if (!this.preDeadlineDone && preDeadline < at) at = preDeadline;
    if (at >= deadline) return;
    this.bookmarkTimer = clock.setTimeout(
      () => {
        if (this.closed) return;
        const now = clock.now();
        if (now >= preDeadline) this.preDeadlineDone = true;
        if (now >= this.nextBookmarkAt) this.nextBookmarkAt = now + this.opts.bookmarkIntervalMs;
        this.sendBookmark();
        this.scheduleBookmark();
      },
      Math.max(0, at - clock.now()),
    );
  }

  /**
   * A bookmark goes only if the server knows something newer than what the
   * client was sent, and is dropped, never queued, when the client is behind.
   */
  private sendBookmark(): void {
    const latest = this.opts.latestRevision();
    if (latest <= this.sentRevision) return;
    if (this.sink.bufferedBytes > 0 && this.sink.bufferedBytes > this.opts.maxBufferedBytes / 2) {
      this.opts.stats.bookmarksDropped++;
      return;
    }
    this.sentRevision = latest;
    this.write(this.bookmarkLine(String(latest)), 'BOOKMARK', latest);
    this.opts.stats.bookmarksSent++;
  }
}
