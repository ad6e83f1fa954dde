import {
  type Store,
  StoreError,
  type StoreEvent,
  type StoreKV,
  type StoreListOptions,
  type StoreListResult,
  type StoreWatch,
} from './types.js';

/** One version of a key (written once, never changed); `value` undefined is a tombstone (the key was deleted at `modRevision`). */
export interface Version {
  modRevision: number;
  createRevision: number;
  value?: string;
}

/**
 * The whole of a {@link MemoryStore} at one revision: every key's versions since the
 * compaction, and the change history store watches resume from. Plain data (JSON-safe: a
 * tombstone's missing `value` stays missing through a JSON round trip), sharing nothing the
 * store changes later: the arrays are copies and their entries are never changed in place.
 */
export interface MemoryStoreSnapshot {
  format: 'watchmark.memory-store/v1';
  revision: number;
  compactedRevision: number;
  versions: Array<[key: string, versions: Version[]]>;
  changes: StoreEvent[];
}

interface Subscriber {
  onEvents: (events: StoreEvent[]) => void;
  closed: boolean;
}

/**
 * The embedded default store: an in-memory MVCC map with one global revision
 * counter, like etcd. Every key keeps its versions until compaction, so reads
 * at an older revision (exact-RV lists, continue tokens) work for as long as on
 * etcd. Keys are kept sorted for ordered, paginated range reads.
 */
export class MemoryStore implements Store {
  readonly name = 'memory';
  private revision = 1;
  private compacted = 0;
  private readonly versions = new Map<string, Version[]>();
  /** All keys ever written and not yet compacted away; sorted lazily (see {@link keys}). */
  private sortedKeys: string[] = [];
  private keysDirty = false;
  /** History of changes since `compacted`, for watches that start in the past. */
  private changes: StoreEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async get(key: string, revision?: number): Promise<StoreKV | undefined> {
    const rev = this.readRevision(revision);
    return this.versionAt(key, rev);
  }

  async list(prefix: string, options: StoreListOptions = {}): Promise<StoreListResult> {
    const rev = this.readRevision(options.revision);
    const start = options.startKey && options.startKey > prefix ? options.startKey : prefix;
    const limit = options.limit && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
    const items: StoreKV[] = [];
    const keys = this.keys();
    let i = lowerBound(keys, start);
    let more = false;
    let remaining = 0;
    for (; i < keys.length; i++) {
      const key = keys[i];
      if (!key.startsWith(prefix)) break;
      const kv = this.versionAt(key, rev);
      if (!kv) continue;
      if (items.length < limit) {
        items.push(kv);
      } else {
        more = true;
        remaining++;
      }
    }
    return { items, revision: rev, more, remaining: more ? remaining : 0 };
  }

  async create(key: string, value: string): Promise<StoreKV> {
    const current = this.latest(key);
    if (current?.value !== undefined) throw new StoreError('exists', `key ${key} already exists`);
    const rev = ++this.revision;
    this.append(key, { modRevision: rev, createRevision: rev, value });
    this.publish({ type: 'put', key, revision: rev, value, createRevision: rev });
    return { key, value, modRevision: rev, createRevision: rev };
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<StoreKV> {
    const current = this.latest(key);
    if (current?.value === undefined) throw new StoreError('not-found', `key ${key} not found`);
    if (current.modRevision !== expectedModRevision) {
      throw new StoreError(
        'conflict',
        `key ${key} is at revision ${current.modRevision}, not ${expectedModRevision}`,
      );
    }
    const rev = ++this.revision;
    this.append(key, { modRevision: rev, createRevision: current.createRevision, value });
    this.publish({
      type: 'put',
      key,
      revision: rev,
      value,
      prevValue: current.value,
      createRevision: current.createRevision,
    });
    return { key, value, modRevision: rev, createRevision: current.createRevision };
  }

  async delete(key: string, expectedModRevision?: number): Promise<StoreKV> {
    const current = this.latest(key);
    if (current?.value === undefined) throw new StoreError('not-found', `key ${key} not found`);
    if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
      throw new StoreError(
        'conflict',
        `key ${key} is at revision ${current.modRevision}, not ${expectedModRevision}`,
      );
    }
    const rev = ++this.revision;
    this.append(key, { modRevision: rev, createRevision: current.createRevision, value: undefined });
    this.publish({ type: 'delete', key, revision: rev, prevValue: current.value });
    return { key, value: current.value, modRevision: rev, createRevision: current.createRevision };
  }

