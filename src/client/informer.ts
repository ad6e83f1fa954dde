import { type Clock, systemClock, type TimerHandle } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import type { ListWatchSource } from './listwatch.js';
import { Watcher, type WatcherOptions } from './watcher.js';

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
}

/** `namespace/name`, or `name` for cluster-scoped objects: the cache key. */
export function objectKey(object: KubeObject): string {
  const m = object.metadata ?? {};
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
  /** Handler failures so far. */
  handlerErrors = 0;
  private store = new Map<string, T>();
  private readonly indexers: Record<string, (object: T) => string[]>;
  private indexes = new Map<string, Map<string, Set<string>>>();
  private readonly handlers = new Set<InformerHandlers<T>>();
  private readonly opts: InformerOptions<T>;
  private readonly clock: Clock;
  private pending: Map<string, T> | undefined;
  private hasSynced = false;
  private syncWaiters: Array<() => void> = [];
  private running: Promise<void> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private resyncTimer: TimerHandle | undefined;
  private stopped = false;

  constructor(source: ListWatchSource, opts: InformerOptions<T> = {}) {
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    this.watcher = new Watcher<T>(source, opts);
    this.indexers = { namespace: (o) => [o.metadata?.namespace ?? ''], ...opts.indexers };
  }

  /** Adds handlers (they first get `add` for every cached object, as client-go). Returns a remover. */
  on(handlers: InformerHandlers<T>): () => void {
    this.handlers.add(handlers);
    if (this.hasSynced && handlers.add) {
      const objects = [...this.store.values()];
      this.enqueue(async () => {
        for (const o of objects) await this.call(() => handlers.add?.(o), 'add');
      });
    }
    return () => this.handlers.delete(handlers);
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
    await this.chain;
  }

  private async run(): Promise<void> {
    this.scheduleResync();
    for await (const e of this.watcher) {
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
      // Wait for handlers before reading on: backpressure reaches the socket.
      await this.chain;
    }
  }

  /** Swaps in a new list and delivers the differences. */
  private replace(next: Map<string, T>): void {
    const old = this.store;
    this.store = next;
    this.rebuildIndexes();
    const changes: Array<() => Promise<void>> = [];
    for (const [key, obj] of next) {
      const before = old.get(key);
      if (!before) changes.push(() => this.emitAdd(obj));
      else if (before.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        changes.push(() => this.emitUpdate(before, obj));
    }
    for (const [key, obj] of old) {
      if (!next.has(key)) changes.push(() => this.emitDelete(obj, true));
    }
    const first = !this.hasSynced;
    this.enqueue(async () => {
      for (const c of changes) await c();
      if (first) {
        this.hasSynced = true;
        for (const w of this.syncWaiters.splice(0)) w();
      }
    });
  }

  private applyOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    this.store.set(key, obj);
    if (before) this.unindex(key, before);
    this.index(key, obj);
    if (!before) this.enqueue(() => this.emitAdd(obj));
    else if (before.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
      this.enqueue(() => this.emitUpdate(before, obj));
  }

  private deleteOne(obj: T): void {
    const key = objectKey(obj);
    const before = this.store.get(key);
    if (!before) return;
    this.store.delete(key);
    this.unindex(key, before);
    this.enqueue(() => this.emitDelete(obj, false));
  }

  private async emitAdd(obj: T): Promise<void> {
    for (const h of this.handlers) await this.call(() => h.add?.(obj), 'add');
  }

  private async emitUpdate(before: T, after: T): Promise<void> {
    for (const h of this.handlers) await this.call(() => h.update?.(before, after), 'update');
  }

  private async emitDelete(obj: T, finalStateUnknown: boolean): Promise<void> {
    for (const h of this.handlers) await this.call(() => h.delete?.(obj, { finalStateUnknown }), 'delete');
  }

  private async call(fn: () => void | Promise<void>, event: 'add' | 'update' | 'delete'): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.handlerErrors++;
      this.opts.logger?.error?.(
        { err: (err as Error)?.message ?? String(err), event },
        'informer handler failed',
      );
      this.opts.onHandlerError?.(err, event);
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work);
  }

  private scheduleResync(): void {
    const period = this.opts.resyncPeriodMs;
    if (!period || this.stopped) return;
    this.resyncTimer = this.clock.setTimeout(() => {
      if (this.stopped) return;
      const objects = [...this.store.values()];
      this.enqueue(async () => {
        for (const o of objects) await this.emitUpdate(o, o);
      });
      this.scheduleResync();
    }, period);
  }

  private rebuildIndexes(): void {
    this.indexes = new Map();
    for (const [key, obj] of this.store) this.index(key, obj);
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      let index = this.indexes.get(name);
      if (!index) {
        index = new Map();
        this.indexes.set(name, index);
      }
      for (const value of fn(obj)) {
        let set = index.get(value);
        if (!set) {
          set = new Set();
          index.set(value, set);
        }
        set.add(key);
      }
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indexes.get(name);
      if (!index) continue;
      for (const value of fn(obj)) {
        const set = index.get(value);
        set?.delete(key);
        if (set && set.size === 0) index.delete(value);
      }
    }
  }
}
