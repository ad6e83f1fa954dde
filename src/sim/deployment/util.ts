/**
 * The arithmetic of kube's deployment controller (pkg/controller/deployment/
 * util/deployment_util.go): surge and unavailability fenceposts, replica
 * sums over ReplicaSets, the annotations the controller keeps on them, and
 * finding the "new" ReplicaSet (the one whose template is the Deployment's).
 */
import {
  annotationsOf,
  type Deployment,
  type PodTemplate,
  type ReplicaSet,
  semanticEqual,
} from '../core/objects.js';

/** The revision a ReplicaSet (and its Deployment) is at. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
/** The Deployment's replicas when the ReplicaSet was last scaled (proportional scaling reads it). */
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
/** replicas + maxSurge when the ReplicaSet was last scaled. */
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** The label that tells ReplicaSets of one Deployment apart. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** Deployment annotations never copied onto ReplicaSets (kube's annotationsToSkip). */
const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  'deployment.kubernetes.io/revision-history',
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

/** A malformed intOrString (validation should have refused it). */
export class IntOrPercentError extends Error {
  constructor(value: unknown) {
    super(`invalid value for IntOrString: ${JSON.stringify(value)}`);
    this.name = 'IntOrPercentError';
  }
}

/** `intstr.GetScaledValueFromIntOrPercent`: 3 stays 3; "25%" of 10 is 3 rounded up, 2 rounded down. */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) throw new IntOrPercentError(value);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** spec.replicas (the server defaults it; 0 when absent). */
export function replicas(obj: Deployment | ReplicaSet): number {
  return obj.spec.replicas ?? 0;
}

/**
 * `ResolveFenceposts`: surge rounds up, unavailability down, and when both
 * come out 0 unavailability is 1, or a rollout could never make progress.
 */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const ru = d.spec.strategy?.rollingUpdate ?? {};
  const desired = replicas(d);
  const surge = scaledValue(ru.maxSurge, desired, true);
  let unavailable = scaledValue(ru.maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** Whether the Deployment rolls (the default) rather than recreates. */
export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** `MaxSurge`: 0 for Recreate. */
export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

/** `MaxUnavailable`: 0 for Recreate or 0 replicas, never above replicas. */
export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || replicas(d) === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicas(d));
}

/** Sum of spec.replicas. */
export function specReplicas(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + replicas(rs), 0);
}

/** Sum of status.replicas (pods that exist). */
export function actualReplicas(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
}

/** Sum of status.readyReplicas. */
export function readyReplicas(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + (rs.status?.readyReplicas ?? 0), 0);
}

/** Sum of status.availableReplicas. */
export function availableReplicas(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
}

/** ReplicaSets with replicas wanted. */
export function activeReplicaSets(rss: ReplicaSet[]): ReplicaSet[] {
  return rss.filter((rs) => replicas(rs) > 0);
}

/** Oldest first (creation time, then name), as `ReplicaSetsByCreationTimestamp`. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** The revision annotation as a number (0 when absent or malformed). */
export function revisionOf(obj: Deployment | ReplicaSet): number {
  const n = Number(obj.metadata?.annotations?.[REVISION_ANNOTATION]);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The highest revision among `rss`. */
export function maxRevision(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => Math.max(n, revisionOf(rs)), 0);
}

/** A template without the pod-template-hash label, for comparison. */
function withoutHash(template: PodTemplate | undefined): PodTemplate {
  const t = structuredClone(template ?? {});
  if (t.metadata?.labels) delete t.metadata.labels[POD_TEMPLATE_HASH_LABEL];
  return t;
}

/** `EqualIgnoreHash`: same template apart from the hash label. */
export function equalIgnoreHash(a: PodTemplate | undefined, b: PodTemplate | undefined): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

/** `FindNewReplicaSet`: the oldest ReplicaSet whose template is the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** Sets the desired/max replicas annotations; true if they changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = annotationsOf(rs);
  const changed =
    annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) ||
    annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
  annotations[MAX_REPLICAS_ANNOTATION] = String(max);
  return changed;
}

/** Whether the replicas annotations differ from `desired`/`max`. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata?.annotations ?? {};
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** The desired-replicas annotation, if valid. */
export function desiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  const v = rs.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION];
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) ? n : undefined;
}

/**
 * `SetNewReplicaSetAnnotations`: copies the Deployment's annotations,
 * raises the revision to `revision`, and on a new ReplicaSet sets the
 * replicas annotations. True if anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  revision: number,
  exists: boolean,
): boolean {
  const annotations = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (ANNOTATIONS_TO_SKIP.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  if (revisionOf(rs) < revision) {
    annotations[REVISION_ANNOTATION] = String(revision);
    changed = true;
  }
  if (!exists && setReplicasAnnotations(rs, replicas(d), replicas(d) + maxSurge(d))) changed = true;
  return changed;
}

/**
 * `NewRSNewReplicas`: how big the new ReplicaSet may be now. `podsOf` gives
 * the pods a ReplicaSet still has: kube sums spec.replicas only, which lets
 * a scale-up race ahead of the deletions an old ReplicaSet's scale-down
 * still owes; counting the larger of the two keeps the surge bound true of
 * the pods that actually exist, at every instant.
 */
export function newRSNewReplicas(
  d: Deployment,
  all: ReplicaSet[],
  newRS: ReplicaSet,
  podsOf: (rs: ReplicaSet) => number = () => 0,
): number {
  if (!isRollingUpdate(d)) return replicas(d);
  const maxTotal = replicas(d) + maxSurge(d);
  const current = all.reduce((n, rs) => n + Math.max(replicas(rs), podsOf(rs)), 0);
  if (current >= maxTotal) return replicas(newRS);
  const scaleUp = Math.min(maxTotal - current, replicas(d) - replicas(newRS));
  return replicas(newRS) + scaleUp;
}

/**
 * Available pods a ReplicaSet can be counted on for: its status, but never
 * more than its spec. Right after a scale-down its status still counts pods
 * it is about to delete; kube's controller reads the stale figure (and trips
 * over it in cleanupUnhealthyReplicas); bounding it keeps the
 * maxUnavailable promise at every instant.
 */
export function countedAvailable(rss: ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + Math.min(replicas(rs), rs.status?.availableReplicas ?? 0), 0);
}
