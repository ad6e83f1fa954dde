import { type Clock, systemClock, type TimerHandle } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { Checkpoint, type CheckpointOptions } from './checkpoint.js';
import { InformerIndexes } from './informer-indexes.js';
import { cacheMeta } from './lazy-decode.js';
import { type ListWatchSource, resourceVersionOf } from './listwatch.js';
import { Watcher } from './watcher.js';
import type { WatcherEvent, WatcherOptions } from './watcher-types.js';

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
  private readonly indexes: InformerIndexes<T>;
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
    return this.indexes.byIndex(name, value, this.store);
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
      if (this.waiting) return this.delivered().then(() => this.applyBatch(batch, i + 1));
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
    this.indexes.rebuild(next);
    this.listed = true;
    // The differences as a flat [event, a, b, ...] list: no closure or record per object
    // (a list delivers thousands), and delivered in the list's order, deletions last.
    const changes: Changes<T> = [];
    if (old.size === 0) {
      for (const obj of next.values()) changes.push('add', obj, undefined);
    } else {
      for (const [key, obj] of next) {
        const before = old.get(key);
        if (!before) changes.push('add', obj, undefined);
        else if (resourceVersionOf(before) !== resourceVersionOf(obj)) changes.push('update', before, obj);
      }
      for (const [key, obj] of old) {
        if (!next.has(key)) changes.push('deleteFinalStateUnknown', obj, undefined);
      }
    }
    const first = !this.hasSynced;
    const done = () => {
      if (!first) return;
      this.hasSynced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    };
    this.enqueue((seq) => {
      const pending = this.emitAll(seq, changes, 0);
      return pending ? pending.then(done) : done();
    });
  }

  private applyOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    this.store.set(key, obj);
    this.indexes.update(key, before, obj);
    if (!before) this.notify('add', obj, undefined);
    else if (resourceVersionOf(before) !== resourceVersionOf(obj)) this.notify('update', before, obj);
  }

  private deleteOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    if (!before) return;
    this.store.delete(key);
    this.indexes.remove(key, before);
    this.notify('delete', obj, undefined);
  }

  /**
   * Queues one notification ({@link Informer.enqueue}), without a closure when
   * nothing is queued ahead of it, as for most events of a busy stream.
   */
  private notify(event: Notification, a: T, b: T | undefined): void {
    if (this.pumping || this.waiting) {
      this.enqueue((seq) => this.emit(seq, event, a, b, 0, this.currentHandlers()));
      return;
    }
    const seq = ++this.queued;
    this.pumping = true;
    let pending: void | Promise<void>;
    try {
      pending = this.emit(seq, event, a, b, 0, this.currentHandlers());
    } finally {
      this.pumping = false;
    }
    if (pending) this.suspend(pending);
    else if (this.work.length > 0) this.pump();
  }

  /** Delivers `changes[from..]` ([event, a, b] triples) in turn; a promise only if a handler is async. */
  private emitAll(seq: number, changes: Changes<T>, from: number): void | Promise<void> {
    const handlers = this.currentHandlers();
    for (let i = from; i < changes.length; i += 3) {
      const event = changes[i] as Notification;
      const pending = this.emit(
        seq,
        event,
        changes[i + 1] as T,
        changes[i + 2] as T | undefined,
        0,
        handlers,
      );
      if (pending) return pending.then(() => this.emitAll(seq, changes, i + 3));
    }
  }

  /** The handlers as an array (rebuilt only after `on()` or a removal): walked by index, no iterator per event. */
  private currentHandlers(): InformerHandlers<T>[] {
    this.handlerList ??= [...this.handlers.keys()];
    return this.handlerList;
  }

  /**
   * Calls each of `handlers[from..]` added before notification `seq` was
   * queued and not removed since, in turn; a promise only if one of them is
   * async (the rest then follow it). `a`, `b`: add (object), update (old,
   * new), delete (object).
   */
  private emit(
    seq: number,
    event: Notification,
    a: T,
    b: T | undefined,
    from: number,
    handlers: InformerHandlers<T>[],
  ): void | Promise<void> {
    for (let i = from; i < handlers.length; i++) {
      const h = handlers[i];
      const since = this.handlers.get(h);
      // Removed meanwhile, or added after this notification was queued (it got the object in its snapshot).
      if (since === undefined || since >= seq) continue;
      let result: void | Promise<void>;
      try {
        if (event === 'update') result = h.update?.(a, b as T);
        else if (event === 'add') result = h.add?.(a);
        else if (event === 'delete') result = h.delete?.(a, FINAL_STATE_KNOWN);
        else result = h.delete?.(a, FINAL_STATE_UNKNOWN);
      } catch (err) {
        this.handlerFailed(err, publicEvent(event));
        continue;
      }
      if (result)
        return result
          .then(undefined, (err: unknown) => this.handlerFailed(err, publicEvent(event)))
          .then(() => this.emit(seq, event, a, b, i + 1, handlers));
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
      // One resync at a time. Handlers slower than the period would otherwise queue resyncs
      // faster than they are delivered, and the watch, which waits for delivery, would never
      // be read again (client-go's listeners buffer instead; here the backlog would be the wait).
      if (!this.resyncPending) {
        this.resyncPending = true;
        const changes: Changes<T> = [];
        for (const o of this.store.values()) changes.push('update', o, o);
        this.enqueue((seq) => {
          const pending = this.emitAll(seq, changes, 0);
          if (!pending) {
            this.resyncPending = false;
            return;
          }
          return pending.then(() => {
            this.resyncPending = false;
          });
        });
      }
      this.scheduleResync();
    }, period);
  }
}

type HandlerEvent = 'add' | 'update' | 'delete';
/** What a handler is told: a delete of an object that vanished between two lists is told apart. */
type Notification = HandlerEvent | 'deleteFinalStateUnknown';
/** Notifications as flat `[notification, a, b]` triples (see {@link Informer.emit} for `a` and `b`). */
type Changes<T> = Array<Notification | T | undefined>;

const publicEvent = (n: Notification): HandlerEvent => (n === 'deleteFinalStateUnknown' ? 'delete' : n);
// Shared by every delete notification: frozen, so no handler can change another's.
const FINAL_STATE_KNOWN = Object.freeze({ finalStateUnknown: false });
const FINAL_STATE_UNKNOWN = Object.freeze({ finalStateUnknown: true });

/** Runs `step` on each item in turn, waiting for it only when it returns a promise. */
function inOrder<X>(items: X[], step: (item: X) => void | Promise<void>, from = 0): void | Promise<void> {
  for (let i = from; i < items.length; i++) {
    const pending = step(items[i]);
    if (pending) return pending.then(() => inOrder(items, step, i + 1));
  }
}
