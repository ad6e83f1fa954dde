/**
 * kube-controller-manager's CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go,
 * `cronjob-controller`): for each CronJob, its Jobs' bookkeeping (`status.active`,
 * `lastSuccessfulTime`, the history limits) and, when an activation is due, a Job named
 * `<cronjob>-<minutes>` (concurrencyPolicy Allow, Forbid or Replace; startingDeadlineSeconds;
 * suspend; time zones), then a sync queued for just after the next activation. Time is the
 * injected clock's, so a test moves a CronJob through its schedule with a ManualClock.
 */
import type { KubeClient } from '../../client/client.js';
import type { Informer } from '../../client/informer/informer.js';
import type { Clock } from '../../protocol/clock.js';
import { type CronSchedule, loadLocationError, parseCronSchedule } from '../../protocol/cron.js';
import type { KubeObject } from '../../protocol/events.js';
import { isAlreadyExists, StatusError } from '../../protocol/status.js';
import { WorkQueue } from '../../protocol/workqueue.js';
import { EventWriter } from '../job/events.js';
import { isJobFinished, type Job, rfc3339 } from '../job/types.js';
import { cleanupFinishedJobs, finishedType } from './history.js';
import {
  type CronJob,
  jobFromTemplate,
  jobName,
  mostRecentScheduleTime,
  nextScheduleDelay,
  type ObjectReference,
  rfc1123z,
} from './schedule.js';

const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

function controllerRef(o: KubeObject): { kind?: string; name?: string; uid?: string } | undefined {
  const refs = (o.metadata?.ownerReferences ?? []) as Array<{
    kind?: string;
    name?: string;
    uid?: string;
    controller?: boolean;
  }>;
  return refs.find((r) => r.controller === true);
}

