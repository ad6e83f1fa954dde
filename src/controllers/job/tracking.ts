/**
 * Counting finished pods without losing or repeating one (pkg/controller/job/job_controller.go
 * `trackJobStatusAndRemoveFinalizers`, `flushUncountedAndRemoveFinalizers`, `enactJobFinished`):
 * a finished pod's uid goes into `status.uncountedTerminatedPods` first (an Indexed Job's
 * succeeded index into `completedIndexes`), that status is written, then the pod's tracking
 * finalizer comes off, and only then the uid moves into the `succeeded`/`failed` counters. The
 * interim FailureTarget or SuccessCriteriaMet condition is written with the first write; the
 * final Failed or Complete condition once no pod is uncounted or terminating.
 */

import {
  ensureCondition,
  isIndexed,
  isPodFailed,
  newCondition,
  type SyncContext,
  type SyncDeps,
} from './context.js';
import { completionIndex, formatIndexes, hasIndex, withIndexes } from './indexes.js';
import { hasTrackingFinalizer, type Pod } from './pods.js';
import { matchPodFailurePolicy } from './policies.js';
import type { Job, JobStatus } from './types.js';

/** The most uids `uncountedTerminatedPods` holds at once (`MaxUncountedPods`). */
export const MAX_UNCOUNTED_PODS = 500;

