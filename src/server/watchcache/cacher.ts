import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { resourceId, resourceIdOfKey } from '../keys.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats.js';
import type { Store, StoreEvent, StoreWatch } from '../store/types.js';
import { type HistoryOptions, ResourceCache } from './resource-cache.js';

/** Parses a stored value and stamps it with its resourceVersion. */
export function decodeStored(value: string, revision: number): KubeObject {
  const object = JSON.parse(value) as KubeObject;
  object.metadata = { ...object.metadata, resourceVersion: String(revision) };
  return object;
}

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
  private readonly caches = new Map<string, ResourceCache>();
  private readonly store: Store;
  private readonly kinds: ResourceKind[];
  private readonly opts: CacherOptions;
  private storeWatch: StoreWatch | undefined;
  private revision = 0;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];
  private stopped = false;

  constructor(store: Store, kinds: ResourceKind[], opts: CacherOptions) {
    this.store = store;
    this.kinds = kinds;
    this.opts = opts;
  }

  /** The newest revision the caches have applied. */
  get latestRevision(): number {
    return this.revision;
  }

  /** Fills every cache with a list at one revision, then follows the store from there. */
  async start(): Promise<void> {
    const { items, revision } = await this.store.list('/');
    this.caches.clear();
    for (const kind of this.kinds) {
      this.caches.set(
        resourceId(kind),
        new ResourceCache(kind, revision, this.opts.clock, this.opts.stats, this.opts.history),
      );
    }
    for (const kv of items) {
      const cache = this.cacheOfKey(kv.key);
      cache?.load(kv.key, decodeStored(kv.value, kv.modRevision), kv.modRevision);
    }
    this.revision = revision;
    this.storeWatch = this.store.watch(
      revision,
      (events) => this.onStoreEvents(events),
      (err) => this.onStoreError(err),
    );
  }

  /** The cache of `kind`. */
  cacheFor(kind: ResourceKind): ResourceCache {
    const cache = this.caches.get(resourceId(kind));
    if (!cache) throw new Error(`no watch cache for ${resourceId(kind)}`);
    return cache;
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

  /** Stops following the store. Watchers are closed by their owner. */
  stop(): void {
    this.stopped = true;
    this.storeWatch?.close();
    this.storeWatch = undefined;
  }

  private cacheOfKey(key: string): ResourceCache | undefined {
    const id = resourceIdOfKey(key);
    return id === undefined ? undefined : this.caches.get(id);
  }

  private onStoreEvents(events: StoreEvent[]): void {
    for (const ev of events) {
      if (ev.revision <= this.revision) continue;
      const cache = this.cacheOfKey(ev.key);
      if (cache) {
        if (ev.type === 'put') {
          const object = decodeStored(ev.value!, ev.revision);
          cache.apply(ev.prevValue === undefined ? 'ADDED' : 'MODIFIED', ev.key, ev.revision, object);
        } else if (ev.prevValue !== undefined) {
          cache.apply('DELETED', ev.key, ev.revision, decodeStored(ev.prevValue, ev.revision));
        }
      }
      this.revision = ev.revision;
    }
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((w) => w.revision <= this.revision);
      this.waiters = this.waiters.filter((w) => w.revision > this.revision);
      for (const w of ready) w.resolve();
    }
  }

  private onStoreError(err: Error): void {
    if (this.stopped) return;
    this.opts.onError?.(err);
  }
}
