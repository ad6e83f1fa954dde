import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { failureStatus, type Status } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import { DispatchIndex } from './dispatch.js';
import { CacheEvent, type ChangeType } from './event.js';
import type { CacheWatcher } from './watcher.js';

/** One object as the cache holds it: parsed, and as JSON text with its resourceVersion. */
export interface CachedObject {
  object: KubeObject;
  json: string;
  revision: number;
  /**
   * The stored value it was decoded from (the store's own string, so holding it costs
   * nothing): a refill over the same bytes at the same revision reuses the entry
   * ({@link ResourceCache.reuse}) instead of decoding them again.
   */
  stored?: string;
}

/** History bounds of a watch cache. */
export interface HistoryOptions {
  /** Events younger than this are kept (kube-apiserver sizes its cache to span ~75 s). */
  windowMs: number;
  /** And never more than this many. */
  capacity: number;
}

/**
 * The watch cache of one resource: the current objects, a bounded history of
 * changes that watches start from, and the watchers fed from it. Like
 * kube-apiserver's cacher, a watch from a resourceVersion older than the
 * history is refused with 410 Expired even if the store could still answer.
 */
export class ResourceCache {
  readonly kind: ResourceKind;
  readonly objects = new Map<string, CachedObject>();
  readonly watchers = new DispatchIndex();
  private history: CacheEvent[] = [];
  private head = 0;
  /**
   * The newest revision whose event left the history (or the revision the
   * cache was filled at). Watching from it or later is safe; from before it,
   * events may be missing.
   */
  private evictedUpTo: number;
  private sortedKeys: string[] | undefined;
  /**
   * Keys of current objects by `spec.nodeName` (as field selectors read it:
   * '' when unset), for kinds
   * that select on it: as kube-apiserver's cacher indexes pods, so that a
   * kubelet's relist reads its node's pods, not every pod of the cluster.
   */
  private readonly byNode: Map<string, Set<string>> | undefined;
  private readonly clock: Clock;
  private readonly stats: ServerStats;
  private readonly historyOptions: HistoryOptions;

  constructor(
    kind: ResourceKind,
    filledAt: number,
    clock: Clock,
    stats: ServerStats,
    history: HistoryOptions,
  ) {
    this.kind = kind;
    this.evictedUpTo = filledAt;
    this.clock = clock;
    this.stats = stats;
    this.historyOptions = history;
    this.byNode = kind.fields['spec.nodeName'] ? new Map() : undefined;
  }

  /** The oldest resourceVersion a watch may start from. */
  get oldestWatchableRevision(): number {
    this.evict();
    return this.evictedUpTo;
  }

  /** Events currently held in history. */
  get historySize(): number {
    return this.history.length - this.head;
  }

  /** Whether an object with this key is cached. */
  has(key: string): boolean {
    return this.objects.has(key);
  }

  /** Loads an object while filling the cache (no event, no history). */
  load(key: string, object: KubeObject, revision: number, stored?: string): void {
    this.reindex(key, this.objects.get(key)?.object, object);
    this.objects.set(key, { object, json: JSON.stringify(object), revision, stored });
    this.sortedKeys = undefined;
  }

  /**
   * Loads an entry of an older cache of the same kind, decoded from the same bytes at the same
   * revision: the entry is immutable, so it serves as is (a restore that brings most objects
   * back unchanged costs no parse and no stringify for them).
   */
  reuse(key: string, entry: CachedObject): void {
    this.reindex(key, this.objects.get(key)?.object, entry.object);
    this.objects.set(key, entry);
    this.sortedKeys = undefined;
  }

  /** Records a change, appends it to history and sends it to matching watchers. */
  apply(type: ChangeType, key: string, revision: number, object: KubeObject, stored?: string): CacheEvent {
    const prev = this.objects.get(key);
    const json = JSON.stringify(object);
    this.reindex(key, prev?.object, type === 'DELETED' ? undefined : object);
    if (type === 'DELETED') {
      this.objects.delete(key);
      this.sortedKeys = undefined;
    } else {
      if (!prev) this.sortedKeys = undefined;
      this.objects.set(key, { object, json, revision, stored });
    }
    const event = new CacheEvent(
      type === 'MODIFIED' && !prev ? 'ADDED' : type,
      revision,
      key,
      object,
      json,
      prev?.object,
      this.clock.now(),
    );
    this.history.push(event);
    this.evict();
    this.watchers.dispatch(event);
    return event;
  }

  /** Keys of current objects in list order, optionally under a prefix. */
  keys(prefix?: string): string[] {
    this.sortedKeys ??= [...this.objects.keys()].sort();
    if (!prefix) return this.sortedKeys;
    return this.sortedKeys.filter((k) => k.startsWith(prefix));
  }

  /**
   * Keys of current objects with `spec.nodeName` = `node` in list order,
   * optionally under a prefix; undefined when this kind has no such index.
   */
  keysOnNode(node: string, prefix?: string): string[] | undefined {
    if (!this.byNode) return undefined;
    const keys = [...(this.byNode.get(node) ?? [])];
    return (prefix ? keys.filter((k) => k.startsWith(prefix)) : keys).sort();
  }

  /**
   * Starts `watcher` from `revision`: sends the history events after it that
   * match, then registers it for live events. Returns a 410 Status instead when
   * the history no longer reaches back to `revision`.
   */
  watchFrom(watcher: CacheWatcher, revision: number): Status | undefined {
    const oldest = this.oldestWatchableRevision;
    if (revision < oldest) {
      return failureStatus('Expired', `too old resource version: ${revision} (${oldest})`, undefined, 410);
    }
    let i = this.firstAfter(revision);
    for (; i < this.history.length; i++) {
      this.stats.initEventsExamined++;
      if (watcher.deliver(this.history[i])) this.stats.initEventsSent++;
      if (watcher.isClosed) return undefined;
    }
    this.watchers.add(watcher);
    return undefined;
  }

  /** Registers a watcher that has been sent the current state. */
  register(watcher: CacheWatcher): void {
    this.watchers.add(watcher);
  }

  /** Forgets a closed watcher. */
  unregister(watcher: CacheWatcher): void {
    this.watchers.remove(watcher);
  }

  /** Empties the history: watches can start only from `revision` or later (debug compaction). */
  dropHistory(revision: number): void {
    this.history = [];
    this.head = 0;
    if (revision > this.evictedUpTo) this.evictedUpTo = revision;
  }

  private reindex(key: string, before: KubeObject | undefined, after: KubeObject | undefined): void {
    if (!this.byNode) return;
    const nodeName = this.kind.fields['spec.nodeName']!;
    const from = before ? nodeName(before) : undefined;
    const to = after ? nodeName(after) : undefined;
    if (from === to) return;
    if (from !== undefined) {
      const set = this.byNode.get(from);
      set?.delete(key);
      if (set?.size === 0) this.byNode.delete(from);
    }
    if (to !== undefined) {
      let set = this.byNode.get(to);
      if (!set) {
        set = new Set();
        this.byNode.set(to, set);
      }
      set.add(key);
    }
  }

  private firstAfter(revision: number): number {
    let lo = this.head;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Drops events older than the window or beyond the capacity. */
  private evict(): void {
    const { windowMs, capacity } = this.historyOptions;
    const cutoff = this.clock.now() - windowMs;
    while (this.head < this.history.length) {
      const oldest = this.history[this.head];
      if (oldest.time >= cutoff && this.history.length - this.head <= capacity) break;
      this.evictedUpTo = Math.max(this.evictedUpTo, oldest.revision);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.history.length) {
      this.history = this.history.slice(this.head);
      this.head = 0;
    }
  }
}