/** The CronJob controller: {@link CronJobController.start}, {@link CronJobController.stop}. */
export class CronJobController {
  private readonly queue: WorkQueue;
  private readonly cronJobs: Informer<CronJob>;
  private readonly jobs: Informer<Job>;
  private readonly events: EventWriter;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    this.events = new EventWriter(kube, 'cronjob-controller', clock, log);
    this.cronJobs = kube.informer<CronJob>('cronjobs.batch', { allNamespaces: true });
    this.jobs = kube.informer<Job>('jobs.batch', { allNamespaces: true });
    this.cronJobs.on({
      add: (cj) => this.queue.add(key(cj)),
      update: (old, cur) => this.updateCronJob(old, cur),
      delete: (cj) => this.queue.add(key(cj)),
    });
    const job = (j: Job) => {
      const owner = this.ownerOf(j);
      if (owner) this.queue.add(key(owner));
    };
    this.jobs.on({
      add: job,
      update: (old, cur) => {
        if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
        if (controllerRef(old)?.uid !== controllerRef(cur)?.uid) job(old);
        job(cur);
      },
      delete: job,
    });
  }

  /** Starts the informers and, once they listed, the workers (kube-controller-manager: 5 `--concurrent-cron-job-syncs`). */
  async start(workers = 5): Promise<void> {
    this.cronJobs.start();
    this.jobs.start();
    await Promise.all([this.cronJobs.synced(), this.jobs.synced()]);
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.cronJobs.stop(), this.jobs.stop()]);
    await this.events.flushed();
  }

  private ownerOf(j: Job): CronJob | undefined {
    const ref = controllerRef(j);
    if (ref?.kind !== 'CronJob') return undefined;
    const cj = this.cronJobs.get(`${j.metadata?.namespace}/${ref.name}`);
    return cj && cj.metadata?.uid === ref.uid ? cj : undefined;
  }

  /** `updateCronJob`: a changed schedule or zone waits for its next activation; anything else syncs now. */
  private updateCronJob(old: CronJob, cur: CronJob): void {
    if (old.spec?.schedule !== cur.spec?.schedule || old.spec?.timeZone !== cur.spec?.timeZone) {
      let schedule: CronSchedule;
      try {
        schedule = parseCronSchedule(this.formatSchedule(cur, false));
      } catch {
        this.event(
          cur,
          'Warning',
          'UnParseableCronJobSchedule',
          `unparseable schedule for cronjob: ${cur.spec?.schedule}`,
        );
        return;
      }
      this.queue.addAfter(key(cur), nextScheduleDelay(cur, this.clock.now(), schedule));
      return;
    }
    this.queue.add(key(cur));
  }

  private async work(): Promise<void> {
    for (;;) {
      const k = await this.queue.get();
      if (k === undefined) return;
      try {
        const requeueAfter = await this.sync(k);
        this.syncs++;
        if (requeueAfter !== undefined) {
          this.queue.forget(k);
          if (Number.isFinite(requeueAfter)) this.queue.addAfter(k, requeueAfter);
        }
      } catch (err) {
        this.failures++;
        if (!(err instanceof StatusError && err.code === 409))
          this.log(`cronjob-controller: syncing ${k}: ${(err as Error).message}`);
        this.queue.addRateLimited(k);
      } finally {
        this.queue.done(k);
      }
    }
  }

  private event(cj: CronJob, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.events.event({ ...cj, apiVersion: 'batch/v1', kind: 'CronJob' }, type, reason, message);
  }

  /** `sync`: the history cleanup and the activation, one status write for both; the delay until the next look. */
  private async sync(k: string): Promise<number | undefined> {
    const shared = this.cronJobs.get(k);
    if (!shared) return undefined;
    const jobs = this.jobs
      .list()
      .filter(
        (j) =>
          j.metadata?.namespace === shared.metadata?.namespace &&
          controllerRef(j)?.uid === shared.metadata?.uid,
      );
    const cj = structuredClone(shared);
    const cleaned = await cleanupFinishedJobs(cj, jobs, (j) => this.deleteJob(cj, j));
    let result: { requeueAfter?: number; update: boolean; error?: unknown };
    try {
      result = await this.syncCronJob(cj, jobs);
    } catch (err) {
      result = { update: false, error: err };
    }
    if (cleaned || result.update) {
      await this.kube.resource<CronJob>('cronjobs.batch', cj.metadata?.namespace).updateStatus(cj);
    }
    if (result.requeueAfter !== undefined) return result.requeueAfter;
    if (result.error) throw result.error;
    return undefined;
  }

  /** `formatSchedule`: the schedule with the CronJob's time zone as a `TZ=` prefix. */
  private formatSchedule(cj: CronJob, record: boolean): string {
    const schedule = cj.spec?.schedule ?? '';
    if (schedule.includes('TZ')) {
      if (record)
        this.event(
          cj,
          'Warning',
          'UnsupportedSchedule',
          `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
        );
      return schedule;
    }
    const zone = cj.spec?.timeZone;
    if (zone !== undefined && loadLocationError(zone) === undefined) return `TZ=${zone} ${schedule}`;
    return schedule;
  }

  /** `syncCronJob`. */
  private async syncCronJob(
    cj: CronJob,
    jobs: Job[],
  ): Promise<{ requeueAfter?: number; update: boolean; error?: unknown }> {
    const now = this.clock.now();
    cj.status ??= {};
    const status = cj.status;
    let update = false;
    const ns = cj.metadata?.namespace;
    const jobClient = this.kube.resource<Job>('jobs.batch', ns);
    const inActive = (uid: string | undefined) => (status.active ?? []).some((r) => r.uid === uid);
    const children = new Set<string>();
    for (const j of jobs) {
      const uid = j.metadata?.uid ?? '';
      children.add(uid);
      const found = inActive(uid);
      if (!found && !isJobFinished(j)) {
        const fresh = await this.kube.resource<CronJob>('cronjobs.batch', ns).get(cj.metadata?.name ?? '');
        if ((fresh.status?.active ?? []).some((r) => r.uid === uid)) {
          Object.assign(cj, fresh);
          continue;
        }
        this.event(
          cj,
          'Warning',
          'UnexpectedJob',
          `Saw a job that the controller did not create or forgot: ${j.metadata?.name}`,
        );
      } else if (isJobFinished(j)) {
        if (found) {
          status.active = (status.active ?? []).filter((r) => r.uid !== uid);
          this.event(
            cj,
            'Normal',
            'SawCompletedJob',
            `Saw completed job: ${j.metadata?.name}, condition: ${finishedType(j)}`,
          );
          update = true;
        }
        const completed = j.status?.completionTime;
        if (finishedType(j) === 'Complete' && completed) {
          if (!status.lastSuccessfulTime || Date.parse(completed) > Date.parse(status.lastSuccessfulTime)) {
            status.lastSuccessfulTime = completed;
            update = true;
          }
        }
      }
    }
    for (const ref of [...(status.active ?? [])]) {
      if (children.has(ref.uid ?? '')) continue;
      const exists = await this.kube.resource<Job>('jobs.batch', ref.namespace).find(ref.name ?? '');
      if (!exists) {
        this.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        status.active = (status.active ?? []).filter((r) => r.uid !== ref.uid);
        update = true;
      }
    }
    if (cj.metadata?.deletionTimestamp) return { update };
    const zone = cj.spec?.timeZone;
    if (zone !== undefined) {
      const bad = loadLocationError(zone);
      if (bad) {
        this.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(zone)}: ${bad}`);
        return { update };
      }
    }
    if (cj.spec?.suspend === true) return { update };
    let schedule: CronSchedule;
    try {
      schedule = parseCronSchedule(this.formatSchedule(cj, true));
    } catch (err) {
      this.event(
        cj,
        'Warning',
        'UnparseableSchedule',
        `unparseable schedule: ${JSON.stringify(cj.spec?.schedule)} : ${(err as Error).message}`,
      );
      return { update };
    }
    const recent = mostRecentScheduleTime(cj, now, schedule, true);
    if (recent.mostRecent !== undefined && recent.missed === 'many') {
      this.event(
        cj,
        'Warning',
        'TooManyMissedTimes',
        'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      );
    }
    if (recent.error) {
      this.event(
        cj,
        'Warning',
        'InvalidSchedule',
        `invalid schedule: ${cj.spec?.schedule} : ${recent.error}`,
      );
      return { update };
    }
    const scheduled = recent.mostRecent;
    const later = () => ({ requeueAfter: nextScheduleDelay(cj, now, schedule), update });
    if (scheduled === undefined || scheduled > now) return later();
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined && scheduled + deadline * 1000 < now) {
      this.event(
        cj,
        'Warning',
        'MissSchedule',
        `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`,
      );
      return later();
    }
    const name = jobName(cj, scheduled);
    const lastScheduled = status.lastScheduleTime ? Date.parse(status.lastScheduleTime) : undefined;
    if (
      (status.active ?? []).some((r) => r.name === name && r.namespace === ns) ||
      lastScheduled === Math.floor(scheduled / 1000) * 1000
    )
      return later();
    if (cj.spec?.concurrencyPolicy === 'Forbid' && (status.active ?? []).length > 0) {
      this.event(
        cj,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return later();
    }
    if (cj.spec?.concurrencyPolicy === 'Replace') {
      for (const ref of [...(status.active ?? [])]) {
        let job: Job;
        try {
          job = await this.kube.resource<Job>('jobs.batch', ref.namespace).get(ref.name ?? '');
        } catch (err) {
          this.event(cj, 'Warning', 'FailedGet', `Get job: ${(err as Error).message}`);
          return { update, error: err };
        }
        if (!(await this.deleteJob(cj, job)))
          return { update, error: new Error(`could not replace job ${ref.namespace}/${ref.name}`) };
        update = true;
      }
    }
    let created: Job;
    try {
      created = await jobClient.create(jobFromTemplate(cj, scheduled));
      this.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata?.name}`);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`);
        return { update, error: err };
      }
      created = await jobClient.get(name);
      if (controllerRef(created)?.uid !== cj.metadata?.uid) return { update };
      if (inActive(created.metadata?.uid)) return { update };
    }
    const ref: ObjectReference = {
      kind: 'Job',
      namespace: created.metadata?.namespace,
      name: created.metadata?.name,
      uid: created.metadata?.uid,
      apiVersion: 'batch/v1',
      resourceVersion: created.metadata?.resourceVersion,
    };
    status.active = [...(status.active ?? []), ref];
    status.lastScheduleTime = rfc3339(scheduled);
    update = true;
    return later();
  }

  /** `deleteJob`: background propagation, out of the active list, an event either way. */
  private async deleteJob(cj: CronJob, job: Job): Promise<boolean> {
    try {
      await this.kube
        .resource<Job>('jobs.batch', job.metadata?.namespace)
        .delete(job.metadata?.name ?? '', { propagationPolicy: 'Background' });
    } catch (err) {
      // A Job already gone is a failure too upstream: the next sync finds it missing.
      this.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${(err as Error).message}`);
      return false;
    }
    cj.status = {
      ...cj.status,
      active: (cj.status?.active ?? []).filter((r) => r.uid !== job.metadata?.uid),
    };
    this.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name}`);
    return true;
  }
}
