/**
 * A CronJob's finished Jobs beyond its history limits (pkg/controller/cronjob/cronjob_controllerv2.go
 * `cleanupFinishedJobs`, `removeOldestJobs`): the oldest by start time go first.
 */
import type { Job } from '../job/types.js';
import type { CronJob } from './schedule.js';

/** The condition type that finished a Job, Complete or Failed (`FinishedCondition`). */
export function finishedType(j: Job): string | undefined {
  return (j.status?.conditions ?? []).find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  )?.type;
}

/** `cleanupFinishedJobs`: beyond each history limit, the oldest finished Jobs go. */
export async function cleanupFinishedJobs(
  cj: CronJob,
  jobs: Job[],
  deleteJob: (j: Job) => Promise<boolean>,
): Promise<boolean> {
  const { successfulJobsHistoryLimit: ok, failedJobsHistoryLimit: failed } = cj.spec ?? {};
  if (ok === undefined && failed === undefined) return false;
  let update = false;
  const succeeded = jobs.filter((j) => finishedType(j) === 'Complete');
  const failures = jobs.filter((j) => finishedType(j) === 'Failed');
  if (ok !== undefined && (await removeOldest(succeeded, ok, deleteJob))) update = true;
  if (failed !== undefined && (await removeOldest(failures, failed, deleteJob))) update = true;
  return update;
}

/** `removeOldestJobs`, oldest by start time (`byJobStartTime`: unstarted last, then by name). */
async function removeOldest(
  jobs: Job[],
  keep: number,
  deleteJob: (j: Job) => Promise<boolean>,
): Promise<boolean> {
  const excess = jobs.length - keep;
  if (excess <= 0) return false;
  const start = (j: Job) => (j.status?.startTime ? Date.parse(j.status.startTime) : Number.POSITIVE_INFINITY);
  const name = (j: Job) => j.metadata?.name ?? '';
  // Names compare as Go's strings do, byte by byte.
  const sorted = [...jobs].sort(
    (a, b) => start(a) - start(b) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0),
  );
  let update = false;
  for (const j of sorted.slice(0, excess)) if (await deleteJob(j)) update = true;
  return update;
}
