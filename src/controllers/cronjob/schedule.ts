/**
 * When a CronJob runs (pkg/controller/cronjob/utils.go `mostRecentScheduleTime`,
 * `nextScheduleTime`, `nextScheduleTimeDuration`, `getJobFromTemplate2`), over protocol/cron.ts's
 * schedule: the latest activation not yet run, how many were missed, when to look again, and the
 * Job an activation makes.
 */
import type { CronSchedule } from '../../protocol/cron.js';
import type { KubeObject } from '../../protocol/events.js';

/** A time past the next activation at which the controller looks again (`nextScheduleDelta`). */
export const NEXT_SCHEDULE_DELTA_MS = 100;

/** The annotation carrying a Job's scheduled time, in the CronJob's time zone. */
export const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** The CronJob fields the controller reads. */
export interface CronJob extends KubeObject {
  spec?: {
    schedule?: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate?: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: Record<string, unknown>;
    };
  };
  status?: {
    active?: ObjectReference[];
    lastScheduleTime?: string;
    lastSuccessfulTime?: string;
  };
}

/** An entry of `status.active` (`ref.GetReference`). */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
}

/** How many activations were missed: none, some, or more than 100 (`missedSchedulesType`). */
export type Missed = 'none' | 'few' | 'many';

/** What `mostRecentScheduleTime` finds. */
export interface MostRecent {
  earliest: number;
  mostRecent?: number;
  missed: Missed;
  error?: string;
}

/**
 * `mostRecentScheduleTime`: from the last schedule time (or creation; or, with the starting
 * deadline, no earlier than `now` minus it), the latest activation at or before `now`.
 */
export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  schedule: CronSchedule,
  withStartingDeadline: boolean,
): MostRecent {
  let earliest = Date.parse(cj.status?.lastScheduleTime ?? cj.metadata?.creationTimestamp ?? '') || 0;
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (withStartingDeadline && deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000);
  const t1 = schedule.next(earliest);
  if (t1 === undefined || now < t1) return { earliest, missed: 'none' };
  const t2 = schedule.next(t1);
  if (t2 === undefined || now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) {
    return { earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  }
  const elapsed = Math.trunc((now - t1) / 1000);
  const missedCount = Math.trunc(elapsed / between) + 1;
  let mostRecent: number | undefined;
  const potentialEarliest = t1 + (missedCount - 2) * between * 1000;
  for (let t = schedule.next(potentialEarliest); t !== undefined && t <= now; t = schedule.next(t))
    mostRecent = t;
  const missed: Missed = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none';
  return { earliest, mostRecent, missed };
}

/** `nextScheduleTimeDuration`: how long until the activation after the most recent one, plus the delta. */
export function nextScheduleDelay(cj: CronJob, now: number, schedule: CronSchedule): number {
  const r = mostRecentScheduleTime(cj, now, schedule, false);
  let from: number;
  if (r.error) from = now;
  else if (r.mostRecent === undefined) from = r.missed === 'none' ? r.earliest : now;
  else from = r.mostRecent;
  const next = schedule.next(from);
  return next === undefined ? Number.POSITIVE_INFINITY : next + NEXT_SCHEDULE_DELTA_MS - now;
}

/** `getJobName`: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function jobName(cj: CronJob, scheduled: number): string {
  return `${cj.metadata?.name}-${Math.floor(Math.floor(scheduled / 1000) / 60)}`;
}

/** A time as Go's `time.RFC3339` writes it in a zone: `2026-01-01T09:00:00+09:00`, or `Z` in UTC. */
export function rfc3339In(ms: number, zone: string | undefined): string {
  const utc = new Date(Math.floor(ms / 1000) * 1000);
  if (!zone || zone === 'UTC' || zone === 'Local') return utc.toISOString().replace('.000Z', 'Z');
  const parts: Record<string, string> = {};
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  for (const p of fmt.formatToParts(utc)) parts[p.type] = p.value;
  const wall = Date.UTC(
    +parts.year!,
    +parts.month! - 1,
    +parts.day!,
    +parts.hour!,
    +parts.minute!,
    +parts.second!,
  );
  const offset = Math.round((wall - utc.getTime()) / 60_000);
  if (offset === 0)
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${sign}${hh}:${mm}`;
}

/** Go's `time.RFC1123Z` in UTC: `Mon, 02 Jan 2006 15:04:05 +0000` (the MissSchedule event's time). */
export function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${two(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** `getJobFromTemplate2`: the Job one activation creates. */
export function jobFromTemplate(cj: CronJob, scheduled: number): KubeObject {
  const template = cj.spec?.jobTemplate ?? {};
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cj, scheduled),
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations: {
        ...(template.metadata?.annotations ?? {}),
        [SCHEDULED_TIMESTAMP]: rfc3339In(scheduled, cj.spec?.timeZone),
      },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: cj.metadata?.name ?? '',
          uid: cj.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}
