/**
 * One sync of one Job, as pkg/controller/job/job_controller.go `syncJob` does it: count the pods
 * that finished since the last sync, decide whether the Job met its success criteria or failed
 * (the pod failure policy, backoffLimit, activeDeadlineSeconds, the success policy, completions),
 * create or delete pods to match parallelism (`manageJob`), and account the finished pods in the
 * status before their tracking finalizers come off (tracking.ts).
 */

import {
  ensureCondition,
  isIndexed,
  isPodFailed,
  isSuspended,
  newCondition,
  type SyncContext,
  type SyncDeps,
  validPods,
} from './context.js';
import { completionIndex, parseIndexes, totalIndexes, withIndexes } from './indexes.js';
import { deleteActivePods, manageJob } from './manage.js';
import { calculateFailedIndexes, hasBackoffLimitPerIndex, podsWithDelayedDeletion } from './per-index.js';
import { hasTrackingFinalizer, isActive, isReady, isTerminating, type Pod } from './pods.js';
import { matchPodFailurePolicy, matchSuccessPolicy, nextBackoffRecord } from './policies.js';
import { trackStatusAndRemoveFinalizers } from './tracking.js';
import { isJobFinished, JOB_CONTROLLER_NAME, type Job, rfc3339 } from './types.js';

/** Syncs the Job at `key` (see the module comment); throws to be retried. */
export async function syncJob(deps: SyncDeps, key: string): Promise<void> {
  const shared = deps.job(key);
  if (!shared) {
    deps.expectations.delete(key);
    deps.backoff.delete(key);
    return;
  }
  const managedBy = shared.spec?.managedBy;
  if (managedBy !== undefined && managedBy !== JOB_CONTROLLER_NAME) return;
  const job = structuredClone(shared);
  const uid = job.metadata?.uid ?? '';
  if (isJobFinished(job)) {
    deps.backoff.delete(key);
    deps.finishedJobs.delete(uid);
    return;
  }
  if (deps.finishedJobs.has(uid)) return;
  const mode = job.spec?.completionMode;
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
    deps.event(
      job,
      'Warning',
      'UnknownCompletionMode',
      'Skipped Job sync because completion mode is unknown',
    );
    return;
  }
  job.status ??= {};
  const status = job.status;
  status.uncountedTerminatedPods ??= {};
  const now = () => deps.clock.now();
  const satisfied = deps.expectations.satisfied(key);
  const pods = await deps.podsOf(job);
  const activePods = pods.filter(isActive);
  const ctx: SyncContext = {
    key,
    job,
    pods,
    activePods,
    ready: activePods.filter(isReady).length,
    uncountedSucceeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
    uncountedFailed: new Set(status.uncountedTerminatedPods.failed ?? []),
    expectedRemovals: deps.expectations.expectedFinalizerRemovals(key),
    terminating: pods.filter(isTerminating).length,
    succeeded: 0,
    failed: 0,
    prevSucceededIndexes: [],
    succeededIndexes: [],
    delayedDeletion: new Map(),
    newBackoff: { failuresAfterLastSuccess: 0 },
  };
  let active = activePods.length;
  const newSucceeded = validPods(ctx, ctx.uncountedSucceeded, (p) => p.status?.phase === 'Succeeded');
  const newFailed = validPods(ctx, ctx.uncountedFailed, (p) => isPodFailed(p, job));
  const policy = job.spec?.podFailurePolicy;
  const countedFailed = newFailed.filter((p) => matchPodFailurePolicy(policy, p).countFailed).length;
  ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncountedSucceeded.size;
  ctx.failed = (status.failed ?? 0) + countedFailed + ctx.uncountedFailed.size;
  if (!status.startTime && !isSuspended(job)) status.startTime = rfc3339(now());
  ctx.newBackoff = nextBackoffRecord(
    deps.backoff.get(key) ?? { failuresAfterLastSuccess: 0 },
    newSucceeded,
    newFailed,
  );

  // The order of evaluation: an earlier sync's verdict, then failures, then success.
  const backoffLimit = job.spec?.backoffLimit ?? 6;
  const conditions = status.conditions ?? [];
  ctx.finished = conditions.find((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True');
  if (!ctx.finished) {
    const target = conditions.find((c) => c.type === 'FailureTarget' && c.status === 'True');
    if (target) {
      ctx.finished = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now());
    } else {
      const message = failJobMessage(job, pods);
      if (message !== undefined)
        ctx.finished = newCondition('FailureTarget', 'True', 'PodFailurePolicy', message, now());
    }
  }
  if (!ctx.finished) {
    if (ctx.failed > backoffLimit || pastBackoffLimitOnFailure(job, pods)) {
      ctx.finished = newCondition(
        'FailureTarget',
        'True',
        'BackoffLimitExceeded',
        'Job has reached the specified backoff limit',
        now(),
      );
    } else if (pastActiveDeadline(job, now())) {
      ctx.finished = newCondition(
        'FailureTarget',
        'True',
        'DeadlineExceeded',
        'Job was active longer than specified deadline',
        now(),
      );
    } else if (job.spec?.activeDeadlineSeconds !== undefined && !isSuspended(job) && status.startTime) {
      const left = job.spec.activeDeadlineSeconds * 1000 - (now() - Date.parse(status.startTime));
      deps.enqueueAfter(key, left);
    }
  }
  const completions = job.spec?.completions;
  if (isIndexed(job) && completions !== undefined) {
    ctx.prevSucceededIndexes = parseIndexes(status.completedIndexes, completions);
    const fresh = new Set<number>();
    for (const p of pods) {
      const ix = completionIndex(p.metadata?.annotations);
      if (p.status?.phase === 'Succeeded' && ix >= 0 && ix < completions && hasTrackingFinalizer(p))
        fresh.add(ix);
    }
    ctx.succeededIndexes = withIndexes(
      ctx.prevSucceededIndexes,
      [...fresh].sort((a, b) => a - b),
    );
    ctx.succeeded = totalIndexes(ctx.succeededIndexes);
    if (hasBackoffLimitPerIndex(job)) evaluateFailedIndexes(ctx, completions, now());
    if (!ctx.finished) {
      const message = matchSuccessPolicy(job.spec?.successPolicy, completions, ctx.succeededIndexes);
      if (message !== undefined)
        ctx.finished = newCondition('SuccessCriteriaMet', 'True', 'SuccessPolicy', message, now());
    }
  }

  let suspendChanged = false;
  let manageError: unknown;
  if (ctx.finished) {
    const { deleted, deletedReady, error } = await deleteActivePods(deps, key, job, ctx.activePods, false);
    if (deleted !== active || !satisfied) ctx.finished = undefined;
    active -= deleted;
    ctx.terminating += deleted;
    ctx.ready -= deletedReady;
    manageError = error;
  } else {
    let managed = false;
    if (satisfied && !job.metadata?.deletionTimestamp) {
      const r = await manageJob(deps, ctx);
      active = r.active;
      manageError = r.error;
      managed = true;
    }
    const complete =
      completions === undefined
        ? ctx.succeeded > 0 && active === 0
        : ctx.succeeded >= completions && active === 0;
    if (complete) {
      ctx.finished = newCondition(
        'SuccessCriteriaMet',
        'True',
        'CompletionsReached',
        'Reached expected number of succeeded pods',
        now(),
      );
    } else if (managed) {
      const suspended = isSuspended(job);
      const r = suspended
        ? ensureCondition(
            status.conditions ?? [],
            'Suspended',
            'True',
            'JobSuspended',
            'Job suspended',
            now(),
          )
        : ensureCondition(status.conditions ?? [], 'Suspended', 'False', 'JobResumed', 'Job resumed', now());
      if (r.changed) {
        status.conditions = r.list;
        suspendChanged = true;
        if (suspended) {
          deps.event(job, 'Normal', 'Suspended', 'Job suspended');
          // MutableSchedulingDirectivesForSuspendedJobs (beta, on): a suspended Job has not started.
          delete status.startTime;
        } else {
          deps.event(job, 'Normal', 'Resumed', 'Job resumed');
          // activeDeadlineSeconds counts the time a Job is continuously active.
          status.startTime = rfc3339(now());
        }
      }
    }
  }
  const needsFlush =
    suspendChanged ||
    active !== (status.active ?? 0) ||
    status.ready !== ctx.ready ||
    status.terminating !== ctx.terminating;
  status.active = active;
  status.ready = ctx.ready;
  status.terminating = ctx.terminating;
  await trackStatusAndRemoveFinalizers(deps, ctx, needsFlush);
  if (manageError) throw manageError;
}

