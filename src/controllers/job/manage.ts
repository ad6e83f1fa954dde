/**
 * `manageJob` (pkg/controller/job/job_controller.go): pods deleted or created toward the number a
 * Job wants active (parallelism, the completions left, none while suspended), the failure back-off
 * respected, Indexed Jobs' lowest missing indexes first, creations in slow-start batches.
 */
import {
  isIndexed,
  isSuspended,
  MAX_POD_CREATE_DELETE_PER_SYNC,
  onlyReplaceFailedPods,
  SYNC_BATCH_PERIOD_MS,
  type SyncContext,
  type SyncDeps,
} from './context.js';
import { completionIndex, firstPendingIndexes, mergeIntervals, withIndexes } from './indexes.js';
import { hasBackoffLimitPerIndex, indexesReadyNow, indexFailureAnnotations } from './per-index.js';
import {
  compareForRemoval,
  hasTrackingFinalizer,
  isReady,
  isTerminating,
  type Pod,
  podFromTemplate,
} from './pods.js';
import { backoffRemaining } from './policies.js';
import type { Job } from './types.js';

/** Deletes pods in parallel (`deleteActivePods`, or with `removeFinalizer` first `deleteJobPods`). */
export async function deleteActivePods(
  deps: SyncDeps,
  key: string,
  job: Job,
  pods: Pod[],
  removeFinalizer: boolean,
): Promise<{ deleted: number; deletedReady: number; error?: unknown }> {
  let deleted = 0;
  let deletedReady = 0;
  let error: unknown;
  await Promise.all(
    pods.map(async (p) => {
      try {
        if (removeFinalizer && hasTrackingFinalizer(p)) await deps.removeFinalizer(p);
        await deps.deletePod(job, p);
        deleted++;
      } catch (err) {
        if (removeFinalizer) deps.expectations.deletionObserved(key);
        error ??= err;
      }
      if (isReady(p)) deletedReady++;
    }),
  );
  return { deleted, deletedReady, error };
}

/** `activePodsForRemoval`: duplicated or out-of-range indexes first, then by `ActivePods` order. */
function podsForRemoval(job: Job, pods: Pod[], atLeast: number): Pod[] {
  const rm: Pod[] = [];
  let left = pods;
  if (isIndexed(job)) {
    const completions = job.spec?.completions ?? 0;
    left = [];
    const byIndex = new Map<number, Pod[]>();
    for (const p of pods) {
      const ix = completionIndex(p.metadata?.annotations);
      if (ix < 0 || ix >= completions) rm.push(p);
      else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
    }
    for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
      const same = [...byIndex.get(ix)!].sort(compareForRemoval);
      rm.push(...same.slice(0, -1));
      left.push(same.at(-1)!);
    }
  }
  if (rm.length < atLeast) rm.push(...[...left].sort(compareForRemoval).slice(0, atLeast - rm.length));
  return rm;
}

/** `manageJob`: deletes or creates pods toward the wanted number active; returns the number active. */
export async function manageJob(
  deps: SyncDeps,
  ctx: SyncContext,
): Promise<{ active: number; error?: unknown }> {
  const { job, key } = ctx;
  let active = ctx.activePods.length;
  const parallelism = job.spec?.parallelism ?? 1;
  if (isSuspended(job)) {
    const doomed = podsForRemoval(job, ctx.activePods, active);
    deps.expectations.expectDeletions(key, doomed.length);
    const r = await deleteActivePods(deps, key, job, doomed, true);
    ctx.terminating += r.deleted;
    ctx.ready -= r.deletedReady;
    return { active: active - r.deleted, error: r.error };
  }
  const completions = job.spec?.completions;
  let want: number;
  if (completions === undefined) want = ctx.succeeded > 0 ? active : parallelism;
  else want = Math.max(0, Math.min(completions - ctx.succeeded, parallelism));
  const doomed = podsForRemoval(job, ctx.activePods, Math.max(0, active - want)).slice(
    0,
    MAX_POD_CREATE_DELETE_PER_SYNC,
  );
  if (doomed.length > 0) {
    deps.expectations.expectDeletions(key, doomed.length);
    const r = await deleteActivePods(deps, key, job, doomed, true);
    ctx.terminating += r.deleted;
    ctx.ready -= r.deletedReady;
    return { active: active - r.deleted, error: r.error };
  }
  const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
  let diff = want - terminating - active;
  if (diff <= 0) return { active };
  // With backoffLimitPerIndex each index waits out its own back-off instead (below).
  const perIndex = hasBackoffLimitPerIndex(job);
  const remaining = perIndex ? 0 : backoffRemaining(ctx.newBackoff, deps.clock.now());
  if (remaining > 0) {
    deps.enqueueAfter(key, Math.max(remaining, SYNC_BATCH_PERIOD_MS));
    return { active };
  }
  diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
  let indexes: number[] = [];
  if (isIndexed(job)) {
    let nonPending = withIndexes(ctx.succeededIndexes, sortedIndexes(ctx.activePods));
    if (onlyReplaceFailedPods(job))
      nonPending = withIndexes(nonPending, sortedIndexes(ctx.pods.filter(isTerminating)));
    if (ctx.failedIndexes) nonPending = mergeIntervals(nonPending, ctx.failedIndexes);
    indexes = firstPendingIndexes(nonPending, diff, completions ?? 0);
    if (perIndex) {
      const r = indexesReadyNow(indexes, ctx.delayedDeletion, deps.clock.now());
      if (r.wait > 0) {
        deps.enqueueAfter(key, Math.max(r.wait, SYNC_BATCH_PERIOD_MS));
        return { active };
      }
      indexes = r.ready;
    }
    diff = indexes.length;
  }
  deps.expectations.expectCreations(key, diff);
  active += diff;
  let error: unknown;
  // Slow start: batches of 1, 2, 4 ... so a create that always fails fails once, not `diff` times.
  for (let batch = Math.min(diff, 1); diff > 0; batch = Math.min(2 * batch, diff)) {
    let failed = 0;
    await Promise.all(
      Array.from({ length: batch }, async () => {
        const ix = isIndexed(job) ? indexes.shift() : undefined;
        try {
          const pod = podFromTemplate(job, ix);
          if (perIndex && ix !== undefined)
            Object.assign(
              pod.metadata!.annotations!,
              indexFailureAnnotations(job, ctx.delayedDeletion.get(ix)),
            );
          await deps.createPod(job, pod);
        } catch (err) {
          deps.expectations.creationObserved(key);
          active--;
          failed++;
          error ??= err;
        }
      }),
    );
    const skipped = diff - batch;
    if (failed > 0 && skipped > 0) {
      active -= skipped;
      for (let i = 0; i < skipped; i++) deps.expectations.creationObserved(key);
      break;
    }
    diff -= batch;
  }
  return { active, error };
}

function sortedIndexes(pods: Pod[]): number[] {
  const set = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p.metadata?.annotations);
    if (ix >= 0) set.add(ix);
  }
  return [...set].sort((a, b) => a - b);
}
