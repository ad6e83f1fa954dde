/**
 * One deployment sync after its ReplicaSets are known (kube's
 * `syncDeployment` tail, rolling.go, recreate.go, progress.go): which path
 * runs, the rolling-update steps bounded by maxSurge/maxUnavailable, the
 * recreate steps, and the status write with the Progressing condition.
 */
import { ControllerError } from '../core/controller.js';
import {
  type Condition,
  type Deployment,
  type DeploymentStatus,
  findCondition,
  isDeleting,
  keyOf,
  type Pod,
  type ReplicaSet,
  semanticEqual,
} from '../core/objects.js';
import { cleanupDeployment, type ScalingOps, scale } from './scaling.js';
import {
  calculateStatus,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  hasProgressDeadline,
  newCondition,
  Reasons,
  removeCondition,
  setCondition,
  statusOf,
} from './status.js';
import {
  activeReplicaSets,
  actualReplicas,
  byCreation,
  countedAvailable,
  desiredReplicasAnnotation,
  maxUnavailable,
  newRSNewReplicas,
  replicas,
  specReplicas,
} from './util.js';

/** What a sync needs from the deployment controller. */
export interface RolloutOps extends ScalingOps {
  now(): number;
  /** The live (not terminated) pods a ReplicaSet controls, from the pod cache. */
  podsOf(rs: ReplicaSet): Pod[];
  requeueAfter(d: Deployment, ms: number): void;
  replicaSetsAndSyncRevision(
    d: Deployment,
    rsList: ReplicaSet[],
    create: boolean,
  ): Promise<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }>;
  writeStatus(d: Deployment): Promise<void>;
}

/** The tail of `syncDeployment`: deleting, paused, scaling, or a rollout by strategy. */
export async function dispatch(ops: RolloutOps, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  if (isDeleting(d)) {
    const { newRS, oldRSs } = await ops.replicaSetsAndSyncRevision(d, rsList, false);
    return syncStatus(ops, d, withNew(oldRSs, newRS), newRS);
  }
  await checkPausedConditions(ops, d);
  if (d.spec.paused || (await isScalingEvent(ops, d, rsList))) return syncScaling(ops, d, rsList);
  if (d.spec.strategy?.type === 'Recreate') return rolloutRecreate(ops, d, rsList);
  return rolloutRolling(ops, d, rsList);
}

function withNew(oldRSs: ReplicaSet[], newRS: ReplicaSet | undefined): ReplicaSet[] {
  return newRS ? [...oldRSs, newRS] : [...oldRSs];
}

/** `checkPausedConditions`: Progressing Unknown with DeploymentPaused / DeploymentResumed. */
async function checkPausedConditions(ops: RolloutOps, d: Deployment): Promise<void> {
  if (!hasProgressDeadline(d)) return;
  const cond = findCondition(d.status?.conditions, 'Progressing');
  // A reported deadline stays reported: pausing does not hide it.
  if (cond?.reason === Reasons.ProgressDeadlineExceeded) return;
  const pausedCond = cond?.reason === Reasons.DeploymentPaused;
  let c: Condition | undefined;
  if (d.spec.paused && !pausedCond) {
    c = newCondition('Progressing', 'Unknown', Reasons.DeploymentPaused, 'Deployment is paused', ops.now());
  } else if (!d.spec.paused && pausedCond) {
    c = newCondition('Progressing', 'Unknown', Reasons.DeploymentResumed, 'Deployment is resumed', ops.now());
  }
  if (!c) return;
  setCondition(statusOf(d), c);
  await ops.writeStatus(d);
}

/** `isScalingEvent`: an active ReplicaSet was sized for another replica count. */
async function isScalingEvent(ops: RolloutOps, d: Deployment, rsList: ReplicaSet[]): Promise<boolean> {
  const { newRS, oldRSs } = await ops.replicaSetsAndSyncRevision(d, rsList, false);
  return activeReplicaSets(withNew(oldRSs, newRS)).some((rs) => {
    const desired = desiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== replicas(d);
  });
}

