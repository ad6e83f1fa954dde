import type { KubeObject } from '../../protocol/events.js';
import type { CacheEvent } from './event.js';
import type { CacheWatcher, DispatchField } from './watcher.js';

/** Reads a dispatch field from an object. */
function fieldOf(field: DispatchField, obj: KubeObject | undefined): string | undefined {
  if (!obj) return undefined;
  switch (field) {
    case 'metadata.namespace':
      return obj.metadata?.namespace;
    case 'metadata.name':
      return obj.metadata?.name;
    case 'spec.nodeName': {
      const spec = obj.spec as { nodeName?: unknown } | undefined;
      return typeof spec?.nodeName === 'string' ? spec.nodeName : undefined;
    }
  }
}

/**
 * Watchers indexed by the exact value they select (node name, object name,
 * namespace), so that a write costs work for the watchers it can concern, not
 * for every open watcher: with 5,000 kubelet watches a pod update visits one
 * of them. Watchers without an indexable filter are visited for every event.
 */
export class DispatchIndex {
  private readonly indexed = new Map<DispatchField, Map<string, Set<CacheWatcher>>>();
  private readonly unindexed = new Set<CacheWatcher>();
  private count = 0;

  /** Number of watchers registered. */
  get size(): number {
    return this.count;
  }

  add(w: CacheWatcher): void {
    this.count++;
    const index = w.filter.index;
    if (!index) {
      this.unindexed.add(w);
      return;
    }
    let byValue = this.indexed.get(index.field);
    if (!byValue) {
      byValue = new Map();
      this.indexed.set(index.field, byValue);
    }
    let set = byValue.get(index.value);
    if (!set) {
      set = new Set();
      byValue.set(index.value, set);
    }
    set.add(w);
  }

  remove(w: CacheWatcher): void {
    const index = w.filter.index;
    if (!index) {
      if (this.unindexed.delete(w)) this.count--;
      return;
    }
    const set = this.indexed.get(index.field)?.get(index.value);
    if (set?.delete(w)) {
      this.count--;
      if (set.size === 0) this.indexed.get(index.field)!.delete(index.value);
    }
  }

  /** Every registered watcher. */
  all(): CacheWatcher[] {
    const out = [...this.unindexed];
    for (const byValue of this.indexed.values()) for (const set of byValue.values()) out.push(...set);
    return out;
  }

  /** Delivers `event` to the watchers it may concern: those indexed by its old or new value, and the unindexed. */
  dispatch(event: CacheEvent): void {
    for (const w of [...this.unindexed]) w.deliver(event);
    for (const [field, byValue] of this.indexed) {
      const now = fieldOf(field, event.object);
      const before = fieldOf(field, event.prevObject);
      const a = now === undefined ? undefined : byValue.get(now);
      if (a) for (const w of [...a]) w.deliver(event);
      if (before !== undefined && before !== now) {
        const b = byValue.get(before);
        if (b) for (const w of [...b]) w.deliver(event);
      }
    }
  }
}
