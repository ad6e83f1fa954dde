/**
 * ReplicationControllers in the simulated cluster: the ReplicaSet controller serving the v1 kind
 * (kube's replication manager is that controller over a conversion), so an RC gets its pods,
 * named by generateName, owned by it, run by the simulated kubelets, and its status counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/protocol/events.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { eventually } from '../helpers/wait.js';

interface Rc extends KubeObject {
  spec: { replicas?: number; selector?: Record<string, string>; template?: unknown };
  status?: Record<string, number>;
}

describe('ReplicationControllers under the simulation', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['*', 'simulation'] });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('gets its pods and its status, and scales down', async () => {
    const rcs = cluster.client.resource<Rc>('replicationcontrollers', 'default');
    const created = await rcs.create({
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { app: 'web' },
        template: {
          metadata: { labels: { app: 'web', tier: 'front' } },
          spec: { containers: [{ name: 'app', image: 'nginx' }] },
        },
      },
    });
    const status = await eventually(async () => {
      const rc = await rcs.get('web');
      return rc.status?.availableReplicas === 2 ? rc.status : undefined;
    }, 'the RC to have 2 available replicas');
    expect(status).toEqual({
      replicas: 2,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      observedGeneration: 1,
    });
    const pods = (await cluster.client.resource('pods', 'default').list({ labelSelector: 'app=web' })).items;
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(pod.metadata?.generateName).toBe('web-');
      expect(pod.metadata?.labels).toEqual({ app: 'web', tier: 'front' });
      expect(pod.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          name: 'web',
          uid: created.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    await rcs.patch('web', { spec: { replicas: 1 } });
    await eventually(async () => {
      const rc = await rcs.get('web');
      return rc.status?.replicas === 1 && rc.status?.observedGeneration === 2;
    }, 'the RC scaled to 1');
  });
});

describe('the workload controllers alone (nodes: 0)', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['simulation'], nodes: 0 });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('creates the pods and leaves them unbound, as a control plane without nodes', async () => {
    const rcs = cluster.client.resource<Rc>('replicationcontrollers', 'default');
    await rcs.create({
      metadata: { name: 'alone' },
      spec: {
        replicas: 2,
        template: {
          metadata: { labels: { app: 'alone' } },
          spec: { containers: [{ name: 'app', image: 'nginx' }] },
        },
      },
    });
    const status = await eventually(async () => {
      const rc = await rcs.get('alone');
      return rc.status?.replicas === 2 ? rc.status : undefined;
    }, 'the RC to count 2 replicas');
    expect(status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
    await new Promise((r) => setTimeout(r, 200));
    const pods = (await cluster.client.resource('pods', 'default').list({ labelSelector: 'app=alone' }))
      .items;
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect((pod.spec as { nodeName?: string }).nodeName).toBeUndefined();
      expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    }
  });
});
