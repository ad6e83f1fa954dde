/**
 * One worker of a controller's work queue, as client-go's controllers run it
 * (`processNextWorkItem`): take a key, sync it, forget its back-off on success, put it back
 * rate-limited on failure, mark it done either way; until the queue shuts down.
 */
import { StatusError } from './status.js';
import type { WorkQueue } from './workqueue.js';

/** What a worker tells its controller. */
export interface WorkerReport {
  synced(key: string): void;
  failed(key: string, err: unknown): void;
}

/** Runs one worker over `queue` until it shuts down. */
export async function runQueueWorker(
  queue: WorkQueue,
  sync: (key: string) => Promise<void>,
  report: WorkerReport,
): Promise<void> {
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    try {
      await sync(key);
      report.synced(key);
      queue.forget(key);
    } catch (err) {
      report.failed(key, err);
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
  }
}

/** A 409 Conflict: the write lost a race, and the retry the queue makes is the whole answer (not worth a log line). */
export function isConflict(err: unknown): boolean {
  return err instanceof StatusError && err.code === 409;
}
