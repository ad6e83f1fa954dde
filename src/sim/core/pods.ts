/**
 * Pod predicates the controllers share (kube's pkg/api/v1/pod and
 * controller_utils.go): ready, available, active, and the order in which
 * a ReplicaSet gives pods up when scaling down.
 */
import { findCondition, type Pod } from './objects.js';

/** Ready condition True. */
export function isPodReady(pod: Pod): boolean {
  return findCondition(pod.status?.conditions, 'Ready')?.status === 'True';
}

/** Ready for at least minReadySeconds (`IsPodAvailable`). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const since = Date.parse(findCondition(pod.status?.conditions, 'Ready')?.lastTransitionTime ?? '');
  return Number.isFinite(since) && since + minReadySeconds * 1000 < nowMs;
}

/** Not terminated and not being deleted (`FilterActivePods`). */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** Not terminated (it still occupies its node). */
export function isPodTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function restarts(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);
}

function deletionCost(pod: Pod): number {
  const v = Number(pod.metadata?.annotations?.['controller.kubernetes.io/pod-deletion-cost']);
  return Number.isFinite(v) ? v : 0;
}

/**
 * `ActivePodsWithRanks.Less` (without the "doubled up on a node" rank):
 * negative when `a` should be deleted before `b`. Unscheduled before
 * scheduled, Pending before Running, not ready before ready, cheaper
 * deletion cost first, ready for less time first, more restarts first,
 * newer first.
 */
export function deletionOrder(a: Pod, b: Pod): number {
  const aNode = Boolean(a.spec.nodeName);
  const bNode = Boolean(b.spec.nodeName);
  if (aNode !== bNode) return aNode ? 1 : -1;
  const pa = PHASE_RANK[a.status?.phase ?? 'Pending'] ?? 0;
  const pb = PHASE_RANK[b.status?.phase ?? 'Pending'] ?? 0;
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  if (deletionCost(a) !== deletionCost(b)) return deletionCost(a) - deletionCost(b);
  if (ra && rb) {
    const ta = findCondition(a.status?.conditions, 'Ready')?.lastTransitionTime ?? '';
    const tb = findCondition(b.status?.conditions, 'Ready')?.lastTransitionTime ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
  }
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  const ca = a.metadata?.creationTimestamp ?? '';
  const cb = b.metadata?.creationTimestamp ?? '';
  if (ca !== cb) return ca > cb ? -1 : 1;
  return 0;
}
