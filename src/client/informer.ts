import { type Clock, systemClock, type TimerHandle } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { Checkpoint, type CheckpointOptions } from './checkpoint.js';
import { cacheMeta } from './lazy-decode.js';
import { type ListWatchSource, resourceVersionOf } from './listwatch.js';
import { Watcher, type WatcherEvent, type WatcherOptions } from './watcher.js';

/** Event handlers of an {@link Informer}; async handlers are awaited before the next event is read. */
export interface InformerHandlers<T extends KubeObject> {
  add?(object: T): void | Promise<void>;
  update?(oldObject: T, newObject: T): void | Promise<void>;
  /** `finalStateUnknown`: the object vanished between two lists, so this is its last known state, not its final one. */
  delete?(object: T, info: { finalStateUnknown: boolean }): void | Promise<void>;
}

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
 * final-state-unknown) of objects missing from the new list. Handlers run
 * one at a time in event order; a slow handler slows reading from the socket
 * instead of queueing memory; a failing handler is reported, never fatal.
 */
export class Informer<T extends KubeObject = KubeObject> {
  readonly watcher: Watcher<T>;
  /** The cache's checkpoint, when the `checkpoint` option is set: its status says whether the start resumed. */
  readonly checkpoint: Checkpoint<T> | undefined;
  /** Handler failures so far. */
  handlerErrors = 0;
  private store = new Map<string, T>();
  private readonly indexers: Record<string, (object: T) => string[]>;
  private readonly indexerList: Array<[string, (object: T) => string[]]>;
  /** The indexers whose values can change when an object is updated in place. */
  private readonly updateIndexerList: Array<[string, (object: T) => string[]]>;
  private indexes = new Map<string, Map<string, Set<string>>>();
  /** Each handler with the number of the last notification queued before it was added. */
  private readonly handlers = new Map<InformerHandlers<T>, number>();
  /** The handlers as an array, for the per-event path; dropped whenever `handlers` changes. */
  private handlerList: InformerHandlers<T>[] | undefined;
  /** Notifications queued so far (see {@link Informer.on}). */
  private queued = 0;
  /** Whether the store holds a list: set at once, while `hasSynced` waits for that list's handlers. */
  private listed = false;
  private readonly opts: InformerOptions<T>;
  private readonly clock: Clock;
  private pending: Map<string, T> | undefined;
  private hasSynced = false;
  private syncWaiters: Array<() => void> = [];
  private running: Promise<void> | undefined;
  /** Notifications not yet delivered, in order (see {@link Informer.pump}). */
  private readonly work: Array<() => void | Promise<void>> = [];
  /** Set while an async handler is pending: delivery resumes when it settles. */
  private waiting: Promise<void> | undefined;
  private pumping = false;
  private resyncTimer: TimerHandle | undefined;
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
    this.indexers = { namespace: byNamespace, ...opts.indexers };
    this.indexerList = Object.entries(this.indexers);
    // The key holds the namespace, so an update never moves an object in the built-in namespace index.
    this.updateIndexerList = this.indexerList.filter(([, fn]) => fn !== byNamespace);
  }

  /** Adds handlers (they first get `add` for every cached object, as client-go). Returns a remover. */
  on(handlers: InformerHandlers<T>): () => void {
    // The store already holds the changes of notifications still queued, so the snapshot
    // below covers them: a late handler skips them, or it would get an update before its add.
    this.handlers.set(handlers, this.queued);
    this.handlerList = undefined;
    if (this.listed && handlers.add) {
      const objects = [...this.store.values()];
      this.enqueue(() => inOrder(objects, (o) => this.call(() => handlers.add?.(o), 'add')));
    }
    return () => {
      this.handlerList = undefined;
      return this.handlers.delete(handlers);
    };
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
    const index = this.indexes.get(name);
    if (!this.indexers[name]) throw new Error(`no indexer named ${JSON.stringify(name)}`);
    const keys = index?.get(value);
    if (!keys) return [];
    return [...keys].map((k) => this.store.get(k)!).filter(Boolean);
  }

  /** Stops watching; resolves when the loop and running handlers are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.resyncTimer?.cancel();
    this.watcher.stop();
    await this.running;
    await this.delivered();
    await this.checkpoint?.close();
  }

  private async run(): Promise<void> {
    this.scheduleResync();
    for await (const batch of this.watcher.batches()) {
      for (const e of batch) {
        if (this.watcher.stopped) return;
        this.apply(e);
        // Wait for async handlers before reading on: backpressure reaches the socket.
        if (this.waiting) await this.delivered();
      }
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

  /** Swaps in a new list and delivers the differences. */
  private replace(next: Map<string, T>): void {
    const old = this.store;
    this.store = next;
    this.rebuildIndexes();
    this.listed = true;
    const changes: Array<(seq: number) => void | Promise<void>> = [];
    for (const [key, obj] of next) {
      const before = old.get(key);
      if (!before) changes.push((seq) => this.emitAdd(obj, seq));
      else if (resourceVersionOf(before) !== resourceVersionOf(obj))
        changes.push((seq) => this.emitUpdate(before, obj, seq));
    }
    for (const [key, obj] of old) {
      if (!next.has(key)) changes.push((seq) => this.emitDelete(obj, true, seq));
    }
    const first = !this.hasSynced;
    const done = () => {
      if (!first) return;
      this.hasSynced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    };
    this.enqueue((seq) => {
      const pending = inOrder(changes, (c) => c(seq));
      return pending ? pending.then(done) : done();
    });
  }

  private applyOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    this.store.set(key, obj);
    this.reindex(key, before, obj);
    if (!before) this.enqueue((seq) => this.emitAdd(obj, seq));
    else if (resourceVersionOf(before) !== resourceVersionOf(obj)) {
      if (this.pumping || this.waiting) this.enqueue((seq) => this.emitUpdate(before, obj, seq));
      else this.deliverUpdate(before, obj);
    }
  }

  /**
   * {@link Informer.enqueue} of an update with nothing queued ahead of it, as
   * most are on a busy stream, without the closures and promise checks per
   * handler that the general path allocates for every event.
   */
  private deliverUpdate(before: T, after: T): void {
    const seq = ++this.queued;
    this.pumping = true;
    let pending: Promise<void> | undefined;
    try {
      // An array walked by index: a Map iterator allocates per step, for every event.
      this.handlerList ??= [...this.handlers.keys()];
      const list = this.handlerList;
      for (let i = 0; i < list.length; i++) {
        const h = list[i];
        const since = this.handlers.get(h);
        // Removed during delivery, or added after this notification was queued.
        if (since === undefined || since >= seq || !h.update) continue;
        let result: void | Promise<void>;
        try {
          result = h.update(before, after);
        } catch (err) {
          this.handlerFailed(err, 'update');
          continue;
        }
        if (result) {
          // An async handler: the others follow it, as emit() does.
          const rest = list
            .slice(i + 1)
            .map((x): [InformerHandlers<T>, number] => [x, this.handlers.get(x) ?? seq]);
          pending = result
            .then(undefined, (err: unknown) => this.handlerFailed(err, 'update'))
            .then(() => this.emit(seq, 'update', (x) => x.update?.(before, after), rest[Symbol.iterator]()));
          break;
        }
      }
    } finally {
      this.pumping = false;
    }
    if (pending) this.suspend(pending);
    else if (this.work.length > 0) this.pump();
  }

  private deleteOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    if (!before) return;
    this.store.delete(key);
    this.unindex(key, before);
    this.enqueue((seq) => this.emitDelete(obj, false, seq));
  }

  private emitAdd(obj: T, seq: number): void | Promise<void> {
    return this.emit(seq, 'add', (h) => h.add?.(obj));
  }

  private emitUpdate(before: T, after: T, seq: number): void | Promise<void> {
    return this.emit(seq, 'update', (h) => h.update?.(before, after));
  }

  private emitDelete(obj: T, finalStateUnknown: boolean, seq: number): void | Promise<void> {
    return this.emit(seq, 'delete', (h) => h.delete?.(obj, { finalStateUnknown }));
  }

  /**
   * Calls each handler added before notification `seq` was queued, in turn; a
   * promise only if one of them is async (the rest then follow it).
   */
  private emit(
    seq: number,
    event: HandlerEvent,
    invoke: (h: InformerHandlers<T>) => void | Promise<void>,
    handlers: Iterator<[InformerHandlers<T>, number]> = this.handlers.entries(),
  ): void | Promise<void> {
    for (let next = handlers.next(); !next.done; next = handlers.next()) {
      const [h, since] = next.value;
      if (since >= seq) continue;
      // As call(), without a closure per handler and object (a list delivers thousands).
      let result: void | Promise<void>;
      try {
        result = invoke(h);
      } catch (err) {
        this.handlerFailed(err, event);
        continue;
      }
      if (result)
        return result
          .then(undefined, (err: unknown) => this.handlerFailed(err, event))
          .then(() => this.emit(seq, event, invoke, handlers));
    }
  }

  /** Runs one handler; a failure is counted and reported, never thrown. A promise only for an async handler. */
  private call(fn: () => void | Promise<void>, event: HandlerEvent): void | Promise<void> {
    try {
      const result = fn();
      if (result) return result.then(undefined, (err: unknown) => this.handlerFailed(err, event));
    } catch (err) {
      this.handlerFailed(err, event);
    }
  }

  private handlerFailed(err: unknown, event: HandlerEvent): void {
    this.handlerErrors++;
    this.opts.logger?.error?.(
      { err: (err as Error)?.message ?? String(err), event },
      'informer handler failed',
    );
    this.opts.onHandlerError?.(err, event);
  }

  private enqueue(work: (seq: number) => void | Promise<void>): void {
    const seq = ++this.queued;
    if (this.pumping || this.waiting) {
      this.work.push(() => work(seq));
      return;
    }
    // Nothing ahead of it: deliver now, without queueing.
    this.pumping = true;
    let pending: void | Promise<void>;
    try {
      pending = work(seq);
    } finally {
      this.pumping = false;
    }
    if (pending) this.suspend(pending);
    else if (this.work.length > 0) this.pump();
  }

  /** Holds delivery until `pending` (an async handler) settles. */
  private suspend(pending: Promise<void>): void {
    this.waiting = pending.then(() => {
      this.waiting = undefined;
      this.pump();
    });
  }

  /**
   * Delivers queued notifications in order, at once while handlers are
   * synchronous (no promise per event: most handlers only enqueue a key). An
   * async handler suspends delivery until it settles; a handler that causes a
   * notification (e.g. calls `on()`) only queues it, behind its own.
   */
  private pump(): void {
    this.pumping = true;
    try {
      for (let work = this.work.shift(); work; work = this.work.shift()) {
        const pending = work();
        if (pending) {
          this.suspend(pending);
          return;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Resolves once every queued notification has been delivered. */
  private async delivered(): Promise<void> {
    while (this.waiting) await this.waiting;
  }

  private scheduleResync(): void {
    const period = this.opts.resyncPeriodMs;
    if (!period || this.stopped) return;
    this.resyncTimer = this.clock.setTimeout(() => {
      if (this.stopped) return;
      const objects = [...this.store.values()];
      this.enqueue((seq) => inOrder(objects, (o) => this.emitUpdate(o, o, seq)));
      this.scheduleResync();
    }, period);
  }

  private rebuildIndexes(): void {
    this.indexes = new Map();
    for (const [key, obj] of this.store) this.index(key, obj);
  }

  /** Moves `key` from `before`'s index values to `after`'s, leaving alone the indexes whose values are unchanged. */
  private reindex(key: string, before: T | undefined, after: T): void {
    if (!before) {
      this.index(key, after);
      return;
    }
    for (const [name, fn] of this.updateIndexerList) {
      const old = fn(before);
      const now = fn(after);
      if (old.length === now.length && old.every((v, i) => v === now[i])) continue;
      this.unindexValues(name, key, old);
      this.indexValues(name, key, now);
    }
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of this.indexerList) this.indexValues(name, key, fn(obj));
  }

  private indexValues(name: string, key: string, values: string[]): void {
    let index = this.indexes.get(name);
    if (!index) {
      index = new Map();
      this.indexes.set(name, index);
    }
    for (const value of values) {
      let set = index.get(value);
      if (!set) {
        set = new Set();
        index.set(value, set);
      }
      set.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexerList) this.unindexValues(name, key, fn(obj));
  }

  private unindexValues(name: string, key: string, values: string[]): void {
    const index = this.indexes.get(name);
    if (!index) return;
    for (const value of values) {
      const set = index.get(value);
      set?.delete(key);
      if (set && set.size === 0) index.delete(value);
    }
  }
}

type HandlerEvent = 'add' | 'update' | 'delete';

/** The built-in `namespace` index. */
const byNamespace = (object: KubeObject): string[] => [cacheMeta(object)?.namespace ?? ''];

/** Runs `step` on each item in turn, waiting for it only when it returns a promise. */
function inOrder<X>(items: X[], step: (item: X) => void | Promise<void>, from = 0): void | Promise<void> {
  for (let i = from; i < items.length; i++) {
    const pending = step(items[i]);
    if (pending) return pending.then(() => inOrder(items, step, i + 1));
  }
}
