/**
 * The deployment and ReplicaSet controllers against a real server, observed
 * the way a user would: through watches, `status`, and Events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Informer } from '../../src/client/informer/informer.js';
import type { KubeObject } from '../../src/protocol/events.js';
import type { Deployment, Pod } from '../../src/sim/core/objects.js';
import { eventually } from '../helpers/wait.js';
import { type Cluster, deployment, rolledOut, startCluster } from './harness.js';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster({ nodes: 3 });
});
afterAll(async () => {
  await c?.close();
});

const isReady = (p: Pod) =>
  !p.metadata?.deletionTimestamp &&
  (p.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');

/** Follows the pods of app=<name>, calling `check` with the pods after every change. */
async function followPods(name: string, check: (pods: Pod[]) => void): Promise<Informer<Pod>> {
  const informer = c.kube.informer<Pod>('pods', { namespace: c.namespace, labelSelector: `app=${name}` });
  const run = () => check(informer.list());
  informer.on({ add: run, update: run, delete: run });
  informer.start();
  await informer.synced();
  return informer;
}

async function events(name: string, kind?: string): Promise<any[]> {
  const list = await c.kube.resource('events', c.namespace).list();
  return (list.items as any[]).filter(
    (e) => e.involvedObject.name.startsWith(name) && (!kind || e.involvedObject.kind === kind),
  );
}

async function replicaSets(name: string): Promise<KubeObject[]> {
  const list = await c.kube.resource('replicasets', c.namespace).list({ labelSelector: `app=${name}` });
  return list.items;
}

function progressing(d: KubeObject): any {
  return ((d.status as any)?.conditions ?? []).find((x: any) => x.type === 'Progressing');
}

