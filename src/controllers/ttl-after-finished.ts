/**
 * kube-controller-manager's TTL-after-finished controller
 * (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go): a finished Job (a `Complete`
 * or `Failed` condition with status True) whose `spec.ttlSecondsAfterFinished` is set is deleted
 * once that many seconds passed since the condition's `lastTransitionTime`.
 *
 * As upstream (`processJob`): a Job not being deleted and needing cleanup is queued on add and
 * update; a worker reads the cached Job, queues it again for when its TTL runs out
 * (`processTTL`, time from the injected clock), and once it has, reads the Job fresh from the
 * server (the TTL may have been changed since) and deletes it with Foreground propagation and a
 * precondition on the fresh Job's UID. A finished Job whose condition has no transition time
 * cannot be timed: its sync fails (`jobFinishTime`'s message) and is retried with back-off.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { runQueueWorker } from '../protocol/queue-worker.js';
import { StatusError } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';

const JOBS = 'jobs.batch';

/** A batch/v1 Job, the fields this controller reads. */
export interface FinishedJob extends KubeObject {
  spec?: { ttlSecondsAfterFinished?: number | null };
  status?: {
    conditions?: Array<{ type?: string; status?: string; lastTransitionTime?: string | null }> | null;
  };
}

/** `needsCleanup`: a TTL is set and the Job finished (`IsJobFinished`: Complete or Failed, True). */
export function needsCleanup(job: FinishedJob): boolean {
  return typeof job.spec?.ttlSecondsAfterFinished === 'number' && finishCondition(job) !== undefined;
}

function finishCondition(job: FinishedJob) {
  return (job.status?.conditions ?? []).find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/**
 * When a Job that needs cleanup expires (`getFinishAndExpireTime`), in epoch milliseconds;
 * throws when its finishing condition has no transition time (`jobFinishTime`).
 */
export function expiresAt(job: FinishedJob): number {
  const at = finishCondition(job)?.lastTransitionTime;
  const finished = at ? Date.parse(at) : Number.NaN;
  if (Number.isNaN(finished)) {
    throw new Error(
      `unable to find the time when the Job ${job.metadata?.namespace}/${job.metadata?.name} finished`,
    );
  }
  return finished + (job.spec?.ttlSecondsAfterFinished ?? 0) * 1000;
}

/** The controller: {@link TtlAfterFinishedController.start}, {@link TtlAfterFinishedController.stop}. */
export class TtlAfterFinishedController {
  private readonly queue: WorkQueue;
  private readonly jobs: Informer<FinishedJob>;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    this.jobs = kube.informer<FinishedJob>(JOBS, { allNamespaces: true });
    const seen = (job: FinishedJob) => {
      if (!job.metadata?.deletionTimestamp && needsCleanup(job)) this.queue.add(key(job));
    };
    this.jobs.on({ add: seen, update: (_, job) => seen(job) });
  }

  /** Starts the informer and `workers` workers (kube-controller-manager runs 5); resolves once it has listed. */
  async start(workers = 5): Promise<void> {
    this.jobs.start();
    await this.jobs.synced();
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.jobs.stop()]);
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.processJob(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        this.log(
          `ttl-after-finished-controller: failed to clean up job ${key}, will retry: ${(err as Error).message}`,
        );
      },
    });
  }

  /** `processJob`: the cached Job, then the fresh one, each checked before the delete. */
  private async processJob(k: string): Promise<void> {
    const cached = this.jobs.get(k);
    if (!cached || !this.expired(cached)) return;
    const [namespace, name] = k.split('/') as [string, string];
    const client = this.kube.resource<FinishedJob>(JOBS, namespace);
    const fresh = await client.find(name);
    if (!fresh || !this.expired(fresh)) return;
    try {
      await client.delete(name, {
        propagationPolicy: 'Foreground',
        preconditions: { uid: fresh.metadata?.uid },
      });
    } catch (err) {
      // Gone since the read: nothing left to clean up (a UID mismatch is a 409 and is retried,
      // the newer Job being checked again).
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
  }

  /** `processTTL`: whether the TTL ran out; if it will later, the Job is queued for then. */
  private expired(job: FinishedJob): boolean {
    if (job.metadata?.deletionTimestamp || !needsCleanup(job)) return false;
    const left = expiresAt(job) - this.clock.now();
    if (left <= 0) return true;
    this.queue.addAfter(key(job), left);
    return false;
  }
}

function key(job: FinishedJob): string {
  return `${job.metadata?.namespace}/${job.metadata?.name}`;
}
