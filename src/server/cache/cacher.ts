import type { Clock, TimerHandle } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import { decodeStored } from '../stores/codec.js';
import { objectKey, resourceId, resourceIdOfKey, resourcePrefix } from '../stores/keys.js';
import type { Store, StoreEvent, StoreKV, StoreWatch } from '../stores/types.js';
import type { CacheEvent } from './event.js';
import { type CachedObject, type HistoryOptions, ResourceCache } from './resource-cache.js';

/**
 * A stored value as a kind's cache holds it: decoded, and defaulted when the kind says so (a
 * custom resource's schema defaults apply to every object read from storage, as
 * apiextensions-apiserver's storage decoder applies them).
 */
function decodeFor(kind: ResourceKind, value: string, revision: number, written = false): KubeObject {
  const object = decodeStored(value, revision);
  kind.fromStorage?.(object, written);
  return object;
}

/**
 * The cache of a kind: one per served kind, so each version of a custom resource has its own,
 * holding objects in that version, as apiextensions-apiserver gives every served version its
 * own storage and watch cache (customresource_handler.go `getOrCreateServingInfoFor`); so do
 * the built-ins served over another resource's objects (events.k8s.io's events, autoscaling/v1's
 * HorizontalPodAutoscalers), each REST storage of kube-apiserver having its own cacher.
 */
const cacheId = (kind: ResourceKind): string => `${kind.group || 'core'}/${kind.plural}@${kind.version}`;

/**
 * The entries of every cache at one moment ({@link Cacher.captureEntries}), for a later
 * {@link Cacher.reload} to reuse: entries are immutable, so holding them costs only the maps.
 */
export type CacheEntries = ReadonlyMap<ResourceKind, ReadonlyMap<string, CachedObject>>;

/** The entry decoded from `kv`'s very bytes at its revision, if `entry` is one. */
function sameBytes(entry: CachedObject | undefined, kv: StoreKV): entry is CachedObject {
  return entry !== undefined && entry.revision === kv.modRevision && entry.stored === kv.value;
}

/** Told of each change the caches apply, in order; `kind` is the cache's kind. */
export type CacheListener = (kind: ResourceKind, event: CacheEvent) => void;

const NO_CACHES: readonly ResourceCache[] = [];

/** Options of the {@link Cacher}. */
export interface CacherOptions {
  clock: Clock;
  stats: ServerStats;
  history: HistoryOptions;
  /** Logs a store watch failure (the cacher then refills itself). */
  onError?: (err: Error) => void;
}

/**
 * Feeds every resource's watch cache from ONE store watch over all keys, as
 * kube-apiserver feeds its cachers from etcd. Because it sees every revision,
 * its `latestRevision` advances with writes to any resource, which is what
 * keeps the bookmarks of quiet, selective watchers fresh.
 */
