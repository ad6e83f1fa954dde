/**
 * client-go's `UIDTrackingControllerExpectations` (pkg/controller/
 * controller_utils.go): after a ReplicaSet sync creates N pods or deletes
 * some, the controller must not act again until its informer has seen those
 * creations and deletions, or it would count from a stale cache and create
 * (or delete) twice. Expectations expire after 5 minutes, in case a watch
 * event was lost for good.
 */
import type { Clock } from '../../protocol/clock.js';

const EXPECTATIONS_TTL_MS = 5 * 60_000;

interface Expectation {
  adds: number;
  deletes: Set<string>;
  at: number;
}

/** Pending creations and deletions per controller key. */
export class Expectations {
  private readonly clock: Clock;
  private readonly byKey = new Map<string, Expectation>();

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** True when `key` may sync: nothing pending, or the expectation is stale. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.adds <= 0 && e.deletes.size === 0) return true;
    return this.clock.now() - e.at > EXPECTATIONS_TTL_MS;
  }

  /** Expect `count` creations (replacing what was expected before). */
  expectCreations(key: string, count: number): void {
    this.byKey.set(key, { adds: count, deletes: new Set(), at: this.clock.now() });
  }

  /** Expect the deletion of these pods (by `namespace/name`). */
  expectDeletions(key: string, podKeys: string[]): void {
    this.byKey.set(key, { adds: 0, deletes: new Set(podKeys), at: this.clock.now() });
  }

  /** One creation was seen (or will never happen: the create failed). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.adds--;
  }

  /** The deletion of `podKey` was seen (or failed because the pod was gone). */
  deletionObserved(key: string, podKey: string): void {
    this.byKey.get(key)?.deletes.delete(podKey);
  }

  /** Forgets `key` (its controller object is gone). */
  delete(key: string): void {
    this.byKey.delete(key);
  }
}
