/**
 * Simulated pods that run to completion (sim/kubelet/completion.ts) under the Job controller: a
 * test cluster with every controller and the simulation runs a Job of three completions to
 * Complete, and failing Jobs (exit codes from an annotation and from a shell command) to Failed
 * with backoffLimit, Never replacing the pod and OnFailure restarting the container.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { exitPlan } from '../../../src/sim/kubelet/completion.js';
import { type TestCluster, testCluster } from '../../../src/testing/index.js';

type Obj = KubeObject & { spec?: any; status?: any };

describe('exitPlan', () => {
  it('reads annotations first, per container before per pod', () => {
    const a = {
      'sim.watchmark.dev/exit-code': '2',
      'sim.watchmark.dev/exit-code.b': '5',
      'sim.watchmark.dev/run-seconds': '0.5',
    };
    expect(exitPlan({ name: 'a' }, a, 100)).toEqual({ runMs: 500, exitCode: 2 });
    expect(exitPlan({ name: 'b' }, a, 100)).toEqual({ runMs: 500, exitCode: 5 });
  });
  it('reads a shell script’s sleeps and exit', () => {
    expect(exitPlan({ name: 'c', command: ['sh', '-c', 'sleep 2; echo hi; exit 3'] }, {}, 100)).toEqual({
      runMs: 2000,
      exitCode: 3,
    });
    expect(
      exitPlan({ name: 'c', command: ['/bin/bash'], args: ['-c', 'sleep 1 && false'] }, {}, 100),
    ).toEqual({ runMs: 1000, exitCode: 1 });
    expect(exitPlan({ name: 'c', command: ['python', 'job.py'] }, {}, 100)).toEqual({
      runMs: 100,
      exitCode: 0,
    });
  });
});

async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Jobs on the simulated cluster', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['*', 'simulation'] });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  const finished = (name: string, type: string) =>
    until(async () => {
      const j = await cluster.client.resource<Obj>('jobs.batch', 'default').get(name);
      return (j.status?.conditions ?? []).some((c: any) => c.type === type && c.status === 'True')
        ? j
        : undefined;
    }, `${name} ${type}`);

  function job(
    name: string,
    spec: Record<string, unknown>,
    pod: Record<string, unknown>,
    annotations = {},
  ): Obj {
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: {
        ...spec,
        template: {
          metadata: { annotations },
          spec: { containers: [{ name: 'work', image: 'busybox' }], ...pod },
        },
      },
    };
  }

  it('runs a Job of three completions to Complete', async () => {
    await cluster.client
      .resource<Obj>('jobs.batch', 'default')
      .create(
        job(
          'three',
          { completions: 3, parallelism: 2 },
          { restartPolicy: 'Never' },
          { 'sim.watchmark.dev/run-seconds': '0.2' },
        ),
      );
    const done = await finished('three', 'Complete');
    expect(done.status).toMatchObject({ succeeded: 3, ready: 0, terminating: 0 });
    expect(done.status.active).toBeUndefined();
    const pods = await cluster.client
      .resource<Obj>('pods', 'default')
      .list({ labelSelector: 'job-name=three' });
    expect(pods.items.map((p) => p.status?.phase)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect(pods.items[0]!.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    expect(pods.items[0]!.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'PodCompleted',
    });
  });

  it('fails a Job whose pod exits non-zero, past backoffLimit (Never)', async () => {
    await cluster.client
      .resource<Obj>('jobs.batch', 'default')
      .create(
        job(
          'broken',
          { backoffLimit: 0 },
          { restartPolicy: 'Never' },
          { 'sim.watchmark.dev/exit-code': '3' },
        ),
      );
    const failed = await finished('broken', 'Failed');
    expect(failed.status.failed).toBe(1);
    expect(failed.status.conditions.at(-1)).toMatchObject({
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    const pods = await cluster.client
      .resource<Obj>('pods', 'default')
      .list({ labelSelector: 'job-name=broken' });
    expect(pods.items[0]!.status).toMatchObject({ phase: 'Failed' });
    expect(pods.items[0]!.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('fails a Job whose container keeps crashing, by its restarts (OnFailure)', async () => {
    await cluster.client.resource<Obj>('jobs.batch', 'default').create(
      job(
        'crashing',
        { backoffLimit: 2 },
        {
          restartPolicy: 'OnFailure',
          containers: [{ name: 'work', image: 'busybox', command: ['sh', '-c', 'exit 7'] }],
        },
      ),
    );
    const failed = await finished('crashing', 'Failed');
    expect(failed.status.conditions.at(-1)).toMatchObject({ reason: 'BackoffLimitExceeded' });
  });
});