describe('deployment controller', () => {
  it('creates <name>-<hash> ReplicaSets with owner, labels and annotations, then scales up and down', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment('scale', 2));
    await rolledOut(c.kube, c.namespace, 'scale');
    const [rs] = await replicaSets('scale');
    const hash = rs.metadata?.labels?.['pod-template-hash'] ?? '';
    expect(rs.metadata?.name).toBe(`scale-${hash}`);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{8,10}$/);
    expect((rs.spec as any).selector.matchLabels).toEqual({ app: 'scale', 'pod-template-hash': hash });
    expect(rs.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        name: 'scale',
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
    expect(rs.metadata?.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '2',
      'deployment.kubernetes.io/max-replicas': '3',
    });

    await deployments.scale('scale', 5);
    let d = await rolledOut(c.kube, c.namespace, 'scale');
    expect(d.status).toMatchObject({
      replicas: 5,
      updatedReplicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
    });
    await deployments.scale('scale', 1);
    d = await rolledOut(c.kube, c.namespace, 'scale');
    expect(d.status.replicas).toBe(1);
    const pods = await eventually(async () => {
      const list = await c.kube.resource('pods', c.namespace).list({ labelSelector: 'app=scale' });
      return list.items.length === 1 && list.items;
    }, 'one pod left');
    expect(pods[0].metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'ReplicaSet',
      name: rs.metadata?.name,
    });

    const scaling = await eventually(async () => {
      const evs = (await events('scale', 'Deployment')).map((e) => e.message);
      return evs.length >= 3 && evs;
    }, 'scaling events');
    expect(scaling).toEqual(
      expect.arrayContaining([
        `Scaled up replica set ${rs.metadata?.name} from 0 to 2`,
        `Scaled up replica set ${rs.metadata?.name} from 2 to 5`,
        `Scaled down replica set ${rs.metadata?.name} from 5 to 1`,
      ]),
    );
    const rsEvents = await eventually(async () => {
      const evs = await events(rs.metadata?.name ?? '', 'ReplicaSet');
      return evs.some((e) => e.reason === 'SuccessfulDelete') && evs;
    }, 'SuccessfulDelete');
    expect(rsEvents.find((e) => e.reason === 'SuccessfulCreate')).toMatchObject({
      type: 'Normal',
      source: { component: 'replicaset-controller' },
      message: expect.stringMatching(new RegExp(`^Created pod: ${rs.metadata?.name}-[a-z0-9]{5}$`)),
    });
  });

  it.each([
    { replicas: 6, maxSurge: 2, maxUnavailable: 1 },
    { replicas: 5, maxSurge: 0, maxUnavailable: '40%' },
    { replicas: 4, maxSurge: '25%', maxUnavailable: '25%' },
  ])('rolls out within maxSurge/maxUnavailable at every observed step: %o', async (p) => {
    const name = `roll-${String(p.maxSurge).replace('%', 'p')}-${String(p.maxUnavailable).replace('%', 'p')}`;
    const strategy = {
      type: 'RollingUpdate' as const,
      rollingUpdate: { maxSurge: p.maxSurge, maxUnavailable: p.maxUnavailable },
    };
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment(name, p.replicas, { strategy }));
    await rolledOut(c.kube, c.namespace, name);
    const surge =
      typeof p.maxSurge === 'number'
        ? p.maxSurge
        : Math.ceil((p.replicas * Number.parseInt(p.maxSurge, 10)) / 100);
    let unavailable =
      typeof p.maxUnavailable === 'number'
        ? p.maxUnavailable
        : Math.floor((p.replicas * Number.parseInt(p.maxUnavailable, 10)) / 100);
    if (surge === 0 && unavailable === 0) unavailable = 1;
    const violations: string[] = [];
    let states = 0;
    const informer = await followPods(name, (pods) => {
      states++;
      const ready = pods.filter(isReady).length;
      if (pods.length > p.replicas + surge) violations.push(`${pods.length} pods > ${p.replicas}+${surge}`);
      if (ready < p.replicas - unavailable) violations.push(`${ready} ready < ${p.replicas}-${unavailable}`);
    });
    try {
      await deployments.patch(
        name,
        { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } },
        'strategic',
      );
      const d = await rolledOut(c.kube, c.namespace, name);
      await eventually(
        () =>
          informer.list().every((pod) => (pod.spec.containers ?? [])[0]?.image === 'nginx:1.28') &&
          informer.size === p.replicas,
        'only new pods',
      );
      expect(violations).toEqual([]);
      expect(states).toBeGreaterThan(p.replicas);
      expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
      expect(progressing(d)).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
      const rss = await replicaSets(name);
      expect(rss).toHaveLength(2);
      expect(rss.map((rs) => (rs.spec as any).replicas).sort()).toEqual([0, p.replicas]);
    } finally {
      await informer.stop();
    }
  });

  it('Recreate removes every old pod before creating a new one', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment('recreate', 3, { strategy: { type: 'Recreate' } }));
    await rolledOut(c.kube, c.namespace, 'recreate');
    const [oldRS] = await replicaSets('recreate');
    const oldHash = oldRS.metadata?.labels?.['pod-template-hash'];
    const mixed: string[] = [];
    let sawNone = false;
    const informer = await followPods('recreate', (pods) => {
      const old = pods.filter((x) => x.metadata?.labels?.['pod-template-hash'] === oldHash).length;
      if (old > 0 && old < pods.length) mixed.push(`${old} old of ${pods.length}`);
      if (pods.length === 0) sawNone = true;
    });
    try {
      await deployments.patch(
        'recreate',
        { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } },
        'strategic',
      );
      await rolledOut(c.kube, c.namespace, 'recreate');
      await eventually(
        () =>
          informer.size === 3 &&
          informer.list().every((x) => x.metadata?.labels?.['pod-template-hash'] !== oldHash),
        'new pods',
      );
      expect(mixed).toEqual([]);
      expect(sawNone).toBe(true);
    } finally {
      await informer.stop();
    }
  });

  it('a paused Deployment does not roll out until resumed', async () => {
    const deployments = c.kube.resource<Deployment>('deployments', c.namespace);
    const seen: string[] = [];
    const watch = c.kube.informer<Deployment>('deployments', {
      namespace: c.namespace,
      fieldSelector: 'metadata.name=paused',
    });
    watch.on({
      update: (_, d) => {
        const reason = progressing(d)?.reason;
        if (reason && seen.at(-1) !== reason) seen.push(reason);
      },
    });
    watch.start();
    try {
      await deployments.create(deployment('paused', 2) as Deployment);
      await rolledOut(c.kube, c.namespace, 'paused');
      await deployments.patch('paused', { spec: { paused: true } });
      await eventually(
        async () => progressing(await deployments.get('paused'))?.reason === 'DeploymentPaused',
        'DeploymentPaused',
      );
      const d = await deployments.get('paused');
      expect(progressing(d)).toMatchObject({ status: 'Unknown', message: 'Deployment is paused' });
      await deployments.patch(
        'paused',
        { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } },
        'strategic',
      );
      await eventually(async () => {
        const x = await deployments.get('paused');
        return (x.status?.observedGeneration ?? 0) >= (x.metadata?.generation ?? 0);
      }, 'the paused spec change observed');
      // The barrier is observedGeneration: the controller writes it at the end of the same sync that
      // would have created a new ReplicaSet, so a paused Deployment that rolled would show it by now.
      expect(await replicaSets('paused')).toHaveLength(1);

      await deployments.patch('paused', { spec: { paused: false } });
      const done = await rolledOut(c.kube, c.namespace, 'paused');
      expect(progressing(done)).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
      expect(await replicaSets('paused')).toHaveLength(2);
      await eventually(
        () =>
          seen.includes('NewReplicaSetAvailable') &&
          seen.lastIndexOf('NewReplicaSetAvailable') > seen.indexOf('DeploymentResumed'),
        'Resumed, then Available',
      );
      expect(seen).toContain('DeploymentPaused');
    } finally {
      await watch.stop();
    }
  });

  it('reports ProgressDeadlineExceeded when pods never become available', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(
      deployment('stuck', 2, { image: 'doesnotexist:1.0', progressDeadlineSeconds: 1 }),
    );
    // lastUpdateTime has whole seconds, so a 1 s deadline may pass before the pods are even counted.
    const d = await eventually(
      async () => {
        const x = (await deployments.get('stuck')) as any;
        return progressing(x)?.reason === 'ProgressDeadlineExceeded' && x.status.updatedReplicas === 2 && x;
      },
      'ProgressDeadlineExceeded',
      10_000,
    );
    const [rs] = await replicaSets('stuck');
    expect(progressing(d)).toMatchObject({
      status: 'False',
      message: `ReplicaSet "${rs.metadata?.name}" has timed out progressing.`,
    });
    expect(d.status.conditions.find((x: any) => x.type === 'Available')).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
    });
    expect(d.status).toMatchObject({ replicas: 2, unavailableReplicas: 2 });
    expect(d.status.availableReplicas).toBeUndefined();
  });

  it('keeps converging when every watch is cut (after a compaction) mid-rollout', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment('drops', 6));
    for (let i = 0; i < 5; i++) {
      // Each cut follows more progress: some write (a controller's, a kubelet's) since the last one.
      const revision = c.server.latestRevision();
      await eventually(() => c.server.latestRevision() > revision, 'a write between watch cuts');
      if (i === 2) await c.server.compact();
      c.server.dropWatches();
    }
    await rolledOut(c.kube, c.namespace, 'drops', 20_000);
    // The ReplicaSet controller's own count agrees: it writes its status after the pods it made.
    await eventually(async () => {
      const sets = await replicaSets('drops');
      const status = sets[0]?.status as { replicas?: number; observedGeneration?: number } | undefined;
      return (
        sets.length === 1 &&
        status?.replicas === 6 &&
        status.observedGeneration === sets[0].metadata?.generation
      );
    }, 'the ReplicaSet status at 6 replicas');
    const pods = await c.kube.resource('pods', c.namespace).list({ labelSelector: 'app=drops' });
    expect(pods.items).toHaveLength(6);
  });

  it('counts a pod available only minReadySeconds after it is ready', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment('minready', 2, { minReadySeconds: 2 }));
    // Some pod ready but not yet available: robust to the two pods becoming ready far apart on a loaded machine.
    const readyNotAvailable = await eventually(async () => {
      const d = (await deployments.get('minready')) as any;
      return (d.status?.readyReplicas ?? 0) > (d.status?.availableReplicas ?? 0) && d;
    }, 'ready but not yet available');
    expect(readyNotAvailable.status.conditions.find((x: any) => x.type === 'Available').status).toBe('False');
    const [rs] = await replicaSets('minready');
    expect((rs.spec as any).minReadySeconds).toBe(2);
    const d = await rolledOut(c.kube, c.namespace, 'minready', 15_000);
    expect(d.status.availableReplicas).toBe(2);
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    const deployments = c.kube.resource('deployments', c.namespace);
    await deployments.create(deployment('history', 1, { revisionHistoryLimit: 1 }));
    await rolledOut(c.kube, c.namespace, 'history');
    for (const tag of ['1.28', '1.29', '1.30']) {
      await deployments.patch(
        'history',
        { spec: { template: { spec: { containers: [{ name: 'web', image: `nginx:${tag}` }] } } } },
        'strategic',
      );
      await rolledOut(c.kube, c.namespace, 'history');
    }
    const rss = await eventually(async () => {
      const list = await replicaSets('history');
      return list.length === 2 && list;
    }, 'history trimmed to one old ReplicaSet');
    const revisions = rss.map((rs) => rs.metadata?.annotations?.['deployment.kubernetes.io/revision']).sort();
    expect(revisions).toEqual(['3', '4']);
  });
});
