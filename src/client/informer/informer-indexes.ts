/**
 * An informer's indexes (client-go's Indexer): for each indexer, index value
 * -> the cache keys of the objects that have it. An index is built on its
 * first query and kept current from then on; until then no event pays for it
 * (most informers never query one).
 */
import type { KubeObject } from '../../protocol/events.js';
import { cacheMeta } from '../watch/lazy-decode.js';

/** An index function: the index values of an object. */
export type Indexer<T extends KubeObject> = (object: T) => string[];

/** The built-in `namespace` index. */
const byNamespace = (object: KubeObject): string[] => [cacheMeta(object)?.namespace ?? ''];

/** The indexes of one informer's cache, kept current by the informer as its store changes. */
export class InformerIndexes<T extends KubeObject> {
  private readonly indexers: Record<string, Indexer<T>>;
  /** The indexes built so far, by name: value -> keys. */
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  /** The built indexes' functions (the namespace index's only when built); walked for every change. */
  private built: Array<[string, Indexer<T>]> = [];

  /** `indexers`: the user's, besides the built-in `namespace`. */
  constructor(indexers: Record<string, Indexer<T>> = {}) {
    this.indexers = { namespace: byNamespace, ...indexers };
  }

  /** Objects of `store` whose index `name` has `value`; builds the index from `store` on first use. */
  byIndex(name: string, value: string, store: Map<string, T>): T[] {
    const fn = this.indexers[name];
    if (!fn) throw new Error(`no indexer named ${JSON.stringify(name)}`);
    let index = this.indexes.get(name);
    if (!index) {
      index = new Map();
      this.indexes.set(name, index);
      this.built.push([name, fn]);
      for (const [key, obj] of store) addValues(index, key, fn(obj));
    }
    const keys = index.get(value);
    if (!keys) return [];
    return [...keys].map((k) => store.get(k)!).filter(Boolean);
  }

  /** After a list: the built indexes again, from the new store. */
  rebuild(store: Map<string, T>): void {
    for (const [name, fn] of this.built) {
      const index = new Map<string, Set<string>>();
      this.indexes.set(name, index);
      for (const [key, obj] of store) addValues(index, key, fn(obj));
    }
  }

  /** Moves `key` from `before`'s index values to `after`'s, leaving alone the indexes whose values are unchanged. */
  update(key: string, before: T | undefined, after: T): void {
    const built = this.built;
    for (let i = 0; i < built.length; i++) {
      const [name, fn] = built[i];
      // The key holds the namespace, so an update never moves an object in the namespace index.
      if (before && fn === byNamespace) continue;
      const index = this.indexes.get(name)!;
      const now = fn(after);
      if (before) {
        const old = fn(before);
        if (old.length === now.length && old.every((v, j) => v === now[j])) continue;
        removeValues(index, key, old);
      }
      addValues(index, key, now);
    }
  }

  /** Takes `key` (last seen as `obj`) out of every built index. */
  remove(key: string, obj: T): void {
    for (const [name, fn] of this.built) removeValues(this.indexes.get(name)!, key, fn(obj));
  }
}

function addValues(index: Map<string, Set<string>>, key: string, values: string[]): void {
  for (const value of values) {
    let set = index.get(value);
    if (!set) {
      set = new Set();
      index.set(value, set);
    }
    set.add(key);
  }
}

function removeValues(index: Map<string, Set<string>>, key: string, values: string[]): void {
  for (const value of values) {
    const set = index.get(value);
    set?.delete(key);
    if (set && set.size === 0) index.delete(value);
  }
}
