/**
 * The per-namespace objects kube-controller-manager keeps: the `default` ServiceAccount
 * (serviceaccount-controller) and the `kube-root-ca.crt` ConfigMap
 * (root-ca-certificate-publisher-controller), made in every active namespace and put back when
 * deleted or (the ConfigMap) changed; opt-in in a test cluster, on with `*`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CA_DESCRIPTION } from '../../src/controllers/namespace-defaults.js';
import type { KubeObject } from '../../src/protocol/events.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';

describe('the serviceaccount and root CA publisher controllers', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({
      tls: true,
      controllers: ['namespace', 'serviceaccount', 'root-ca-cert-publisher'],
    });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  const create = (name: string) =>
    cluster.client.resource('namespaces').create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  it('make the default ServiceAccount and kube-root-ca.crt in the system namespaces and every new one', async () => {
    for (const namespace of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await cluster.waitFor('serviceaccounts', 'default', { namespace });
      await cluster.waitFor('configmaps', 'kube-root-ca.crt', { namespace });
    }
    await create('team-a');
    const sa = await cluster.waitFor('serviceaccounts', 'default', { namespace: 'team-a' });
    expect(Object.keys(sa).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    const cm = await cluster.waitFor<KubeObject>('configmaps', 'kube-root-ca.crt', { namespace: 'team-a' });
    expect(cm.data).toEqual({ 'ca.crt': cluster.server.caPem });
    expect(cm.metadata?.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });
    // Written by kube-controller-manager, as its field manager.
    expect((cm.metadata?.managedFields as Array<{ manager?: string }> | undefined)?.[0]?.manager).toBe(
      'kube-controller-manager',
    );
  });

  it('put them back when deleted, and the ConfigMap data when changed, keeping other changes', async () => {
    await create('team-b');
    const sa = await cluster.waitFor('serviceaccounts', 'default', { namespace: 'team-b' });
    await cluster.client.resource('serviceaccounts', 'team-b').delete('default');
    await cluster.waitFor('serviceaccounts', 'default', {
      namespace: 'team-b',
      until: (o) => o.metadata?.uid !== sa.metadata?.uid,
    });
    const cm = await cluster.waitFor<KubeObject>('configmaps', 'kube-root-ca.crt', { namespace: 'team-b' });
    await cluster.client.resource<KubeObject>('configmaps', 'team-b').update({
      ...cm,
      metadata: { ...cm.metadata, labels: { mine: 'yes' } },
      data: { 'ca.crt': 'tampered', extra: 'x' },
    });
    const back = await cluster.waitFor<KubeObject>('configmaps', 'kube-root-ca.crt', {
      namespace: 'team-b',
      until: (o) => (o.data as Record<string, string>)['ca.crt'] === cluster.server.caPem,
    });
    expect(back.data).toEqual({ 'ca.crt': cluster.server.caPem });
    expect(back.metadata?.labels).toEqual({ mine: 'yes' });
  });
});
