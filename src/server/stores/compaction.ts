import type { Store } from './types.js';

/**
 * A store that lets several API servers compact it once per interval between
 * them (the etcd store: a compare-and-swap on a compaction key's version).
 */
export interface CoordinatedCompaction {
  /**
   * Compacts to `candidate` if the compaction key is still at `lastVersion`
   * (this server's turn), and answers the key's version and the store's
   * current revision either way.
   */
  compactIfTurn(lastVersion: number, candidate: number): Promise<{ version: number; revision: number }>;
}

function isCoordinated(store: Store): store is Store & CoordinatedCompaction {
  return typeof (store as Partial<CoordinatedCompaction>).compactIfTurn === 'function';
}

/**
 * kube-apiserver's compaction loop (storage/etcd3/compact.go), one tick per
 * `--compaction-interval`: each tick compacts to the revision the previous
 * tick saw, so exact reads and continue tokens stay valid for at least one
 * whole interval. Over etcd, the servers sharing a prefix race on the
 * compaction key: the first to tick wins the interval, and the others learn
 * the key's new version and wait for the next one, so the cluster compacts
 * once per interval however many servers it has.
 */
export class Compactor {
  private readonly store: Store;
  /** The compaction key's version this server last saw (its "time" in kube's terms). */
  private version = 0;
  /** The revision seen at the previous tick: the next compaction target. */
  private candidate = 0;

  constructor(store: Store) {
    this.store = store;
  }

  /** One tick: compacts when it is this server's turn and a previous tick left a target. */
  async tick(): Promise<void> {
    if (isCoordinated(this.store)) {
      const { version, revision } = await this.store.compactIfTurn(this.version, this.candidate);
      this.version = version;
      this.candidate = revision;
      return;
    }
    // A store of its own (memory): nobody to race with, every tick is ours.
    const target = this.candidate;
    this.candidate = await this.store.currentRevision();
    if (target > 0) await this.store.compact(target);
  }
}
