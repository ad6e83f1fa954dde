/**
 * Scaling a Deployment that is not rolling out (kube's sync.go `scale`,
 * `cleanupDeployment`): one active ReplicaSet takes the new size outright;
 * several (a rollout in progress, or paused half way) share the change in
 * proportion to their size, as recorded in their max-replicas annotations.
 */
import { type Deployment, isDeleting, type ReplicaSet } from '../core/objects.js';
import {
  activeReplicaSets,
  byCreation,
  desiredReplicasAnnotation,
  isRollingUpdate,
  MAX_REPLICAS_ANNOTATION,
  maxSurge,
  replicas,
  revisionOf,
  specReplicas,
} from './util.js';

/** What scaling needs from the controller. */
export interface ScalingOps {
  scaleReplicaSetAndRecordEvent(rs: ReplicaSet, newScale: number, d: Deployment): Promise<boolean>;
  scaleReplicaSet(rs: ReplicaSet, newScale: number, d: Deployment): Promise<boolean>;
  deleteReplicaSet(rs: ReplicaSet): Promise<void>;
}

/** `FindActiveOrLatest`: the only active ReplicaSet, or the latest when none is active. */
function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort(byCreation).reverse();
  const all = activeReplicaSets(newRS ? [...newestFirst, newRS] : newestFirst);
  if (all.length === 0) return newRS ?? newestFirst[0];
  return all.length === 1 ? all[0] : undefined;
}

/** `IsSaturated`: the new ReplicaSet is at full size and fully available. */
function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const n = replicas(d);
  return (
    replicas(rs) === n && desiredReplicasAnnotation(rs) === n && (rs.status?.availableReplicas ?? 0) === n
  );
}

/** `getReplicaSetFraction`: how much of the change this ReplicaSet takes. */
function fraction(rs: ReplicaSet, d: Deployment): number {
  if (replicas(d) === 0) return -replicas(rs);
  const deploymentReplicas = replicas(d) + maxSurge(d);
  const annotated = Number(rs.metadata?.annotations?.[MAX_REPLICAS_ANNOTATION] ?? d.status?.replicas ?? 0);
  // Go would divide by zero here; a ReplicaSet with no record of its share takes none.
  if (!Number.isFinite(annotated) || annotated <= 0) return 0;
  return Math.round((replicas(rs) * deploymentReplicas) / annotated) - replicas(rs);
}

/** `GetProportion`. */
function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (replicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const f = fraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}

/** Larger first; equal sizes newer first (scaling up) or older first (scaling down). */
function bySize(newerFirst: boolean) {
  return (a: ReplicaSet, b: ReplicaSet): number => {
    if (replicas(a) !== replicas(b)) return replicas(b) - replicas(a);
    return newerFirst ? byCreation(b, a) : byCreation(a, b);
  };
}

/** kube's `scale`: see the module comment. */
export async function scale(
  ops: ScalingOps,
  d: Deployment,
  newRS: ReplicaSet | undefined,
  oldRSs: ReplicaSet[],
): Promise<void> {
  const only = findActiveOrLatest(newRS, oldRSs);
  if (only) {
    if (replicas(only) !== replicas(d)) await ops.scaleReplicaSetAndRecordEvent(only, replicas(d), d);
    return;
  }
  // The new ReplicaSet is saturated: the old ones can go.
  if (isSaturated(d, newRS)) {
    for (const old of activeReplicaSets(oldRSs)) await ops.scaleReplicaSetAndRecordEvent(old, 0, d);
    return;
  }
  if (!isRollingUpdate(d)) return;
  const all = activeReplicaSets(newRS ? [...oldRSs, newRS] : oldRSs);
  const allowed = replicas(d) > 0 ? replicas(d) + maxSurge(d) : 0;
  const toAdd = allowed - specReplicas(all);
  if (toAdd > 0) all.sort(bySize(true));
  else if (toAdd < 0) all.sort(bySize(false));
  const sizes = new Map<ReplicaSet, number>();
  let added = 0;
  for (const rs of all) {
    const p = toAdd !== 0 ? proportion(rs, d, toAdd, added) : 0;
    sizes.set(rs, replicas(rs) + p);
    added += p;
  }
  for (const [i, rs] of all.entries()) {
    let size = sizes.get(rs) ?? replicas(rs);
    // Rounding leftovers go to the largest ReplicaSet.
    if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
    await ops.scaleReplicaSet(rs, size, d);
  }
}

/** `cleanupDeployment`: deletes the oldest empty ReplicaSets beyond revisionHistoryLimit. */
export async function cleanupDeployment(ops: ScalingOps, oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
  const limit = d.spec.revisionHistoryLimit;
  if (limit === undefined || limit === null) return;
  const cleanable = oldRSs.filter((rs) => !isDeleting(rs));
  const diff = cleanable.length - limit;
  if (diff <= 0) return;
  cleanable.sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
  for (const rs of cleanable.slice(0, diff)) {
    // Never delete a ReplicaSet that still has (or may still have) pods.
    const busy =
      (rs.status?.replicas ?? 0) !== 0 ||
      replicas(rs) !== 0 ||
      (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0);
    if (!busy) await ops.deleteReplicaSet(rs);
  }
}
