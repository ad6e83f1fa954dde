/**
 * backoffLimitPerIndex: the per-index rules (failure counts from the pod annotations, an index
 * failed for good, the replacement's counts and its back-off) and, against a real server on a
 * manual clock, a replacement that waits out its index's back-off and inherits the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningControllers, startControllers } from '../../../src/controllers/index.js';
import {
  calculateFailedIndexes,
  indexesReadyNow,
  indexFailureAnnotations,
  isIndexFailed,
} from '../../../src/controllers/job/per-index.js';
import type { Pod } from '../../../src/controllers/job/pods.js';
import type { Job } from '../../../src/controllers/job/types.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import { type TestCluster, testCluster } from '../../../src/testing/index.js';
import { eventually } from '../../helpers/wait.js';

const T0 = Date.parse('2026-01-01T00:10:00Z');

function failedPod(index: number, count: number, exitCode = 1, ignored = 0): Pod {
  const annotations: Record<string, string> = {
    'batch.kubernetes.io/job-completion-index': String(index),
    'batch.kubernetes.io/job-index-failure-count': String(count),
  };
  if (ignored > 0) annotations['batch.kubernetes.io/job-index-ignored-failure-count'] = String(ignored);
  return {
    metadata: {
      name: `p${index}-${count}`,
      uid: `u${index}-${count}`,
      annotations,
      finalizers: ['batch.kubernetes.io/job-tracking'],
    },
    status: {
      phase: 'Failed',
      containerStatuses: [
        { name: 'c', state: { terminated: { exitCode, finishedAt: new Date(T0).toISOString() } } },
      ],
    },
  };
}

const perIndexJob = (extra: Record<string, unknown> = {}): Job => ({
  spec: { completions: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1, ...extra },
  status: { failedIndexes: '2' },
});

describe('backoffLimitPerIndex rules', () => {
  it('fails an index once a counted failure reaches the limit, or on a FailIndex rule', () => {
    const job = perIndexJob();
    expect(isIndexFailed(job, failedPod(0, 0))).toBe(false);
    expect(isIndexFailed(job, failedPod(0, 1))).toBe(true);
    const policy = perIndexJob({
      podFailurePolicy: {
        rules: [
          { action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } },
          { action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } },
        ],
      },
    });
    expect(isIndexFailed(policy, failedPod(0, 0, 42))).toBe(true);
    expect(isIndexFailed(policy, failedPod(0, 1, 7))).toBe(false);
    expect(calculateFailedIndexes(job, [failedPod(0, 1), failedPod(1, 0)])).toEqual([
      { first: 0, last: 0 },
      { first: 2, last: 2 },
    ]);
  });

  it('gives the replacement the replaced pod’s counts plus its failure', () => {
    expect(indexFailureAnnotations(perIndexJob(), undefined)).toEqual({
      'batch.kubernetes.io/job-index-failure-count': '0',
    });
    expect(indexFailureAnnotations(perIndexJob(), failedPod(0, 1))).toEqual({
      'batch.kubernetes.io/job-index-failure-count': '2',
    });
    const ignoring = perIndexJob({
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } }] },
    });
    expect(indexFailureAnnotations(ignoring, failedPod(0, 1, 7, 1))).toEqual({
      'batch.kubernetes.io/job-index-failure-count': '1',
      'batch.kubernetes.io/job-index-ignored-failure-count': '2',
    });
  });

  it('holds an index back 10 s doubling per failure, from its last failed pod', () => {
    const delayed = new Map([
      [0, failedPod(0, 0)],
      [1, failedPod(1, 1)],
    ]);
    expect(indexesReadyNow([0, 1], delayed, T0 + 4_000)).toEqual({ ready: [], wait: 6_000 });
    expect(indexesReadyNow([0, 1], delayed, T0 + 10_000)).toEqual({ ready: [0], wait: 0 });
    expect(indexesReadyNow([0, 1, 2], delayed, T0)).toEqual({ ready: [2], wait: 0 });
  });
});

describe('the job controller with backoffLimitPerIndex', () => {
  const clock = new ManualClock(T0);
  let cluster: TestCluster;
  let controllers: RunningControllers;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace'] });
    controllers = await startControllers({
      client: cluster.client,
      controllers: ['job'],
      clock,
    });
  });
  afterAll(async () => {
    await controllers?.close();
    await cluster?.close();
  });

  it('replaces a failed index’s pod after its back-off, carrying the failure count', async () => {
    const kube = cluster.client;
    const jobs = kube.resource<Job>('jobs.batch', 'default');
    const pods = kube.resource<Pod>('pods', 'default');
    await jobs.create({
      metadata: { name: 'perix' },
      spec: {
        completions: 1,
        completionMode: 'Indexed',
        backoffLimitPerIndex: 2,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    } as Job);
    const first = await eventually(async () => (await pods.list()).items[0], 'the first pod');
    expect(first.metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count']).toBe('0');
    await pods.patch(
      first.metadata!.name!,
      {
        status: {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'c',
              image: 'busybox',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: {
                terminated: {
                  exitCode: 1,
                  startedAt: '2026-01-01T00:09:00Z',
                  finishedAt: '2026-01-01T00:10:00Z',
                },
              },
            },
          ],
        },
      },
      'merge',
      { subresource: 'status' },
    );
    // The clock moves on in small steps until a sync (after the batch period) saw the failure,
    // wrote no pod active and held the index back, well before its 10 s back-off ends.
    await eventually(async () => {
      // `active` is omitted at 0.
      if ((await jobs.get('perix')).status?.active === undefined) return true;
      clock.advance(100);
      return false;
    }, 'no pod active');
    expect(clock.now()).toBeLessThan(T0 + 9_000);
    expect((await pods.list()).items.map((p) => p.status?.phase)).toEqual(['Failed']);
    clock.advance(T0 + 10_000 - clock.now());
    const replacement = await eventually(
      async () => (await pods.list()).items.find((p) => p.metadata?.uid !== first.metadata?.uid),
      'the replacement pod',
    );
    expect(replacement.metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count']).toBe('1');
    // Once the replacement exists the failed pod's finalizer comes off and it is counted (the
    // clock moves on in small steps past the batch period of the sync the new pod starts).
    const counted = await eventually(async () => {
      const j = await jobs.get('perix');
      if (j.status?.failed === 1) return j;
      clock.advance(100);
      return undefined;
    }, 'the failure counted');
    expect(counted.status).toMatchObject({ active: 1, failedIndexes: '' });
  });
});
