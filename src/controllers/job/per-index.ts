/**
 * `backoffLimitPerIndex` for Indexed Jobs (pkg/controller/job/indexed_job_utils.go and
 * backoff_utils.go): each index counts its own failures in the pod annotation
 * `batch.kubernetes.io/job-index-failure-count` (and failures a pod failure policy ignored in
 * `job-index-ignored-failure-count`), which a replacement pod inherits plus one; an index whose
 * pod failed with the count at the limit (or matched a FailIndex rule) is failed for good and
 * goes into `status.failedIndexes`. A failed pod's finalizer stays on until its replacement
 * exists, so the count can be read from it, and the replacement waits out the index's own
 * back-off.
 */
import { isPodFailed, type SyncContext, validPods } from './context.js';
import { completionIndex, hasIndex, type Intervals, parseIndexes, withIndexes } from './indexes.js';
import { finishedTime, hasTrackingFinalizer, type Pod } from './pods.js';
import { backoffForFailures, matchPodFailurePolicy } from './policies.js';
import type { Job } from './types.js';

/** The annotation counting an index's failures before this pod (`JobIndexFailureCountAnnotation`). */
export const INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
/** The annotation counting an index's failures a pod failure policy ignored (`JobIndexIgnoredFailureCountAnnotation`). */
export const INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count';

/** `hasBackoffLimitPerIndex`. */
export function hasBackoffLimitPerIndex(job: Job): boolean {
  return job.spec?.backoffLimitPerIndex !== undefined && job.spec.backoffLimitPerIndex !== null;
}

/** `parseInt32`: a count annotation's value; 0 when missing, not a number, negative or beyond int32. */
function countAnnotation(p: Pod, name: string): number {
  const v = p.metadata?.annotations?.[name];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > 2_147_483_647 ? 0 : n;
}

/** `getIndexFailureCount`. */
export function indexFailureCount(p: Pod): number {
  return countAnnotation(p, INDEX_FAILURE_COUNT);
}

/** `getIndexAbsoluteFailureCount`: counted and ignored failures together. */
export function indexAbsoluteFailureCount(p: Pod): number {
  return countAnnotation(p, INDEX_FAILURE_COUNT) + countAnnotation(p, INDEX_IGNORED_FAILURE_COUNT);
}

/** `isIndexFailed`: the pod failed on a FailIndex rule, or failed counted with its index's count at the limit. */
export function isIndexFailed(job: Job, p: Pod): boolean {
  if (!isPodFailed(p, job)) return false;
  const policy = job.spec?.podFailurePolicy;
  let counted = true;
  if (policy) {
    const m = matchPodFailurePolicy(policy, p);
    if (m.action === 'FailIndex') return true;
    counted = m.countFailed;
  }
  return counted && indexFailureCount(p) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/** `calculateFailedIndexes`: `status.failedIndexes` plus the indexes of pods newly failed for good. */
export function calculateFailedIndexes(job: Job, pods: Pod[]): Intervals {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexes(job.status?.failedIndexes ?? undefined, completions);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = completionIndex(p.metadata?.annotations);
    if (ix >= 0 && ix < completions && hasTrackingFinalizer(p) && isIndexFailed(job, p)) fresh.add(ix);
  }
  return withIndexes(
    prev,
    [...fresh].sort((a, b) => a - b),
  );
}

/**
 * `getPodsWithDelayedDeletionPerIndex`: per index neither succeeded, failed nor running, its last
 * failed pod (most failures, then latest finish), whose finalizer stays until a replacement exists.
 */
export function podsWithDelayedDeletion(ctx: SyncContext): Map<number, Pod> {
  const job = ctx.job;
  const completions = job.spec?.completions ?? 0;
  const active = new Set(ctx.activePods.map((p) => completionIndex(p.metadata?.annotations)));
  const out = new Map<number, Pod>();
  validPods(ctx, new Set(), (p) => {
    if (!isPodFailed(p, job)) return false;
    const ix = completionIndex(p.metadata?.annotations);
    if (ix < 0 || ix >= completions) return false;
    if (hasIndex(ctx.succeededIndexes, ix) || hasIndex(ctx.failedIndexes ?? [], ix) || active.has(ix))
      return false;
    const last = out.get(ix);
    if (
      !last ||
      (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) &&
        finishedTime(p) >= finishedTime(last))
    )
      out.set(ix, p);
    return false;
  });
  return out;
}

/**
 * `getNewIndexFailureCounts`: the replacement's counts, the replaced pod's plus its failure
 * (as ignored when the pod failure policy ignored it); none without a replaced pod.
 */
export function newIndexFailureCounts(
  job: Job,
  replaced: Pod | undefined,
): { failed: number; ignored: number } {
  if (!replaced) return { failed: 0, ignored: 0 };
  let failed = countAnnotation(replaced, INDEX_FAILURE_COUNT);
  let ignored = countAnnotation(replaced, INDEX_IGNORED_FAILURE_COUNT);
  if (!job.spec?.podFailurePolicy || matchPodFailurePolicy(job.spec.podFailurePolicy, replaced).countFailed)
    failed++;
  else ignored++;
  return { failed, ignored };
}

/** `addIndexFailureCountAnnotation`: the counts on the new pod (the ignored one only when above zero). */
export function indexFailureAnnotations(job: Job, replaced: Pod | undefined): Record<string, string> {
  const { failed, ignored } = newIndexFailureCounts(job, replaced);
  const out: Record<string, string> = { [INDEX_FAILURE_COUNT]: String(failed) };
  if (ignored > 0) out[INDEX_IGNORED_FAILURE_COUNT] = String(ignored);
  return out;
}

/** `getRemainingTimePerIndex`: the index's back-off from its last failed pod's counts and finish time. */
export function remainingForIndex(lastFailed: Pod | undefined, now: number): number {
  if (!lastFailed) return 0;
  const delay = backoffForFailures(indexAbsoluteFailureCount(lastFailed) + 1);
  const elapsed = now - finishedTime(lastFailed);
  return delay < elapsed ? 0 : delay - elapsed;
}

/**
 * `getPodCreationInfoForIndependentIndexes`: the indexes whose back-off passed; when none did,
 * the shortest wait among them.
 */
export function indexesReadyNow(
  indexes: number[],
  delayed: ReadonlyMap<number, Pod>,
  now: number,
): { ready: number[]; wait: number } {
  const ready: number[] = [];
  let wait: number | undefined;
  for (const ix of indexes) {
    const left = remainingForIndex(delayed.get(ix), now);
    if (left === 0) ready.push(ix);
    else if (wait === undefined || left < wait) wait = left;
  }
  return ready.length > 0 ? { ready, wait: 0 } : { ready, wait: wait ?? 0 };
}
