/**
 * kube-controller-manager's Job controller (pkg/controller/job/job_controller.go, `job-controller`):
 * informers on Jobs and pods, a queue of Job keys, and the handlers that decide when a Job is
 * synced again (a pod of it created, changed or deleted: after the one-second batch period; a Job
 * created or its spec changed: at once). sync.ts is one sync; this file is the pod I/O it does
 * (create, delete, finalizer removal, status writes), its events, and the orphan pods whose
 * tracking finalizer must come off because their Job is finished or gone.
 */
import type { KubeClient } from '../../client/client.js';
import type { Informer } from '../../client/informer/informer.js';
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { isConflict, runQueueWorker } from '../../protocol/queue-worker.js';
import { isNotFound } from '../../protocol/status.js';
import { WorkQueue } from '../../protocol/workqueue.js';
import { claimPods, controllerRefOf, selectorPicks } from './adoption.js';
import { SYNC_BATCH_PERIOD_MS, type SyncDeps } from './context.js';
import { EventWriter } from './events.js';
import { Expectations } from './expectations.js';
import { controllerUid, hasTrackingFinalizer, type Pod, TRACKING_FINALIZER } from './pods.js';
import type { BackoffRecord } from './policies.js';
import { syncJob } from './sync.js';
import { isJobFinished, JOB_CONTROLLER_NAME, type Job } from './types.js';

const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