/** See the module comment; `needsFlush` says the status changed already. */
export async function trackStatusAndRemoveFinalizers(
  deps: SyncDeps,
  ctx: SyncContext,
  needsFlushIn: boolean,
): Promise<void> {
  let needsFlush = needsFlushIn;
  const job = ctx.job;
  const indexed = isIndexed(job);
  const completions = job.spec?.completions ?? 0;
  const pods = indexed
    ? [...ctx.pods].sort(
        (a, b) => completionIndex(a.metadata?.annotations) - completionIndex(b.metadata?.annotations),
      )
    : ctx.pods;
  const withFinalizer = new Set<string>();
  for (const p of pods) {
    const uid = p.metadata?.uid ?? '';
    if (hasTrackingFinalizer(p) && !ctx.expectedRemovals.has(uid)) withFinalizer.add(uid);
  }
  const status = job.status!;
  status.uncountedTerminatedPods ??= {};
  const uncounted = status.uncountedTerminatedPods;
  if (cleanUncounted(status, withFinalizer)) needsFlush = true;
  const toRemove: Pod[] = [];
  const newSucceededIndexes: number[] = [];
  let reachedMax = false;
  for (const p of pods) {
    const uid = p.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(p) || ctx.expectedRemovals.has(uid)) continue;
    const failed = isPodFailed(p, job);
    if (!canRemoveFinalizer(ctx, p, failed)) continue;
    toRemove.push(p);
    const ix = completionIndex(p.metadata?.annotations);
    if (p.status?.phase === 'Succeeded' && !ctx.uncountedFailed.has(uid)) {
      if (indexed) {
        if (ix >= 0 && ix < completions && !hasIndex(ctx.prevSucceededIndexes, ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!ctx.uncountedSucceeded.has(uid)) {
        needsFlush = true;
        uncounted.succeeded = [...(uncounted.succeeded ?? []), uid];
      }
    } else if (failed || (ctx.finished && ctx.finished.type !== 'SuccessCriteriaMet')) {
      // Once the Job is finished, every pod not terminated is counted as failed.
      if (!ctx.uncountedFailed.has(uid) && (!indexed || (ix >= 0 && ix < completions))) {
        if (matchPodFailurePolicy(job.spec?.podFailurePolicy, p).countFailed) {
          needsFlush = true;
          uncounted.failed = [...(uncounted.failed ?? []), uid];
        }
      }
    }
    const pending =
      newSucceededIndexes.length + (uncounted.succeeded?.length ?? 0) + (uncounted.failed?.length ?? 0);
    if (pending >= MAX_UNCOUNTED_PODS) {
      reachedMax = true;
      break;
    }
  }
  if (indexed) {
    ctx.succeededIndexes = withIndexes(
      ctx.succeededIndexes,
      newSucceededIndexes.sort((a, b) => a - b),
    );
    const text = formatIndexes(ctx.succeededIndexes);
    if (text !== (status.completedIndexes ?? '')) needsFlush = true;
    status.succeeded = ctx.succeededIndexes.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
    status.completedIndexes = text;
    const failedText = ctx.failedIndexes ? formatIndexes(ctx.failedIndexes) : undefined;
    if (failedText !== (status.failedIndexes ?? undefined)) {
      status.failedIndexes = failedText;
      needsFlush = true;
    }
  }
  const now = deps.clock.now();
  if (ctx.finished?.type === 'FailureTarget') {
    status.conditions = [...(status.conditions ?? []), ctx.finished];
    needsFlush = true;
    ctx.finished = newCondition('Failed', 'True', ctx.finished.reason ?? '', ctx.finished.message ?? '', now);
  }
  if (ctx.finished?.type === 'SuccessCriteriaMet' && ctx.finished.status === 'True') {
    if (!(status.conditions ?? []).some((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True')) {
      status.conditions = [...(status.conditions ?? []), ctx.finished];
      needsFlush = true;
    }
    ctx.finished = newCondition(
      'Complete',
      'True',
      ctx.finished.reason ?? '',
      ctx.finished.message ?? '',
      now,
    );
  }
  const flushed = await flushAndRemoveFinalizers(deps, ctx, toRemove, withFinalizer, needsFlush);
  needsFlush = flushed.needsFlush;
  const finished = !reachedMax && enactFinished(ctx, now);
  if (finished) needsFlush = true;
  if (needsFlush) {
    await deps.updateStatus(ctx.job);
    if (finished) {
      recordFinished(deps, ctx);
      deps.finishedJobs.add(ctx.job.metadata?.uid ?? '');
    }
  }
  if (flushed.error) throw flushed.error;
}

/**
 * `canRemoveFinalizer`: the Job is going or finished, the pod succeeded, or the pod failed and is
 * not its index's pod kept until a replacement carries the failure count (backoffLimitPerIndex).
 */
function canRemoveFinalizer(ctx: SyncContext, p: Pod, failed: boolean): boolean {
  if (ctx.job.metadata?.deletionTimestamp || ctx.finished || p.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  const kept = ctx.delayedDeletion.get(completionIndex(p.metadata?.annotations));
  return kept === undefined || kept.metadata?.uid !== p.metadata?.uid;
}

/** `cleanUncountedPodsWithoutFinalizers`: uids whose finalizer is gone move into the counters. */
function cleanUncounted(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  status.uncountedTerminatedPods ??= {};
  const uncounted = status.uncountedTerminatedPods;
  let changed = false;
  const keepS = (uncounted.succeeded ?? []).filter((u) => withFinalizer.has(u));
  if (keepS.length !== (uncounted.succeeded ?? []).length) {
    changed = true;
    status.succeeded = (status.succeeded ?? 0) + (uncounted.succeeded ?? []).length - keepS.length;
    uncounted.succeeded = keepS.length > 0 ? keepS : undefined;
  }
  const keepF = (uncounted.failed ?? []).filter((u) => withFinalizer.has(u));
  if (keepF.length !== (uncounted.failed ?? []).length) {
    changed = true;
    status.failed = (status.failed ?? 0) + (uncounted.failed ?? []).length - keepF.length;
    uncounted.failed = keepF.length > 0 ? keepF : undefined;
  }
  if (uncounted.succeeded === undefined) delete uncounted.succeeded;
  if (uncounted.failed === undefined) delete uncounted.failed;
  return changed;
}

/** `flushUncountedAndRemoveFinalizers`: write the uncounted uids, remove finalizers, count what came off. */
async function flushAndRemoveFinalizers(
  deps: SyncDeps,
  ctx: SyncContext,
  toRemove: Pod[],
  withFinalizer: Set<string>,
  needsFlushIn: boolean,
): Promise<{ needsFlush: boolean; error?: unknown }> {
  let needsFlush = needsFlushIn;
  if (needsFlush) {
    ctx.job = answered(await deps.updateStatus(ctx.job));
    deps.backoff.set(ctx.key, ctx.newBackoff);
    needsFlush = false;
  }
  let error: unknown;
  if (toRemove.length > 0) {
    deps.expectations.expectFinalizersRemoved(
      ctx.key,
      toRemove.map((p) => p.metadata?.uid ?? ''),
    );
    await Promise.all(
      toRemove.map(async (p) => {
        try {
          await deps.removeFinalizer(p);
          withFinalizer.delete(p.metadata?.uid ?? '');
        } catch (err) {
          deps.expectations.finalizerRemovalObserved(ctx.key, p.metadata?.uid ?? '');
          error ??= err;
        }
      }),
    );
  }
  if (cleanUncounted(ctx.job.status!, withFinalizer)) needsFlush = true;
  if (error && needsFlush) ctx.job = answered(await deps.updateStatus(ctx.job));
  return { needsFlush, error };
}

/** The Job the server answered, to go on from (as upstream takes UpdateStatus's answer), its uncounted list ensured. */
function answered(job: Job): Job {
  job.status ??= {};
  job.status.uncountedTerminatedPods ??= {};
  return job;
}

/** `enactJobFinished`: the final condition, once nothing is uncounted or terminating. */
function enactFinished(ctx: SyncContext, now: number): boolean {
  const cond = ctx.finished;
  if (!cond) return false;
  const status = ctx.job.status!;
  const u = status.uncountedTerminatedPods;
  if ((u?.succeeded?.length ?? 0) + (u?.failed?.length ?? 0) > 0) return false;
  if (ctx.terminating > 0) return false;
  const r = ensureCondition(
    status.conditions ?? [],
    cond.type,
    cond.status,
    cond.reason ?? '',
    cond.message ?? '',
    now,
  );
  status.conditions = r.list;
  if (cond.type === 'Complete') status.completionTime = cond.lastTransitionTime ?? undefined;
  return true;
}

/** `recordJobFinished`: the events of a finished Job. */
function recordFinished(deps: SyncDeps, ctx: SyncContext): void {
  const job = ctx.job;
  const cond = ctx.finished!;
  if (cond.type === 'Complete') {
    const completions = job.spec?.completions;
    if (completions !== undefined && (job.status?.succeeded ?? 0) > completions)
      deps.event(
        job,
        'Warning',
        'TooManySucceededPods',
        'Too many succeeded pods running after completion count reached',
      );
    deps.event(job, 'Normal', 'Completed', 'Job completed');
  } else {
    deps.event(job, 'Warning', cond.reason ?? '', cond.message ?? '');
  }
}
