/**
 * What one Job sync works with (pkg/controller/job/job_controller.go `syncJobCtx`): the world it
 * acts on (`SyncDeps`: the controller's clients, queue and memory), what it knows of the Job, and
 * the small rules every part of a sync shares.
 */
import type { Clock } from '../../protocol/clock.js';
import type { Expectations } from './expectations.js';
import { completionIndex, type Intervals } from './indexes.js';
import { hasTrackingFinalizer, type Pod } from './pods.js';
import type { BackoffRecord } from './policies.js';
import { type Job, type JobCondition, rfc3339 } from './types.js';

/** The most pods one sync creates or deletes (`MaxPodCreateDeletePerSync`). */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** The shortest delay a sync is queued with after a change (`SyncJobBatchPeriod`). */
export const SYNC_BATCH_PERIOD_MS = 1000;

/** What a sync does to the world: the controller's clients, queue and memory. */
export interface SyncDeps {
  clock: Clock;
  expectations: Expectations;
  /** Per Job key (`backoffStore`). */
  backoff: Map<string, BackoffRecord>;
  /** Uids of Jobs marked finished whose update the informer has not shown yet (`finishedJobExpectations`). */
  finishedJobs: Set<string>;
  job(key: string): Job | undefined;
  /**
   * The pods the Job controls after adopting the orphans its selector picks and releasing its
   * pods the selector no longer picks (`getPodsForJob`); throws when an adoption or release failed.
   */
  podsOf(job: Job): Promise<Pod[]>;
  /** Creates a pod; records SuccessfulCreate or FailedCreate. */
  createPod(job: Job, pod: Pod): Promise<void>;
  /** Deletes a pod (404 is success); records SuccessfulDelete or FailedDelete. */
  deletePod(job: Job, pod: Pod): Promise<void>;
  /** Removes the tracking finalizer (404 is success). */
  removeFinalizer(pod: Pod): Promise<void>;
  updateStatus(job: Job): Promise<Job>;
  event(job: Job, type: 'Normal' | 'Warning', reason: string, message: string): void;
  enqueueAfter(key: string, ms: number): void;
}

/** What one sync knows about the Job (`syncJobCtx`). */
export interface SyncContext {
  key: string;
  job: Job;
  pods: Pod[];
  activePods: Pod[];
  finished?: JobCondition;
  succeeded: number;
  failed: number;
  prevSucceededIndexes: Intervals;
  succeededIndexes: Intervals;
  /** With backoffLimitPerIndex: the indexes failed for good (`status.failedIndexes` to be). */
  failedIndexes?: Intervals;
  /** With backoffLimitPerIndex: per index, the failed pod kept until its replacement exists. */
  delayedDeletion: Map<number, Pod>;
  newBackoff: BackoffRecord;
  expectedRemovals: ReadonlySet<string>;
  uncountedSucceeded: Set<string>;
  uncountedFailed: Set<string>;
  terminating: number;
  ready: number;
}

/** `newCondition`. */
export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): JobCondition {
  const t = rfc3339(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

/** `ensureJobConditionStatus`: sets the condition when it differs; a False one is never added. */
export function ensureCondition(
  list: JobCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): { list: JobCondition[]; changed: boolean } {
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status === status && c.reason === reason && c.message === message) return { list, changed: false };
    const next = [...list];
    next[i] = newCondition(type, status, reason, message, now);
    return { list: next, changed: true };
  }
  if (status === 'False') return { list, changed: false };
  return { list: [...list, newCondition(type, status, reason, message, now)], changed: true };
}

/** Whether a Job is suspended. */
export function isSuspended(job: Job): boolean {
  return job.spec?.suspend === true;
}

/** Whether a Job is Indexed. */
export function isIndexed(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** `onlyReplaceFailedPods`: podReplacementPolicy Failed. */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed';
}

/** `isPodFailed`: Failed, or (unless only failed pods are replaced) being deleted without having succeeded. */
export function isPodFailed(p: Pod, job: Job): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return Boolean(p.metadata?.deletionTimestamp) && p.status?.phase !== 'Succeeded';
}

/** `getValidPodsWithFilter`: pods still carrying the finalizer, not yet uncounted, with a valid index. */
export function validPods(
  ctx: SyncContext,
  uncounted: ReadonlySet<string>,
  filter: (p: Pod) => boolean,
): Pod[] {
  const completions = ctx.job.spec?.completions ?? 0;
  return ctx.pods.filter((p) => {
    const uid = p.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(p) || uncounted.has(uid) || ctx.expectedRemovals.has(uid)) return false;
    if (isIndexed(ctx.job)) {
      const ix = completionIndex(p.metadata?.annotations);
      if (ix < 0 || ix >= completions) return false;
    }
    return filter(p);
  });
}