/** kube's `sync`: scale without rolling (also the whole of a paused Deployment's sync). */
async function syncScaling(ops: RolloutOps, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await ops.replicaSetsAndSyncRevision(d, rsList, false);
  await scale(ops, d, newRS, oldRSs);
  if (d.spec.paused) await cleanupDeployment(ops, oldRSs, d);
  await syncStatus(ops, d, withNew(oldRSs, newRS), newRS);
}

/** `syncDeploymentStatus`: counts and Available only. */
async function syncStatus(
  ops: RolloutOps,
  d: Deployment,
  all: ReplicaSet[],
  newRS?: ReplicaSet,
): Promise<void> {
  const status = calculateStatus(d, all, newRS, ops.now());
  if (semanticEqual(d.status ?? {}, status)) return;
  d.status = status;
  await ops.writeStatus(d);
}

// --- RollingUpdate (rolling.go) ---

async function rolloutRolling(ops: RolloutOps, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await ops.replicaSetsAndSyncRevision(d, rsList, true);
  // Unreachable unless the server accepted a create and then hid it: fail loudly, retry later.
  if (!newRS)
    throw new ControllerError('deployment-controller', keyOf(d), 'no new ReplicaSet after creating one');
  const all = [...oldRSs, newRS];
  if (await reconcileNewReplicaSet(ops, all, newRS, d)) return syncRolloutStatus(ops, all, newRS, d);
  if (await reconcileOldReplicaSets(ops, all, activeReplicaSets(oldRSs), newRS, d))
    return syncRolloutStatus(ops, all, newRS, d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(ops, oldRSs, d);
  return syncRolloutStatus(ops, all, newRS, d);
}

async function reconcileNewReplicaSet(
  ops: RolloutOps,
  all: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  if (replicas(newRS) === replicas(d)) return false;
  if (replicas(newRS) > replicas(d)) return ops.scaleReplicaSetAndRecordEvent(newRS, replicas(d), d);
  const next = newRSNewReplicas(d, all, newRS, (rs) => ops.podsOf(rs).length);
  return ops.scaleReplicaSetAndRecordEvent(newRS, next, d);
}

/**
 * `reconcileOldReplicaSets`: scale old ReplicaSets down as far as
 * maxUnavailable allows, unhealthy replicas first.
 */
async function reconcileOldReplicaSets(
  ops: RolloutOps,
  all: ReplicaSet[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): Promise<boolean> {
  if (specReplicas(oldRSs) === 0) return false;
  const minAvailable = replicas(d) - maxUnavailable(d);
  const newRSUnavailable = replicas(newRS) - Math.min(replicas(newRS), newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = specReplicas(all) - minAvailable - newRSUnavailable;
  if (maxScaledDown <= 0) return false;
  const cleaned = await cleanupUnhealthyReplicas(ops, oldRSs, d, maxScaledDown);
  const scaled = await scaleDownOldForRollingUpdate(ops, all, oldRSs, d);
  return cleaned + scaled > 0;
}

/** Scales old ReplicaSets down by their unavailable replicas (they cost no availability). */
async function cleanupUnhealthyReplicas(
  ops: RolloutOps,
  oldRSs: ReplicaSet[],
  d: Deployment,
  maxCleanup: number,
): Promise<number> {
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= maxCleanup) break;
    const available = Math.min(replicas(rs), rs.status?.availableReplicas ?? 0);
    if (replicas(rs) === 0 || replicas(rs) === available) continue;
    const count = Math.min(maxCleanup - total, replicas(rs) - available);
    await ops.scaleReplicaSetAndRecordEvent(rs, replicas(rs) - count, d);
    total += count;
  }
  return total;
}

/** Scales old ReplicaSets down while more than minAvailable replicas are available. */
async function scaleDownOldForRollingUpdate(
  ops: RolloutOps,
  all: ReplicaSet[],
  oldRSs: ReplicaSet[],
  d: Deployment,
): Promise<number> {
  const minAvailable = replicas(d) - maxUnavailable(d);
  const available = countedAvailable(all);
  if (available <= minAvailable) return 0;
  const target = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= target) break;
    if (replicas(rs) === 0) continue;
    const count = Math.min(replicas(rs), target - total);
    await ops.scaleReplicaSetAndRecordEvent(rs, replicas(rs) - count, d);
    total += count;
  }
  return total;
}

// --- Recreate (recreate.go) ---