export class Cacher {
  /** By {@link cacheId}. */
  private readonly caches = new Map<string, ResourceCache>();
  /** The caches fed from each resource's keys (several versions of one custom resource). */
  private readonly byResource = new Map<string, ResourceCache[]>();
  private readonly store: Store;
  /** The kinds followed: the table's, plus those whose cache is being started. */
  private readonly kinds = new Map<string, ResourceKind>();
  private readonly opts: CacherOptions;
  private storeWatch: StoreWatch | undefined;
  private revision = 0;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];
  private refillTimer: TimerHandle | undefined;
  private stopped = false;
  private written?: { kind: ResourceKind; value: string };
  private readonly listeners = new Set<CacheListener>();
  private readonly fillListeners = new Set<() => void>();
  /**
   * Whether cache entries remember the stored bytes they came from (for {@link fill} to reuse
   * them): only when the store keeps those strings in this process anyway (memory); over etcd
   * it would hold a second copy of every object.
   */
  private readonly keepStored: boolean;

  /** Caches are made and dropped as `kinds` gains and loses kinds. */
  constructor(store: Store, kinds: KindTable, opts: CacherOptions) {
    this.store = store;
    this.opts = opts;
    this.keepStored = store.name === 'memory';
    for (const kind of kinds.all()) this.kinds.set(cacheId(kind), kind);
    kinds.onChange((change) => {
      if ('removed' in change) this.dropKind(change.removed);
      // A kind served without addKind first still gets its cache (and its stored objects).
      else void this.addKind(change.added).catch((err: Error) => this.opts.onError?.(err));
    });
  }

  /**
   * Calls `listener` with every change the caches apply, after the watchers got it: the
   * server's own controllers (custom resource definitions) follow the store this way, so a
   * change made through another server over the same etcd reaches them too. Returns the
   * unsubscriber.
   */
  listen(listener: CacheListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls `listener` after every (re)fill: the caches were replaced from a fresh list, and
   * changes between the old and the new caches were never told to {@link listen}ers.
   */
  onFill(listener: () => void): () => void {
    this.fillListeners.add(listener);
    return () => this.fillListeners.delete(listener);
  }

  private notify(kind: ResourceKind, event: CacheEvent): void {
    for (const listener of this.listeners) listener(kind, event);
  }

  /** The newest revision the caches have applied. */
  get latestRevision(): number {
    return this.revision;
  }

  /** Fills every cache with a list at one revision, then follows the store from there. */
  /** Fills the caches from the store; entries in `reuse` decoded from the very bytes stored are taken as they are. */
  async start(reuse?: CacheEntries): Promise<void> {
    await this.fill(reuse);
  }

  /**
   * Lists everything at one revision into new caches and watches the store
   * from it. The old caches' watchers are closed cleanly: each client comes
   * back with its last resourceVersion, and one older than the new caches
   * gets 410 and relists, as after a kube-apiserver restart.
   */
  private async fill(reuse?: CacheEntries): Promise<void> {
    const { items, revision } = await this.store.list('/');
    if (this.stopped) return;
    const stale = [...this.caches.values()];
    this.caches.clear();
    this.byResource.clear();
    for (const kind of this.kinds.values()) {
      if (kind.custom?.conversionError) continue;
      this.index(new ResourceCache(kind, revision, this.opts.clock, this.opts.stats, this.opts.history));
    }
    const before = new Map(stale.map((c) => [c.kind, c]));
    for (const kv of items) {
      for (const cache of this.cachesOfKey(kv.key)) {
        // Same kind, same bytes, same revision: an entry of the old caches (or of the ones
        // captured with a snapshot) is this one; a restore's objects mostly are.
        const old = before.get(cache.kind)?.objects.get(kv.key);
        const captured = reuse?.get(cache.kind)?.get(kv.key);
        if (sameBytes(old, kv)) cache.reuse(kv.key, old);
        else if (sameBytes(captured, kv)) cache.reuse(kv.key, captured);
        else
          cache.load(
            kv.key,
            decodeFor(cache.kind, kv.value, kv.modRevision),
            kv.modRevision,
            this.stored(kv.value),
          );
      }
    }
    this.revision = Math.max(this.revision, revision);
    for (const cache of stale) for (const w of cache.watchers.all()) w.close('shutdown');
    this.storeWatch = this.store.watch(
      revision,
      (events) => this.onStoreEvents(events),
      (err) => this.onStoreError(err),
    );
    this.wakeWaiters();
    for (const listener of this.fillListeners) listener();
  }

  /**
   * Starts a cache for a kind that is about to be served, as kube-apiserver
   * starts a cacher for a newly established custom resource
   * (apiextensions-apiserver's crdHandler `getOrCreateServingInfoFor`). The
   * cache follows the store from the revision reached now; objects stored
   * before that (a definition deleted and created again while objects were
   * left) are read from the store, and those changed since then arrive as
   * events. Resolves once the cache holds them: only then may the kind be
   * served.
   */
  async addKind(kind: ResourceKind): Promise<void> {
    const id = cacheId(kind);
    // A version whose objects cannot be converted is never read (its requests fail first).
    if (this.caches.has(id) || kind.custom?.conversionError) return;
    this.kinds.set(id, kind);
    const from = this.revision;
    const cache = new ResourceCache(kind, from, this.opts.clock, this.opts.stats, this.opts.history);
    this.index(cache);
    const { items } = await this.store.list(resourcePrefix(kind));
    for (const kv of items) {
      if (kv.modRevision <= from && !cache.has(kv.key))
        cache.load(kv.key, decodeFor(kind, kv.value, kv.modRevision), kv.modRevision, this.stored(kv.value));
    }
  }

  /**
   * Drops the cache of a kind no longer served and ends its watches, as the
   * custom resource handler tears down a deleted definition's storage.
   */
  private dropKind(kind: ResourceKind): void {
    const id = cacheId(kind);
    this.kinds.delete(id);
    const cache = this.caches.get(id);
    if (!cache) return;
    this.caches.delete(id);
    const siblings = (this.byResource.get(resourceId(kind)) ?? []).filter((c) => c !== cache);
    if (siblings.length > 0) this.byResource.set(resourceId(kind), siblings);
    else this.byResource.delete(resourceId(kind));
    for (const w of cache.watchers.all()) w.close('shutdown');
  }

  private index(cache: ResourceCache): void {
    this.caches.set(cacheId(cache.kind), cache);
    const id = resourceId(cache.kind);
    this.byResource.set(id, [...(this.byResource.get(id) ?? []), cache]);
  }

  /** The cache of `kind`. */
  cacheFor(kind: ResourceKind): ResourceCache {
    const cache = this.caches.get(cacheId(kind));
    if (!cache) throw new Error(`no watch cache for ${cacheId(kind)}`);
    return cache;
  }

  /**
   * The cached object `name` (in `namespace`) of `kind`, or undefined: what a lister's Get
   * answers from its informer's cache, for the server's own controllers.
   */
  cached(kind: ResourceKind, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.caches.get(cacheId(kind))?.objects.get(objectKey(kind, namespace, name))?.object;
  }

  /** Every resource cache. */
  all(): ResourceCache[] {
    return [...this.caches.values()];
  }

  /** Resolves true once the caches have reached `revision`, or false after `timeoutMs`. */
  waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.revision >= revision) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        revision,
        resolve: () => {
          timer.cancel();
          resolve(true);
        },
      };
      const timer = this.opts.clock.setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Empties every history (the debug `compact`): only watches from now on can start. */
  dropHistory(): void {
    for (const cache of this.caches.values()) cache.dropHistory(this.revision);
  }

  /**
   * Starts again from the store as it is now, as a restarted kube-apiserver fills its watch
   * caches from etcd: every watcher is closed cleanly, the caches (and the revision they
   * reached, which may go back: the store was restored to an older point) are filled from a
   * fresh list, and the store is followed from there. Watches that resume from a
   * resourceVersion the new caches do not hold get 410, or wait for it and get 504 when it
   * lies ahead of the restored store, as after an etcd restore (cacher.go `Watch`:
   * `waitUntilFreshAndBlock`, then the watch cache's "too old resource version").
   */
  async reload(reuse?: CacheEntries): Promise<void> {
    this.refillTimer?.cancel();
    this.refillTimer = undefined;
    this.storeWatch?.close();
    this.storeWatch = undefined;
    this.written = undefined;
    this.revision = 0;
    await this.fill(reuse);
  }

  /**
   * The entries of every cache now, for a {@link reload} over a store restored to this moment
   * to reuse instead of decoding (a snapshot keeps them beside the store's copy). Empty over
   * a store whose bytes are not kept in this process (entries could never be matched).
   */
  captureEntries(): CacheEntries {
    const out = new Map<ResourceKind, ReadonlyMap<string, CachedObject>>();
    if (!this.keepStored) return out;
    for (const cache of this.caches.values()) out.set(cache.kind, new Map(cache.objects));
    return out;
  }

  /** Stops following the store. Watchers are closed by their owner. */
  stop(): void {
    this.stopped = true;
    this.refillTimer?.cancel();
    this.storeWatch?.close();
    this.storeWatch = undefined;
  }

  /**
   * Tells the cacher that `kind`'s write pipeline (prune, default, validate) produced `value`
   * and it is about to be stored: the event that carries it back needs no second pass through
   * the kind's storage decoder, which would only prune and default an object already pruned
   * and defaulted by the same schema. One slot is enough: with the memory store the event
   * follows the write at once; over etcd a slot overwritten by a later write only means the
   * full decode runs. The match is by content and kind identity (a changed definition is a
   * new kind object), so it can never skip work the bytes need.
   */
  noteWritten(kind: ResourceKind, value: string): void {
    if (kind.fromStorage === undefined) return;
    this.written = { kind, value };
  }

  private isWritten(kind: ResourceKind, value: string): boolean {
    const w = this.written;
    if (w === undefined || w.kind !== kind || w.value !== value) return false;
    this.written = undefined;
    return true;
  }

  private stored(value: string | undefined): string | undefined {
    return this.keepStored ? value : undefined;
  }

  private cachesOfKey(key: string): readonly ResourceCache[] {
    const id = resourceIdOfKey(key);
    return (id === undefined ? undefined : this.byResource.get(id)) ?? NO_CACHES;
  }

  private onStoreEvents(events: StoreEvent[]): void {
    for (const ev of events) {
      if (ev.revision <= this.revision) continue;
      for (const cache of this.cachesOfKey(ev.key)) {
        if (ev.type === 'put') {
          const object = decodeFor(cache.kind, ev.value!, ev.revision, this.isWritten(cache.kind, ev.value!));
          const change = cache.apply(
            ev.prevValue === undefined ? 'ADDED' : 'MODIFIED',
            ev.key,
            ev.revision,
            object,
            this.stored(ev.value),
          );
          this.notify(cache.kind, change);
        } else if (ev.prevValue !== undefined) {
          const change = cache.apply(
            'DELETED',
            ev.key,
            ev.revision,
            decodeFor(cache.kind, ev.prevValue, ev.revision),
          );
          this.notify(cache.kind, change);
        }
      }
      this.revision = ev.revision;
    }
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((w) => w.revision <= this.revision);
      this.waiters = this.waiters.filter((w) => w.revision > this.revision);
      for (const w of ready) w.resolve();
    }
  }

  /**
   * The store watch broke for good (compacted past our revision, say after a
   * long etcd outage): refill from a fresh list, retrying until it works.
   */
  private onStoreError(err: Error): void {
    if (this.stopped) return;
    this.opts.onError?.(err);
    this.storeWatch = undefined;
    this.refill(0);
  }

  private refill(delayMs: number): void {
    this.refillTimer = this.opts.clock.setTimeout(() => {
      this.refillTimer = undefined;
      this.fill().catch((err: Error) => {
        if (this.stopped) return;
        this.opts.onError?.(new Error(`refilling the watch cache failed: ${err.message}`));
        this.refill(Math.min(Math.max(delayMs * 2, 100), 5_000));
      });
    }, delayMs);
  }
}
