import { type Clock, systemClock, type TimerHandle } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { Checkpoint, type CheckpointOptions } from '../checkpoint/checkpoint.js';
import { cacheMeta } from '../watch/lazy-decode.js';
import { type ListWatchSource, resourceVersionOf } from '../watch/listwatch.js';
import { Watcher } from '../watch/watcher.js';
import type { WatcherEvent, WatcherOptions } from '../watch/watcher-types.js';
import { DeliveryQueue, type HandlerEvent, type InformerHandlers } from './informer-delivery.js';
import { InformerIndexes } from './informer-indexes.js';

export type { InformerHandlers } from './informer-delivery.js';

/** Options of {@link Informer}. */
export interface InformerOptions<T extends KubeObject> extends WatcherOptions {
  /** Extra indexes: name -> function giving the index values of an object. `namespace` is built in. */
  indexers?: Record<string, (object: T) => string[]>;
  /** Re-deliver every cached object as an update this often (0/undefined: never). */
  resyncPeriodMs?: number;
  /** Called when a handler throws or rejects (the informer goes on). */
  onHandlerError?: (err: unknown, event: 'add' | 'update' | 'delete') => void;
  /**
   * Save the cache to a file and resume from it after a process restart
   * instead of listing (see checkpoint.ts). KubeClient and the shared
   * informer factory fill in its `identity`.
   */
  checkpoint?: CheckpointOptions;
}

/** `namespace/name`, or `name` for cluster-scoped objects: the cache key. */
export function objectKey(object: KubeObject): string {
  // Lazily decoded objects (`lazyDecode`) answer this without being parsed.
  const m = cacheMeta(object) ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? '');
}

/**
 * A cache of one resource kept current by a {@link Watcher}: get, list,
 * indexes and handlers, as client-go's shared informer. On every (re)list
 * the cache is swapped at once and handlers see exactly the differences:
 * adds, updates whose resourceVersion changed, and deletions (flagged
 * final-state-unknown) of objects missing from the new list. Handlers get
 * their notifications through one {@link DeliveryQueue} (its file comment
 * has the rules): one at a time in event order, async ones awaited before the
 * next event is read, a failing one reported, never fatal.
 */
export class Informer<T extends KubeObject = KubeObject> {
  readonly watcher: Watcher<T>;
  /** The cache's checkpoint, when the `checkpoint` option is set: its status says whether the start resumed. */
  readonly checkpoint: Checkpoint<T> | undefined;
  /** Handler failures so far. */
  handlerErrors = 0;
  private store = new Map<string, T>();
  private readonly indexes: InformerIndexes<T>;
  private readonly delivery = new DeliveryQueue<T>((err, event) => this.handlerFailed(err, event));
  /** Whether the store holds a list: set at once, while `hasSynced` waits for that list's handlers. */
  private listed = false;
  private readonly opts: InformerOptions<T>;
  private readonly clock: Clock;
  private pending: Map<string, T> | undefined;
  private hasSynced = false;
  private syncWaiters: Array<() => void> = [];
  private running: Promise<void> | undefined;
  private resyncTimer: TimerHandle | undefined;
  /** A resync is queued or being delivered: the next one waits for it (see scheduleResync). */
  private resyncPending = false;
  private stopped = false;

  constructor(source: ListWatchSource, opts: InformerOptions<T> = {}) {
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    if (opts.checkpoint) {
      const { logger, clock, lazyDecode } = opts;
      this.checkpoint = new Checkpoint<T>({ logger, clock, lazyDecode, ...opts.checkpoint });
    }
    this.watcher = new Watcher<T>(
      source,
      this.checkpoint ? { ...opts, initialState: this.checkpoint.load } : opts,
    );
    this.indexes = new InformerIndexes(opts.indexers);
  }

  /**
   * Adds handlers. Once the cache holds a list they first get `add` for every
   * cached object, as client-go. Returns a remover: from then on they get
   * nothing, not even the rest of that replay.
   */
  on(handlers: InformerHandlers<T>): () => void {
    // The store already holds the changes of notifications still queued, so the replay covers
    // them: the queue skips them for these handlers, or they would get an update before its add.
    return this.delivery.subscribe(handlers, this.listed && handlers.add ? this.store.values() : undefined);
  }

  /** Starts watching (idempotent). */
  start(): this {
    this.running ??= this.run().catch((err: unknown) => {
      // The watcher retries everything itself; reaching here is a bug, so make it loud.
      this.opts.logger?.error?.({ err: (err as Error)?.message ?? String(err) }, 'informer loop failed');
      this.opts.onError?.(err);
    });
    return this;
  }

