/**
 * Snapshot and restore of a server over the memory store (`RunningServer.snapshot()` and
 * `restore()`, and the named snapshots of shelf.ts): the store's whole state, and the decoded
 * cache entries beside it so that a restore, or a new server started from the snapshot, need
 * not decode every object again.
 */
import type { CacheEntries, Cacher } from '../cache/cacher.js';
import { MemoryStore, type MemoryStoreSnapshot } from '../stores/memory.js';
import type { Store } from '../stores/types.js';

/**
 * The whole state of a server over the memory store, from {@link Snapshots.take}:
 * plain data (it survives `JSON.stringify` and `JSON.parse`), never changed by later writes.
 */
export interface ServerSnapshot {
  format: 'watchmark.server-snapshot/v1';
  /** The store's revision: the next write after a restore gets revision + 1. */
  revision: number;
  store: MemoryStoreSnapshot;
}

/** Why `doing` ("snapshots work", say) cannot be done over the store named `storeName` (any but memory). */
export function memoryStoreOnly(doing: string, storeName: string): string {
  return `${doing} over the memory store only; this server serves the ${storeName} store (use etcdctl snapshot save/restore there)`;
}

/**
 * The cache entries at each snapshot a server of this process took, for a restore, or a new
 * server started from the snapshot, to reuse instead of decoding every object again: entries
 * are immutable, and those of the built-in kinds (CustomResourceDefinitions among them) mean
 * the same to every server. A snapshot copied through JSON comes without them.
 */
const snapshotEntries = new WeakMap<ServerSnapshot, CacheEntries>();

/** The decoded entries of `snapshot`, when this process took it; undefined for a JSON copy. */
export function entriesOf(snapshot: ServerSnapshot | undefined): CacheEntries | undefined {
  return snapshot && snapshotEntries.get(snapshot);
}

/** A memory store holding `snapshot`'s state (`ServerOptions.startFrom`), or an empty one. */
export function storeFrom(snapshot: ServerSnapshot | undefined): MemoryStore {
  const store = new MemoryStore();
  if (snapshot === undefined) return store;
  checkSnapshot(snapshot, 'startFrom');
  store.restore(snapshot.store);
  return store;
}

/** Throws unless `snapshot` is what `snapshot()` returns (or its JSON copy). */
function checkSnapshot(snapshot: ServerSnapshot, what: string): void {
  if (snapshot?.format !== 'watchmark.server-snapshot/v1') {
    throw new Error(`${what} takes what snapshot() returned (format ${JSON.stringify(snapshot?.format)})`);
  }
}

/** The parts of a server a restore stops, swaps and starts again. */
export interface SnapshotParts {
  store: Store;
  cacher: Cacher;
  /** The server's door (faults/ `RequestGate`): new requests wait at it during a restore. */
  door: { close(): void; open(): void };
  /** True once the server is closed. */
  closed(): boolean;
  /** Waits for the work under way on the old state: requests being served, controllers, background passes. */
  quiesce(): Promise<void>;
  /** Forgets what was kept beside the old state, once the store holds the new one. */
  forget(): void;
  /** Starts over from the new state what the server starts at its start, once the caches hold it. */
  restart(): Promise<void>;
}

/** Snapshot and restore of one server. */
export class Snapshots {
  /** The last restore, so the next waits for it. */
  private restoring: Promise<void> = Promise.resolve();

  constructor(private readonly parts: SnapshotParts) {}

  /** The whole state now (memory store only). */
  async take(): Promise<ServerSnapshot> {
    const snap = this.memoryStore('snapshot').snapshot();
    const snapshot: ServerSnapshot = {
      format: 'watchmark.server-snapshot/v1',
      revision: snap.revision,
      store: snap,
    };
    // The memory store tells the caches of every write at once: they hold this very revision.
    snapshotEntries.set(snapshot, this.parts.cacher.captureEntries());
    return snapshot;
  }

  /**
   * New requests wait at the door while the state is swapped; those under way finish first, as
   * a graceful shutdown lets them. Then the store takes the snapshot, and everything kept
   * beside it starts over from the store as at a start: the watch caches (ending every watch),
   * and what `restart` starts (the served custom resources, the system namespaces, the
   * terminating namespaces' cleanup).
   */
  async restore(snapshot: ServerSnapshot): Promise<void> {
    const store = this.memoryStore('restore');
    checkSnapshot(snapshot, 'restore()');
    if (this.parts.closed()) throw new Error('restore(): the server is closed');
    // One at a time, in the order asked, so two at once leave the last one's state whole.
    const turn = this.restoring.then(() => this.restoreNow(store, snapshot));
    this.restoring = turn.catch(() => {});
    return turn;
  }

  private async restoreNow(store: MemoryStore, snapshot: ServerSnapshot): Promise<void> {
    const { door, cacher } = this.parts;
    door.close();
    try {
      await this.parts.quiesce();
      store.restore(snapshot.store);
      this.parts.forget();
      await cacher.reload(snapshotEntries.get(snapshot));
      await this.parts.restart();
    } finally {
      door.open();
    }
  }

  private memoryStore(what: string): MemoryStore {
    const { store } = this.parts;
    if (!(store instanceof MemoryStore)) throw new Error(memoryStoreOnly(`${what}() works`, store.name));
    return store;
  }
}
