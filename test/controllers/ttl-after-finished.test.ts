/**
 * The TTL-after-finished controller beyond the fidelity cases (cases/ttl-after-finished.yaml):
 * which Jobs need cleanup, when they expire, and the delete falling due on the injected clock
 * (Foreground: with no garbage collector running, the Job stays marked for deletion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningControllers, startControllers } from '../../src/controllers/index.js';
import { expiresAt, type FinishedJob, needsCleanup } from '../../src/controllers/ttl-after-finished.js';
import { ManualClock } from '../../src/protocol/clock.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { eventually, waitUntil } from '../helpers/wait.js';

const finished = (ttl: number | undefined, type = 'Complete', at: string | null = '2026-01-01T00:01:00Z') =>
  ({
    metadata: { name: 'j', namespace: 'ns' },
    spec: ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
    status: { conditions: [{ type, status: 'True', lastTransitionTime: at }] },
  }) as FinishedJob;

describe('needsCleanup and expiresAt', () => {
  it('wants a TTL and a Complete or Failed condition that is True', () => {
    expect(needsCleanup(finished(0))).toBe(true);
    expect(needsCleanup(finished(10, 'Failed'))).toBe(true);
    expect(needsCleanup(finished(undefined))).toBe(false);
    expect(needsCleanup(finished(0, 'SuccessCriteriaMet'))).toBe(false);
    expect(needsCleanup({ spec: { ttlSecondsAfterFinished: 0 } })).toBe(false);
  });
  it('counts the TTL from the condition transition time', () => {
    expect(expiresAt(finished(90))).toBe(Date.parse('2026-01-01T00:02:30Z'));
  });
  it('cannot time a condition without a transition time', () => {
    expect(() => expiresAt(finished(0, 'Complete', null))).toThrow(
      'unable to find the time when the Job ns/j finished',
    );
  });
});

describe('the TTL-after-finished controller', () => {
  const start = Date.parse('2026-01-01T00:01:00Z');
  const clock = new ManualClock(start);
  let cluster: TestCluster;
  let controllers: RunningControllers;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace'] });
    controllers = await startControllers({
      client: cluster.client,
      controllers: ['ttl-after-finished'],
      clock,
    });
  });
  afterAll(async () => {
    await controllers?.close();
    await cluster?.close();
  });

  it('deletes a finished Job once its TTL has passed on the clock, Foreground', async () => {
    const jobs = cluster.client.resource<FinishedJob>('jobs.batch', 'default');
    const finished = async (name: string, ttl: number) => {
      await jobs.create({
        metadata: { name },
        spec: {
          managedBy: 'example.com/custom',
          ttlSecondsAfterFinished: ttl,
          template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } },
        },
      } as FinishedJob);
      await jobs.patch(
        name,
        {
          status: {
            startTime: '2026-01-01T00:00:00Z',
            completionTime: '2026-01-01T00:01:00Z',
            succeeded: 1,
            conditions: [
              { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' },
              { type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' },
            ],
          },
        },
        'merge',
        { subresource: 'status' },
      );
    };
    const deleted = (name: string) =>
      eventually(async () => {
        const job = await jobs.get(name);
        return job.metadata?.deletionTimestamp ? job : undefined;
      }, `Job ${name} marked for deletion`);
    await finished('done', 60);
    // The controller queues it for when the TTL runs out.
    await waitUntil(() => clock.pending > 0, 'the controller to queue the Job for its TTL');
    clock.advance(30_000);
    // A positive barrier: a Job whose TTL ran out is deleted, so the controller has worked through
    // what the advance made due (an early timer of `done` would have come first).
    await finished('barrier', 0);
    expect((await deleted('barrier')).metadata?.deletionTimestamp).toBeDefined();
    expect((await jobs.get('done')).metadata?.deletionTimestamp).toBeUndefined();
    clock.advance(30_000);
    const job = await deleted('done');
    expect(job.metadata?.finalizers).toEqual(['foregroundDeletion']);
    expect(controllers.stats()['ttl-after-finished-controller']?.failures).toBe(0);
  });
});