  /** Resolves once the first list has been applied (and its handlers have run). */
  synced(): Promise<void> {
    this.start();
    if (this.hasSynced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Whether the first list has been applied. */
  get isSynced(): boolean {
    return this.hasSynced;
  }

  /** The cached object with this key (`namespace/name` or `name`). */
  get(key: string): T | undefined {
    return this.store.get(key);
  }

  /** Every cached object. */
  list(): T[] {
    return [...this.store.values()];
  }

  /** Number of cached objects. */
  get size(): number {
    return this.store.size;
  }

  /** Cached objects whose index `name` has `value`. */
  byIndex(name: string, value: string): T[] {
    return this.indexes.byIndex(name, value, this.store);
  }

  /**
   * Stops watching and delivering: nothing reaches a handler after this call
   * (as client-go's sharedProcessor.run closes every listener on stop).
   * Resolves when the loop and a handler still running are done.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.resyncTimer?.cancel();
    this.delivery.stop();
    this.watcher.stop();
    await this.running;
    await this.delivery.whenDelivered();
    await this.checkpoint?.close();
  }

  private async run(): Promise<void> {
    this.scheduleResync();
    await this.watcher.consume((batch) => this.applyBatch(batch, 0));
  }

  /**
   * Applies `batch[from..]` in order; stops at an async handler (a promise:
   * the rest of the batch follows it, so backpressure reaches the socket).
   */
  private applyBatch(batch: WatcherEvent<T>[], from: number): void | Promise<void> {
    for (let i = from; i < batch.length; i++) {
      if (this.watcher.stopped) return;
      this.apply(batch[i]);
      const delivered = this.delivery.whenDelivered();
      if (delivered) return delivered.then(() => this.applyBatch(batch, i + 1));
    }
  }

  private apply(e: WatcherEvent<T>): void {
    // The checkpoint mirrors the store event by event: its objects and resourceVersion always agree.
    this.checkpoint?.track(e);
    switch (e.type) {
      case 'init':
        this.pending = new Map();
        break;
      case 'initApply':
        if (!this.pending) this.pending = new Map();
        this.pending.set(objectKey(e.object), e.object);
        break;
      case 'initDone':
        this.replace(this.pending ?? new Map());
        this.pending = undefined;
        break;
      case 'apply':
        this.applyOne(e.object);
        break;
      case 'delete':
        this.deleteOne(e.object);
        break;
      case 'bookmark':
        break;
    }
  }

  /** Swaps in a new list and delivers the differences, in the list's order, deletions last. */
  private replace(next: Map<string, T>): void {
    const old = this.store;
    this.store = next;
    this.indexes.rebuild(next);
    this.listed = true;
    const delivery = this.delivery;
    // Queued whole before any is delivered: a handler that calls on() meanwhile is replayed the
    // new store, and must then skip every difference, not only those delivered so far.
    if (old.size === 0) {
      for (const obj of next.values()) delivery.queue('add', obj, undefined);
    } else {
      for (const [key, obj] of next) {
        const before = old.get(key);
        if (!before) delivery.queue('add', obj, undefined);
        else if (resourceVersionOf(before) !== resourceVersionOf(obj)) delivery.queue('update', before, obj);
      }
      for (const [key, obj] of old) {
        if (!next.has(key)) delivery.queue('deleteFinalStateUnknown', obj, undefined);
      }
    }
    if (!this.hasSynced) {
      delivery.queueCallback(() => {
        this.hasSynced = true;
        for (const w of this.syncWaiters.splice(0)) w();
      });
    }
    delivery.deliver();
  }

  private applyOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    this.store.set(key, obj);
    this.indexes.update(key, before, obj);
    if (!before) this.delivery.notify('add', obj, undefined);
    else if (resourceVersionOf(before) !== resourceVersionOf(obj))
      this.delivery.notify('update', before, obj);
  }

  private deleteOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    if (!before) return;
    this.store.delete(key);
    this.indexes.remove(key, before);
    this.delivery.notify('delete', obj, undefined);
  }

  private handlerFailed(err: unknown, event: HandlerEvent): void {
    this.handlerErrors++;
    this.opts.logger?.error?.(
      { err: (err as Error)?.message ?? String(err), event },
      'informer handler failed',
    );
    this.opts.onHandlerError?.(err, event);
  }

  private scheduleResync(): void {
    const period = this.opts.resyncPeriodMs;
    if (!period || this.stopped) return;
    this.resyncTimer = this.clock.setTimeout(() => {
      if (this.stopped) return;
      // One resync at a time. Handlers slower than the period would otherwise queue resyncs
      // faster than they are delivered, and the watch, which waits for delivery, would never
      // be read again (client-go's listeners buffer instead; here the backlog would be the wait).
      if (!this.resyncPending) {
        this.resyncPending = true;
        for (const o of this.store.values()) this.delivery.queue('update', o, o);
        this.delivery.queueCallback(() => {
          this.resyncPending = false;
        });
        this.delivery.deliver();
      }
      this.scheduleResync();
    }, period);
  }
}
