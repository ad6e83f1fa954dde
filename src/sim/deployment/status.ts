/**
 * Deployment status and conditions, as kube's deployment controller computes
 * them (sync.go `calculateStatus`, progress.go, util's condition helpers):
 * `Available` from the minimum-availability rule, `Progressing` with the
 * reasons `kubectl rollout status` and `kubectl describe` show.
 */
import {
  type Condition,
  type Deployment,
  type DeploymentStatus,
  findCondition,
  type ReplicaSet,
  rfc3339,
} from '../core/objects.js';
import {
  actualReplicas,
  availableReplicas,
  maxUnavailable,
  readyReplicas,
  replicas,
  specReplicas,
} from './util.js';

/** Condition reasons (pkg/controller/deployment/util). */
export const Reasons = {
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewReplicaSet: 'FoundNewReplicaSet',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  NewReplicaSetAvailable: 'NewReplicaSetAvailable',
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',
  DeploymentPaused: 'DeploymentPaused',
  DeploymentResumed: 'DeploymentResumed',
  FailedRSCreate: 'ReplicaSetCreateError',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** `NewDeploymentCondition`: both times now. */
export function newCondition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  nowMs: number,
): Condition {
  const t = rfc3339(nowMs);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/**
 * `SetDeploymentCondition`: nothing changes when status and reason are the
 * same (so lastUpdateTime stays); lastTransitionTime survives a same-status
 * change; the condition moves to the end of the list.
 */
export function setCondition(status: DeploymentStatus, condition: Condition): void {
  const current = findCondition(status.conditions, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

/** The Deployment's status, created empty when absent (for writing). */
export function statusOf(d: Deployment): DeploymentStatus {
  if (!d.status) d.status = {};
  return d.status;
}

/** Removes the condition of `type`. */
export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
  if (status.conditions.length === 0) delete status.conditions;
}

/** Whether the Deployment has a progress deadline (kube treats MaxInt32 as none). */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== 2147483647;
}

/** `DeploymentComplete`: every replica updated, no old ones, all available, generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const n = replicas(d);
  return (
    (s.updatedReplicas ?? 0) === n &&
    (s.replicas ?? 0) === n &&
    (s.availableReplicas ?? 0) === n &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** `DeploymentProgressing`: more updated, fewer old, more ready or more available than before. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** `DeploymentTimedOut`: the Progressing condition has not been updated for progressDeadlineSeconds. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = findCondition(s.conditions, 'Progressing');
  if (!c) return false;
  if (c.reason === Reasons.NewReplicaSetAvailable) return false;
  if (c.reason === Reasons.ProgressDeadlineExceeded) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  return Number.isFinite(from) && from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}

/** Go's omitempty: zero counts are not written. */
function omitZero(s: DeploymentStatus): DeploymentStatus {
  for (const k of Object.keys(s) as Array<keyof DeploymentStatus>) {
    if (s[k] === 0 && k !== 'collisionCount') delete s[k];
  }
  return s;
}

/** `calculateStatus`: the counts from the ReplicaSets and the Available condition. */
export function calculateStatus(
  d: Deployment,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  nowMs: number,
): DeploymentStatus {
  const available = availableReplicas(all);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation,
    replicas: actualReplicas(all),
    updatedReplicas: newRS ? actualReplicas([newRS]) : 0,
    readyReplicas: readyReplicas(all),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicas(all) - available),
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions) status.conditions = structuredClone(d.status.conditions);
  if (available >= replicas(d) - maxUnavailable(d)) {
    setCondition(
      status,
      newCondition(
        'Available',
        'True',
        Reasons.MinimumReplicasAvailable,
        'Deployment has minimum availability.',
        nowMs,
      ),
    );
  } else {
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        Reasons.MinimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        nowMs,
      ),
    );
  }
  return omitZero(status);
}
