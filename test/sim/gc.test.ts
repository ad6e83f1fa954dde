/**
 * Deletion propagation through ownerReferences: Background, Foreground and
 * Orphan, for Deployment -> ReplicaSet -> Pod chains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/protocol/events.js';
import { eventually } from '../helpers/wait.js';
import { type Cluster, deployment, rolledOut, startCluster } from './harness.js';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster({ nodes: 2 });
});
afterAll(async () => {
  await c?.close();
});

async function listed(plural: string, app: string): Promise<KubeObject[]> {
  return (await c.kube.resource(plural, c.namespace).list({ labelSelector: `app=${app}` })).items;
}

/** Records every deletion (kind, name, resourceVersion) in the namespace, in watch order per kind. */
async function recordDeletions(kinds: string[]) {
  const deleted: Array<{ kind: string; name: string; rv: number }> = [];
  const informers = kinds.map((k) => c.kube.informer(k, { namespace: c.namespace }));
  for (const inf of informers) {
    inf.on({
      delete: (o) =>
        void deleted.push({
          kind: o.kind ?? '',
          name: o.metadata?.name ?? '',
          rv: Number(o.metadata?.resourceVersion),
        }),
    });
    inf.start();
  }
  await Promise.all(informers.map((i) => i.synced()));
  return { deleted, stop: () => Promise.all(informers.map((i) => i.stop())) };
}

describe('garbage collector', () => {
  it('Background: deleting a Deployment takes its ReplicaSets and pods with it', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('bg', 3));
    await rolledOut(c.kube, c.namespace, 'bg');
    await c.kube.resource('deployments', c.namespace).delete('bg', { propagationPolicy: 'Background' });
    await eventually(async () => (await listed('replicasets', 'bg')).length === 0, 'ReplicaSets gone');
    await eventually(async () => (await listed('pods', 'bg')).length === 0, 'pods gone');
  });

  it('Foreground: the Deployment waits, with its finalizer, until its pods and ReplicaSet are gone', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('fg', 3));
    await rolledOut(c.kube, c.namespace, 'fg');
    const rec = await recordDeletions(['pods', 'replicasets', 'deployments']);
    try {
      const marked = (await c.kube
        .resource('deployments', c.namespace)
        .delete('fg', { propagationPolicy: 'Foreground' })) as KubeObject;
      expect(marked.metadata?.deletionTimestamp).toBeDefined();
      expect(marked.metadata?.finalizers).toContain('foregroundDeletion');
      await eventually(
        () => rec.deleted.some((d) => d.kind === 'Deployment' && d.name === 'fg'),
        'the Deployment gone',
      );
      const pods = rec.deleted.filter((d) => d.kind === 'Pod' && d.name.startsWith('fg-'));
      const rs = rec.deleted.find((d) => d.kind === 'ReplicaSet' && d.name.startsWith('fg-'));
      const dep = rec.deleted.find((d) => d.kind === 'Deployment')!;
      expect(pods).toHaveLength(3);
      expect(rs).toBeDefined();
      // Dependents first: every pod before its ReplicaSet, the ReplicaSet before the Deployment.
      expect(Math.max(...pods.map((p) => p.rv))).toBeLessThan(rs!.rv);
      expect(rs!.rv).toBeLessThan(dep.rv);
    } finally {
      await rec.stop();
    }
  });

  it('Orphan: the ReplicaSet and its pods stay, without the owner reference', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('orph', 2));
    await rolledOut(c.kube, c.namespace, 'orph');
    await c.kube.resource('deployments', c.namespace).delete('orph', { propagationPolicy: 'Orphan' });
    await eventually(
      async () => !(await c.kube.resource('deployments', c.namespace).find('orph')),
      'the Deployment gone',
    );
    const [rs] = await listed('replicasets', 'orph');
    expect(rs).toBeDefined();
    expect(rs.metadata?.ownerReferences ?? []).toEqual([]);
    // The orphaned ReplicaSet still manages its pods: it kept both, and it replaces one deleted
    // (the replacement is the barrier: the controller has acted since the orphaning).
    const kept = await listed('pods', 'orph');
    expect(kept).toHaveLength(2);
    const gone = kept[0].metadata?.name ?? '';
    await c.kube.resource('pods', c.namespace).delete(gone);
    const pods = await eventually(async () => {
      const now = (await listed('pods', 'orph')).filter((p) => !p.metadata?.deletionTimestamp);
      return now.length === 2 && !now.some((p) => p.metadata?.name === gone) && now;
    }, 'the orphaned ReplicaSet replacing a deleted pod');
    expect(pods.every((p) => p.metadata?.ownerReferences?.[0]?.uid === rs.metadata?.uid)).toBe(true);
    // A new Deployment with the same selector adopts it.
    await c.kube.resource('deployments', c.namespace).create(deployment('orph', 2));
    const adopted = await eventually(async () => {
      const [x] = await listed('replicasets', 'orph');
      return x?.metadata?.ownerReferences?.[0]?.kind === 'Deployment' && x;
    }, 'adoption');
    expect(adopted.metadata?.name).toBe(rs.metadata?.name);
  });

  it('a pod whose ReplicaSet is deleted with Orphan keeps running, unowned', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('rsorph', 1));
    await rolledOut(c.kube, c.namespace, 'rsorph');
    // Take the ReplicaSet away from its Deployment first, so the Deployment does not recreate it.
    await c.kube.resource('deployments', c.namespace).delete('rsorph', { propagationPolicy: 'Orphan' });
    await eventually(
      async () => !(await c.kube.resource('deployments', c.namespace).find('rsorph')),
      'Deployment gone',
    );
    const [rs] = await listed('replicasets', 'rsorph');
    await c.kube
      .resource('replicasets', c.namespace)
      .delete(rs.metadata?.name ?? '', { propagationPolicy: 'Orphan' });
    await eventually(async () => (await listed('replicasets', 'rsorph')).length === 0, 'ReplicaSet gone');
    const pods = await eventually(async () => {
      const p = await listed('pods', 'rsorph');
      return p.length === 1 && (p[0].metadata?.ownerReferences ?? []).length === 0 && p;
    }, 'an unowned pod');
    expect((pods[0].status as any).phase).toBe('Running');
  });
});
