/**
 * The Job controller against a real server, pods finished by hand through /status (no kubelet
 * runs): pods from the template with the reference's metadata, counting through
 * uncountedTerminatedPods, Complete and Failed with the reference's reasons, Indexed Jobs'
 * completedIndexes, suspend, and the tracking finalizer coming off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../../src/client/client.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type TestCluster, testCluster } from '../../../src/testing/index.js';

type Obj = KubeObject & { spec?: any; status?: any };

async function until<T>(fn: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function job(name: string, spec: Record<string, unknown>): Obj {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  };
}

async function podsOf(kube: KubeClient, ns: string, name: string, n: number): Promise<Obj[]> {
  return until(async () => {
    const list = await kube
      .resource<Obj>('pods', ns)
      .list({ labelSelector: `batch.kubernetes.io/job-name=${name}` });
    const active = list.items.filter((p) => !p.status?.phase || p.status.phase === 'Pending');
    return active.length === n ? active : undefined;
  }, `${n} pods of ${name}`);
}

async function finish(kube: KubeClient, ns: string, pod: Obj, exitCode: number): Promise<void> {
  const phase = exitCode === 0 ? 'Succeeded' : 'Failed';
  await kube.resource('pods', ns).patch(
    pod.metadata!.name!,
    {
      status: {
        phase,
        containerStatuses: [
          {
            name: 'c',
            image: 'busybox',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: {
              terminated: {
                exitCode,
                reason: exitCode === 0 ? 'Completed' : 'Error',
                startedAt: '2026-01-01T00:00:00Z',
                finishedAt: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
              },
            },
          },
        ],
      },
    },
    'merge',
    { subresource: 'status' },
  );
}

async function jobWith(kube: KubeClient, ns: string, name: string, check: (j: Obj) => boolean): Promise<Obj> {
  return until(async () => {
    const j = await kube.resource<Obj>('jobs.batch', ns).get(name);
    return check(j) ? j : undefined;
  }, `job ${name}`);
}

describe('the job controller', () => {
  let cluster: TestCluster;
  let kube: KubeClient;
  const ns = 'default';
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace', 'garbagecollector', 'job'] });
    kube = cluster.client;
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('runs a NonIndexed Job to Complete, the pods as kube-controller-manager makes them', async () => {
    const created = await kube
      .resource<Obj>('jobs.batch', ns)
      .create(job('two', { completions: 2, parallelism: 2 }));
    const pods = await podsOf(kube, ns, 'two', 2);
    const pod = pods[0]!;
    expect(pod.metadata?.generateName).toBe('two-');
    expect(pod.metadata?.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pod.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'two',
        uid: created.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(pod.metadata?.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'two', 'job-name': 'two' });
    const running = await jobWith(kube, ns, 'two', (j) => j.status?.active === 2);
    expect(running.status).toMatchObject({
      active: 2,
      ready: 0,
      terminating: 0,
      uncountedTerminatedPods: {},
    });
    for (const p of pods) await finish(kube, ns, p, 0);
    const done = await jobWith(kube, ns, 'two', (j) =>
      (j.status?.conditions ?? []).some((c: any) => c.type === 'Complete'),
    );
    expect(done.status.succeeded).toBe(2);
    expect(done.status.conditions.map((c: any) => [c.type, c.reason, c.message])).toEqual([
      ['SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    expect(done.status.completionTime).toBeDefined();
    const after = await until(async () => {
      const list = await kube
        .resource<Obj>('pods', ns)
        .list({ labelSelector: 'batch.kubernetes.io/job-name=two' });
      return list.items.every((p) => (p.metadata?.finalizers ?? []).length === 0) ? list.items : undefined;
    }, 'finalizers removed');
    expect(after).toHaveLength(2);
  });

  it('fails a Job past its backoffLimit', async () => {
    await kube.resource<Obj>('jobs.batch', ns).create(job('fails', { backoffLimit: 0 }));
    const [pod] = await podsOf(kube, ns, 'fails', 1);
    await finish(kube, ns, pod!, 3);
    const failed = await jobWith(kube, ns, 'fails', (j) =>
      (j.status?.conditions ?? []).some((c: any) => c.type === 'Failed'),
    );
    expect(failed.status.failed).toBe(1);
    expect(failed.status.conditions.map((c: any) => [c.type, c.reason])).toEqual([
      ['FailureTarget', 'BackoffLimitExceeded'],
      ['Failed', 'BackoffLimitExceeded'],
    ]);
  });

  it('runs an Indexed Job, one pod per index, and records completedIndexes', async () => {
    await kube
      .resource<Obj>('jobs.batch', ns)
      .create(job('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    const pods = await podsOf(kube, ns, 'idx', 3);
    const byIndex = new Map(
      pods.map((p) => [p.metadata!.annotations!['batch.kubernetes.io/job-completion-index'], p]),
    );
    expect([...byIndex.keys()].sort()).toEqual(['0', '1', '2']);
    const p1 = byIndex.get('1')!;
    expect(p1.metadata?.generateName).toBe('idx-1-');
    expect(p1.metadata?.labels?.['batch.kubernetes.io/job-completion-index']).toBe('1');
    expect(p1.spec.hostname).toBe('idx-1');
    expect(p1.spec.containers[0].env).toEqual([
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: {
          fieldRef: {
            apiVersion: 'v1',
            fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']",
          },
        },
      },
    ]);
    await finish(kube, ns, byIndex.get('0')!, 0);
    await finish(kube, ns, byIndex.get('2')!, 0);
    const partial = await jobWith(kube, ns, 'idx', (j) => j.status?.completedIndexes === '0,2');
    expect(partial.status.succeeded).toBe(2);
    await finish(kube, ns, p1, 0);
    const done = await jobWith(kube, ns, 'idx', (j) =>
      (j.status?.conditions ?? []).some((c: any) => c.type === 'Complete'),
    );
    expect(done.status.completedIndexes).toBe('0-2');
  });

  it('deletes the active pods of a suspended Job and says so in a condition', async () => {
    await kube.resource<Obj>('jobs.batch', ns).create(job('pause', { parallelism: 1 }));
    await podsOf(kube, ns, 'pause', 1);
    await kube.resource<Obj>('jobs.batch', ns).patch('pause', { spec: { suspend: true } }, 'merge');
    const suspended = await jobWith(kube, ns, 'pause', (j) =>
      (j.status?.conditions ?? []).some((c: any) => c.type === 'Suspended'),
    );
    expect(suspended.status.conditions[0]).toMatchObject({
      type: 'Suspended',
      status: 'True',
      reason: 'JobSuspended',
      message: 'Job suspended',
    });
    expect(suspended.status.startTime).toBeUndefined();
  });

  it('adopts an orphan its selector picks and releases a pod it no longer picks', async () => {
    const pods = kube.resource<Obj>('pods', ns);
    await pods.create({
      metadata: { name: 'stray', labels: { app: 'adopt' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
    });
    const created = await kube.resource<Obj>('jobs.batch', ns).create(
      job('adopter', {
        manualSelector: true,
        selector: { matchLabels: { app: 'adopt' } },
        template: {
          metadata: { labels: { app: 'adopt' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
        },
      }),
    );
    const adopted = await until(async () => {
      const p = await pods.get('stray');
      return p.metadata?.ownerReferences ? p : undefined;
    }, 'the orphan adopted');
    expect(adopted.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'adopter',
        uid: created.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(adopted.metadata?.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    await jobWith(kube, ns, 'adopter', (j) => j.status?.active === 1);
    expect((await pods.list({ labelSelector: 'app=adopt' })).items).toHaveLength(1);

    await pods.patch('stray', { metadata: { labels: { app: 'elsewhere' } } }, 'merge');
    const released = await until(async () => {
      const p = await pods.get('stray');
      return p.metadata?.ownerReferences ? undefined : p;
    }, 'the pod released');
    expect(released.metadata?.finalizers).toBeUndefined();
    const replacement = await until(async () => {
      const list = await pods.list({ labelSelector: 'app=adopt' });
      return list.items[0];
    }, 'a new pod for the Job');
    expect(replacement.metadata?.generateName).toBe('adopter-');
  });
});
