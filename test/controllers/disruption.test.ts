/**
 * The disruption controller's arithmetic beyond the fidelity cases (cases/disruption.yaml):
 * a percentage counts the replicas of the pods' controllers (a ReplicaSet, or the Deployment
 * owning it), Ready pods are healthy, and the DisruptionAllowed condition follows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledValue, setCondition } from '../../src/controllers/disruption.js';
import type { KubeObject } from '../../src/protocol/events.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';

describe('scaledValue and setCondition', () => {
  it('rounds percentages up, as intstr.GetScaledValueFromIntOrPercent(roundUp)', () => {
    expect(scaledValue(2, 10)).toBe(2);
    expect(scaledValue('50%', 3)).toBe(2);
    expect(scaledValue('0%', 3)).toBe(0);
    expect(() => scaledValue('half', 3)).toThrow('invalid value for IntOrString');
  });
  it('keeps a condition transition time while its status holds', () => {
    const first = setCondition(
      [],
      { type: 'DisruptionAllowed', status: 'False', reason: 'A' },
      Date.parse('2026-01-01T00:00:00.500Z'),
    );
    expect(first[0]!.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    const same = setCondition(
      first,
      { type: 'DisruptionAllowed', status: 'False', reason: 'B' },
      Date.parse('2026-01-02T00:00:00Z'),
    );
    expect(same[0]).toMatchObject({ reason: 'B', lastTransitionTime: '2026-01-01T00:00:00Z' });
    const flipped = setCondition(
      same,
      { type: 'DisruptionAllowed', status: 'True', reason: 'C' },
      Date.parse('2026-01-03T00:00:00Z'),
    );
    expect(flipped[0]!.lastTransitionTime).toBe('2026-01-03T00:00:00Z');
  });
});

describe('the disruption controller', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace', 'disruption'] });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it("counts a Deployment's replicas for a percentage, and Ready pods as healthy", async () => {
    const ns = 'default';
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'a', image: 'nginx' }] },
    };
    const deployment = await cluster.client.resource('deployments.apps', ns).create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template },
    } as KubeObject);
    const owner = (o: KubeObject) => ({
      apiVersion: o.apiVersion,
      kind: o.kind,
      name: o.metadata?.name,
      uid: o.metadata?.uid,
      controller: true,
    });
    const rs = await cluster.client.resource('replicasets.apps', ns).create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-1', ownerReferences: [owner(deployment)] },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
    } as KubeObject);
    for (const name of ['p1', 'p2', 'p3']) {
      await cluster.client.resource('pods', ns).create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app: 'web' }, ownerReferences: [owner(rs)] },
        spec: template.spec,
      } as KubeObject);
    }
    for (const name of ['p1', 'p2', 'p3']) {
      await cluster.client
        .resource('pods', ns)
        .patch(name, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'merge', {
          subresource: 'status',
        });
    }
    await cluster.client.resource('poddisruptionbudgets.policy', ns).create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'budget' },
      spec: { maxUnavailable: '25%', selector: { matchLabels: { app: 'web' } } },
    } as KubeObject);
    const pdb = await cluster.waitFor<KubeObject>('poddisruptionbudgets.policy', 'budget', {
      namespace: ns,
      until: (o) => (o.status as { currentHealthy?: number } | undefined)?.currentHealthy === 3,
    });
    // The Deployment's 4 replicas, not the ReplicaSet's 2; 25% of 4 may be unavailable.
    expect(pdb.status).toMatchObject({
      expectedPods: 4,
      desiredHealthy: 3,
      currentHealthy: 3,
      disruptionsAllowed: 0,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
    });
  });
});