/**
 * backoffLimitPerIndex's verdicts (`syncJob`): more failed indexes than maxFailedIndexes fails the
 * Job; so does every index done with at least one failed.
 */
function evaluateFailedIndexes(ctx: SyncContext, completions: number, now: number): void {
  const job = ctx.job;
  ctx.failedIndexes = calculateFailedIndexes(job, ctx.pods);
  const failed = totalIndexes(ctx.failedIndexes);
  if (!ctx.finished) {
    const max = job.spec?.maxFailedIndexes;
    if (max !== undefined && max !== null && failed > max) {
      ctx.finished = newCondition(
        'FailureTarget',
        'True',
        'MaxFailedIndexesExceeded',
        'Job has exceeded the specified maximal number of failed indexes',
        now,
      );
    } else if (failed > 0 && failed + totalIndexes(ctx.succeededIndexes) >= completions) {
      ctx.finished = newCondition('FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes', now);
    }
  }
  ctx.delayedDeletion = podsWithDelayedDeletion(ctx);
}

function failJobMessage(job: Job, pods: Pod[]): string | undefined {
  if (!job.spec?.podFailurePolicy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, p).failJobMessage;
    if (m !== undefined) return m;
  }
  return undefined;
}

/** `pastBackoffLimitOnFailure`: with restartPolicy OnFailure, the running pods' container restarts reach backoffLimit. */
function pastBackoffLimitOnFailure(job: Job, pods: Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])])
      restarts += s.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function pastActiveDeadline(job: Job, now: number): boolean {
  const ads = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (ads === undefined || !start || isSuspended(job)) return false;
  return now - Date.parse(start) >= ads * 1000;
}