async function rolloutRecreate(ops: RolloutOps, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  let { newRS, oldRSs } = await ops.replicaSetsAndSyncRevision(d, rsList, false);
  let all = withNew(oldRSs, newRS);
  let scaledDown = false;
  for (const rs of activeReplicaSets(oldRSs)) {
    if (await ops.scaleReplicaSetAndRecordEvent(rs, 0, d)) scaledDown = true;
  }
  if (scaledDown) return syncRolloutStatus(ops, all, newRS, d);
  // Every old pod must be gone before a new one is created.
  if (actualReplicas(oldRSs) > 0 || oldRSs.some((rs) => ops.podsOf(rs).length > 0))
    return syncRolloutStatus(ops, all, newRS, d);
  if (!newRS) {
    ({ newRS, oldRSs } = await ops.replicaSetsAndSyncRevision(d, rsList, true));
    all = withNew(oldRSs, newRS);
  }
  if (newRS) await ops.scaleReplicaSetAndRecordEvent(newRS, replicas(d), d);
  if (deploymentComplete(d, d.status ?? {})) await cleanupDeployment(ops, oldRSs, d);
  return syncRolloutStatus(ops, all, newRS, d);
}

// --- status with progress (progress.go) ---

function replicaFailure(all: ReplicaSet[], newRS: ReplicaSet | undefined): Condition | undefined {
  const failed = (rs: ReplicaSet) => findCondition(rs.status?.conditions, 'ReplicaFailure');
  const c = (newRS && failed(newRS)) ?? all.map(failed).find(Boolean);
  if (!c) return undefined;
  return { ...c, lastUpdateTime: c.lastTransitionTime };
}

/** `syncRolloutStatus`: counts, Available, Progressing (and its deadline), ReplicaFailure. */
async function syncRolloutStatus(
  ops: RolloutOps,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): Promise<void> {
  const now = ops.now();
  const status = calculateStatus(d, all, newRS, now);
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
  const current = findCondition(d.status?.conditions, 'Progressing');
  const complete =
    status.replicas === status.updatedReplicas && current?.reason === Reasons.NewReplicaSetAvailable;
  if (hasProgressDeadline(d) && !complete) {
    const subject = newRS ? `ReplicaSet "${newRS.metadata?.name}"` : `Deployment "${d.metadata?.name}"`;
    if (deploymentComplete(d, status)) {
      const msg = `${subject} has successfully progressed.`;
      setCondition(status, newCondition('Progressing', 'True', Reasons.NewReplicaSetAvailable, msg, now));
    } else if (deploymentProgressing(d, status)) {
      const c = newCondition(
        'Progressing',
        'True',
        Reasons.ReplicaSetUpdated,
        `${subject} is progressing.`,
        now,
      );
      // Progress refreshes lastUpdateTime (the deadline counts from it), so replace the condition.
      if (current) {
        if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
        removeCondition(status, 'Progressing');
      }
      setCondition(status, c);
    } else if (deploymentTimedOut(d, status, now)) {
      const msg = `${subject} has timed out progressing.`;
      setCondition(status, newCondition('Progressing', 'False', Reasons.ProgressDeadlineExceeded, msg, now));
    }
  }
  const failure = replicaFailure(all, newRS);
  if (failure) setCondition(status, failure);
  else removeCondition(status, 'ReplicaFailure');
  if (semanticEqual(d.status ?? {}, status)) return requeueStuck(ops, d, status);
  d.status = status;
  await ops.writeStatus(d);
}

/** `requeueStuckDeployment`: check again when the progress deadline falls due. */
function requeueStuck(ops: RolloutOps, d: Deployment, status: DeploymentStatus): void {
  const current = findCondition(d.status?.conditions, 'Progressing');
  if (!hasProgressDeadline(d) || !current || deploymentComplete(d, status)) return;
  if (current.reason === Reasons.ProgressDeadlineExceeded) return;
  const from = Date.parse(current.lastUpdateTime ?? '');
  if (!Number.isFinite(from)) return;
  const due = from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - ops.now();
  // A little past due: the deadline test is strict (lastUpdateTime + deadline < now).
  ops.requeueAfter(d, Math.max(due, 0) + 50);
}