/** The Job controller: {@link JobController.start}, {@link JobController.stop}. */
export class JobController {
  private readonly queue: WorkQueue;
  private readonly orphans: WorkQueue;
  private readonly jobs: Informer<Job>;
  private readonly pods: Informer<Pod>;
  private readonly events: EventWriter;
  private readonly expectations: Expectations;
  private readonly deps: SyncDeps;
  private readonly backoff = new Map<string, BackoffRecord>();
  private readonly finishedJobs = new Set<string>();
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    // API errors back off from 1 s to a minute (`DefaultJobApiBackOff`, `MaxJobApiBackOff`).
    this.queue = new WorkQueue(clock, { baseDelayMs: 1000, maxDelayMs: 60_000 });
    this.orphans = new WorkQueue(clock, { baseDelayMs: 1000, maxDelayMs: 60_000 });
    this.expectations = new Expectations(() => clock.now());
    this.events = new EventWriter(kube, 'job-controller', clock, log);
    this.jobs = kube.informer<Job>('jobs.batch', { allNamespaces: true });
    this.pods = kube.informer<Pod>('pods', { allNamespaces: true });
    this.jobs.on({
      add: (j) => this.queue.add(key(j)),
      update: (old, cur) => this.updateJob(old, cur),
      delete: (j) => this.deleteJob(j),
    });
    this.pods.on({
      add: (p) => this.addPod(p),
      update: (old, cur) => this.updatePod(old, cur),
      delete: (p, info) => this.deletePod(p, !info.finalStateUnknown),
    });
    this.deps = this.makeDeps();
  }

  /** Starts the informers and, once they listed, the workers (kube-controller-manager: 5 `--concurrent-job-syncs`). */
  async start(workers = 5): Promise<void> {
    this.jobs.start();
    this.pods.start();
    await Promise.all([this.jobs.synced(), this.pods.synced()]);
    for (let i = 0; i < workers; i++) this.workers.push(this.work(this.queue, (k) => this.sync(k)));
    this.workers.push(this.work(this.orphans, (k) => this.syncOrphan(k)));
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    this.orphans.shutDown();
    await Promise.all([...this.workers, this.jobs.stop(), this.pods.stop()]);
    await this.events.flushed();
  }

  private work(queue: WorkQueue, fn: (k: string) => Promise<void>): Promise<void> {
    return runQueueWorker(queue, fn, {
      synced: () => {
        this.syncs++;
      },
      failed: (k, err) => {
        this.failures++;
        if (!isConflict(err)) this.log(`job-controller: syncing ${k}: ${(err as Error).message}`);
      },
    });
  }

  private batched(j: KubeObject): void {
    this.queue.addAfter(key(j), SYNC_BATCH_PERIOD_MS);
  }

  /** The Job a pod's controller reference names, if this informer has it with that uid (`resolveControllerRef`). */
  private jobOf(p: Pod): Job | undefined {
    const refs = (p.metadata?.ownerReferences ?? []) as Array<{
      kind?: string;
      apiVersion?: string;
      name?: string;
      uid?: string;
      controller?: boolean;
    }>;
    const ref = refs.find((r) => r.controller === true);
    if (ref?.kind !== 'Job' || !(ref.apiVersion ?? '').startsWith('batch/')) return undefined;
    const job = this.jobs.get(`${p.metadata?.namespace}/${ref.name}`);
    return job && job.metadata?.uid === ref.uid ? job : undefined;
  }

  private updateJob(old: Job, cur: Job): void {
    if (isJobFinished(cur)) {
      this.enqueueOrphansOf(cur);
      return;
    }
    if (cur.metadata?.generation === old.metadata?.generation) this.batched(cur);
    else this.queue.add(key(cur));
    const ads = cur.spec?.activeDeadlineSeconds;
    const start = cur.status?.startTime;
    if (start && ads !== undefined && old.spec?.activeDeadlineSeconds !== ads)
      this.queue.addAfter(key(cur), ads * 1000 - (this.clock.now() - Date.parse(start)));
  }

  private deleteJob(j: Job): void {
    this.queue.add(key(j));
    this.finishedJobs.delete(j.metadata?.uid ?? '');
    this.enqueueOrphansOf(j);
    this.expectations.delete(key(j));
    this.backoff.delete(key(j));
  }

  private addPod(p: Pod): void {
    if (p.metadata?.deletionTimestamp) {
      this.deletePod(p, false);
      return;
    }
    if (controllerRefOf(p)) {
      const job = this.jobOf(p);
      if (job) {
        this.expectations.creationObserved(key(job));
        this.batched(job);
      }
      return;
    }
    // An orphan: its finalizer comes off, and a Job whose selector picks it may adopt it.
    if (hasTrackingFinalizer(p)) this.orphans.add(key(p));
    this.enqueueSelecting(p);
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (cur.metadata?.resourceVersion === old.metadata?.resourceVersion) return;
    if (cur.metadata?.deletionTimestamp) {
      this.deletePod(cur, false);
      return;
    }
    const finalizerRemoved = !hasTrackingFinalizer(cur);
    const oldRef = controllerRefOf(old);
    const curRef = controllerRefOf(cur);
    const refChanged = JSON.stringify(oldRef) !== JSON.stringify(curRef);
    if (refChanged && oldRef) {
      const was = this.jobOf(old);
      if (was) {
        if (finalizerRemoved) this.expectations.finalizerRemovalObserved(key(was), cur.metadata?.uid ?? '');
        this.batched(was);
      }
    }
    if (curRef) {
      const job = this.jobOf(cur);
      if (job) {
        if (finalizerRemoved) this.expectations.finalizerRemovalObserved(key(job), cur.metadata?.uid ?? '');
        this.batched(job);
      }
      return;
    }
    if (hasTrackingFinalizer(cur)) this.orphans.add(key(cur));
    const labelsChanged =
      JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(cur.metadata?.labels ?? {});
    if (labelsChanged || refChanged) this.enqueueSelecting(cur);
  }

  private deletePod(p: Pod, final: boolean): void {
    if (!controllerRefOf(p)) {
      // No controller waits for an orphan's deletion; its finalizer may still need to come off.
      if (hasTrackingFinalizer(p)) this.orphans.add(key(p));
      return;
    }
    const job = this.jobOf(p);
    if (!job || isJobFinished(job)) {
      if (hasTrackingFinalizer(p)) this.orphans.add(key(p));
      return;
    }
    this.expectations.deletionObserved(key(job));
    if (final || !hasTrackingFinalizer(p))
      this.expectations.finalizerRemovalObserved(key(job), p.metadata?.uid ?? '');
    this.batched(job);
  }

  /** The pods of a finished or deleted Job that still carry the finalizer (`enqueueLabelSelector`). */
  private enqueueOrphansOf(j: Job): void {
    const uid = j.metadata?.uid;
    for (const p of this.pods.list()) {
      if (
        p.metadata?.namespace === j.metadata?.namespace &&
        controllerUid(p) === uid &&
        hasTrackingFinalizer(p)
      )
        this.orphans.add(key(p));
    }
  }

  /** `handleSingleOrphanPod`: the finalizer comes off unless the pod's Job is there and still running. */
  private async syncOrphan(k: string): Promise<void> {
    const p = this.pods.get(k);
    if (!p || !hasTrackingFinalizer(p)) return;
    const ref = controllerRefOf(p);
    // A pod another kind of controller owns keeps its finalizer.
    if (ref && (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1')) return;
    const job = this.jobOf(p);
    if (job) {
      const managedBy = job.spec?.managedBy;
      if (managedBy !== undefined && managedBy !== JOB_CONTROLLER_NAME) return;
      if (!isJobFinished(job)) return;
    }
    await this.removeFinalizer(p);
  }

  /** `removeTrackingFinalizerPatch`: a strategic merge patch deleting the one finalizer; a pod gone is done. */
  private async removeFinalizer(p: Pod): Promise<void> {
    try {
      await this.kube
        .resource<Pod>('pods', p.metadata?.namespace)
        .patch(
          p.metadata?.name ?? '',
          { metadata: { '$deleteFromPrimitiveList/finalizers': [TRACKING_FINALIZER] } },
          'strategic',
        );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** `FilterPodsByOwner` with orphans: the namespace's pods the Job controls and those no controller owns. */
  private candidatePods(job: Job): Pod[] {
    const { namespace, name, uid } = job.metadata ?? {};
    return this.pods.list().filter((p) => {
      if (p.metadata?.namespace !== namespace) return false;
      const ref = controllerRefOf(p);
      return !ref || (ref.kind === 'Job' && ref.name === name && ref.uid === uid);
    });
  }

  /** `getPodJobs`: the Jobs of the pod's namespace whose selector picks it, each synced after the batch period. */
  private enqueueSelecting(p: Pod): void {
    const labels = p.metadata?.labels as Record<string, string> | undefined;
    if (!labels || Object.keys(labels).length === 0) return;
    for (const j of this.jobs.list())
      if (j.metadata?.namespace === p.metadata?.namespace && selectorPicks(j, labels)) this.batched(j);
  }

  private sync(k: string): Promise<void> {
    return syncJob(this.deps, k);
  }

  private makeDeps(): SyncDeps {
    return {
      clock: this.clock,
      expectations: this.expectations,
      backoff: this.backoff,
      finishedJobs: this.finishedJobs,
      job: (k) => this.jobs.get(k),
      podsOf: (job) => claimPods(this.kube, job, this.candidatePods(job)),
      createPod: async (job, pod) => {
        try {
          const created = await this.kube.resource<Pod>('pods', job.metadata?.namespace).create(pod);
          this.events.event(
            typed(job),
            'Normal',
            'SuccessfulCreate',
            `Created pod: ${created.metadata?.name}`,
          );
        } catch (err) {
          this.events.event(
            typed(job),
            'Warning',
            'FailedCreate',
            `Error creating: ${(err as Error).message}`,
          );
          throw err;
        }
      },
      deletePod: async (job, pod) => {
        const name = pod.metadata?.name ?? '';
        try {
          await this.kube.resource<Pod>('pods', job.metadata?.namespace).delete(name);
          this.events.event(typed(job), 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
        } catch (err) {
          if (isNotFound(err)) return;
          this.events.event(
            typed(job),
            'Warning',
            'FailedDelete',
            `Error deleting: ${(err as Error).message}`,
          );
          throw err;
        }
      },
      removeFinalizer: (pod) => this.removeFinalizer(pod),
      updateStatus: (job) =>
        this.kube.resource<Job>('jobs.batch', job.metadata?.namespace).updateStatus(typed(job)),
      event: (job, type, reason, message) => this.events.event(typed(job), type, reason, message),
      enqueueAfter: (k, ms) => this.queue.addAfter(k, ms),
    };
  }
}

function typed(job: Job): Job {
  return { ...job, apiVersion: 'batch/v1', kind: 'Job' };
}