  watch(
    afterRevision: number,
    onEvents: (events: StoreEvent[]) => void,
    onError: (err: Error) => void,
  ): StoreWatch {
    const sub: Subscriber = { onEvents, closed: false };
    if (afterRevision < this.compacted) {
      // etcd answers a watch from a compacted revision with ErrCompacted.
      queueMicrotask(() =>
        onError(
          new StoreError(
            'compacted',
            `required revision ${afterRevision + 1} has been compacted`,
            this.compacted,
          ),
        ),
      );
      return { close: () => {} };
    }
    const backlog = this.changes.filter((c) => c.revision > afterRevision);
    if (backlog.length > 0) onEvents(backlog);
    this.subscribers.add(sub);
    return {
      close: () => {
        sub.closed = true;
        this.subscribers.delete(sub);
      },
    };
  }

  async compact(revision: number): Promise<void> {
    const target = Math.min(revision, this.revision);
    if (target <= this.compacted) return;
    this.compacted = target;
    this.changes = this.changes.filter((c) => c.revision > target);
    const keep: string[] = [];
    for (const key of this.keys()) {
      const versions = this.versions.get(key)!;
      // Keep the newest version at or below the target (it is what a read at the
      // target sees) and everything after it.
      let first = 0;
      for (let i = versions.length - 1; i >= 0; i--) {
        if (versions[i].modRevision <= target) {
          first = i;
          break;
        }
      }
      const kept = versions.slice(first);
      if (kept.length === 1 && kept[0].value === undefined && kept[0].modRevision <= target) {
        this.versions.delete(key);
        continue;
      }
      this.versions.set(key, kept);
      keep.push(key);
    }
    this.sortedKeys = keep;
  }

  /**
   * Copies the whole state (see {@link MemoryStoreSnapshot}). Synchronous, so the copy is one
   * revision: etcd's snapshot (`etcdctl snapshot save`) is a consistent point too. Versions
   * and events are shared by reference: they are written once and never changed, and every
   * array holding them is copied here, so later writes never reach the snapshot.
   */
  snapshot(): MemoryStoreSnapshot {
    const versions: MemoryStoreSnapshot['versions'] = [];
    for (const [key, list] of this.versions) versions.push([key, list.slice()]);
    return {
      format: 'watchmark.memory-store/v1',
      revision: this.revision,
      compactedRevision: this.compacted,
      versions,
      changes: this.changes.slice(),
    };
  }

  /**
   * Replaces the whole state with `snapshot`, as `etcdutl snapshot restore` brings a member
   * back at the snapshot's revision: the next write gets revision + 1. Open store watches
   * are not told (a restored etcd is a new cluster; its watchers start again): their owner
   * closes and reopens them.
   */
  restore(snapshot: MemoryStoreSnapshot): void {
    if (snapshot?.format !== 'watchmark.memory-store/v1') {
      throw new Error(`not a memory store snapshot (format ${JSON.stringify(snapshot?.format)})`);
    }
    this.revision = snapshot.revision;
    this.compacted = snapshot.compactedRevision;
    this.versions.clear();
    const keys: string[] = [];
    for (const [key, list] of snapshot.versions) {
      this.versions.set(key, list.slice());
      keys.push(key);
    }
    this.sortedKeys = keys;
    this.keysDirty = true;
    this.changes = snapshot.changes.slice();
  }

  async close(): Promise<void> {
    for (const sub of this.subscribers) sub.closed = true;
    this.subscribers.clear();
  }

  private readRevision(revision: number | undefined): number {
    if (!revision) return this.revision;
    if (revision < this.compacted) {
      throw new StoreError('compacted', `required revision ${revision} has been compacted`, this.compacted);
    }
    if (revision > this.revision) {
      throw new StoreError('future', `required revision ${revision} is a future revision`, this.revision);
    }
    return revision;
  }

  private latest(key: string): Version | undefined {
    const versions = this.versions.get(key);
    return versions?.[versions.length - 1];
  }

  private versionAt(key: string, rev: number): StoreKV | undefined {
    const versions = this.versions.get(key);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i];
      if (v.modRevision <= rev) {
        return v.value === undefined
          ? undefined
          : { key, value: v.value, modRevision: v.modRevision, createRevision: v.createRevision };
      }
    }
    return undefined;
  }

  private append(key: string, version: Version): void {
    const versions = this.versions.get(key);
    if (versions) {
      versions.push(version);
      return;
    }
    this.versions.set(key, [version]);
    // Appending and sorting on the next range read beats a sorted insert: bulk
    // creates (a 50,000-pod benchmark) would otherwise move O(n^2) pointers.
    this.sortedKeys.push(key);
    this.keysDirty = true;
  }

  /** The keys in order, sorting first if writes added keys since the last read. */
  private keys(): string[] {
    if (this.keysDirty) {
      this.sortedKeys.sort();
      this.keysDirty = false;
    }
    return this.sortedKeys;
  }

  private publish(event: StoreEvent): void {
    this.changes.push(event);
    for (const sub of this.subscribers) {
      if (!sub.closed) sub.onEvents([event]);
    }
  }
}

/** Index of the first element >= `key` in a sorted array. */
function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
