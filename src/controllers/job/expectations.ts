/**
 * What the Job controller waits to see in its informer before it acts on a Job again
 * (pkg/controller/controller_utils.go `ControllerExpectations`, pkg/controller/job/tracking_utils.go
 * `uidTrackingExpectations`): the pods it created or deleted and not yet seen, and the pods whose
 * tracking finalizer it removed. Without them a sync that runs before the informer caught up
 * would create the same pods twice, or count a finished pod twice.
 */

/** How long creations and deletions are waited for before the controller acts anyway (`ExpectationsTimeout`). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expected {
  adds: number;
  dels: number;
  at: number;
}

/** Pod creations and deletions expected per Job key, and finalizer removals per Job key. */
export class Expectations {
  private readonly counts = new Map<string, Expected>();
  private readonly finalizers = new Map<string, Set<string>>();

  constructor(private readonly now: () => number) {}

  /** Whether the Job may be acted on: nothing pending, or waited long enough (`SatisfiedExpectations`). */
  satisfied(key: string): boolean {
    const e = this.counts.get(key);
    if (!e) return true;
    return (e.adds <= 0 && e.dels <= 0) || this.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  /** `ExpectCreations`. */
  expectCreations(key: string, n: number): void {
    this.counts.set(key, { adds: n, dels: 0, at: this.now() });
  }

  /** `ExpectDeletions`. */
  expectDeletions(key: string, n: number): void {
    this.counts.set(key, { adds: 0, dels: n, at: this.now() });
  }

  /** `CreationObserved` (also when a create failed: the informer will not see that pod). */
  creationObserved(key: string): void {
    const e = this.counts.get(key);
    if (e) e.adds--;
  }

  /** `DeletionObserved`. */
  deletionObserved(key: string): void {
    const e = this.counts.get(key);
    if (e) e.dels--;
  }

  /** Forgets a Job (deleted). */
  delete(key: string): void {
    this.counts.delete(key);
    this.finalizers.delete(key);
  }

  /** `expectFinalizersRemoved`. */
  expectFinalizersRemoved(key: string, uids: string[]): void {
    const set = this.finalizers.get(key) ?? new Set<string>();
    this.finalizers.set(key, set);
    for (const uid of uids) set.add(uid);
  }

  /** `finalizerRemovalObserved`. */
  finalizerRemovalObserved(key: string, uid: string): void {
    this.finalizers.get(key)?.delete(uid);
  }

  /** The pods whose finalizer removal is not seen yet (`getExpectedUIDs`). */
  expectedFinalizerRemovals(key: string): ReadonlySet<string> {
    return new Set(this.finalizers.get(key) ?? []);
  }
}
