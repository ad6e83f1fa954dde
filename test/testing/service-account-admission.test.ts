/**
 * testCluster and the ServiceAccount admission plugin: off without the `serviceaccount`
 * controller (as envtest runs kube-apiserver: no namespace has a `default` account to require),
 * on with it, and then the simulated kubelet runs a pod with the plugin's token volume.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/protocol/events.js';
import { admissionPluginsOff, chooseControllers } from '../../src/testing/controllers.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';

interface Pod extends KubeObject {
  spec?: { serviceAccountName?: string; volumes?: Array<{ name: string }> };
  status?: { phase?: string };
}

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as Pod;

describe('testCluster and the ServiceAccount admission plugin', () => {
  it('turns the plugin off unless the serviceaccount controller runs', () => {
    expect(admissionPluginsOff(chooseControllers(undefined))).toEqual(['ServiceAccount']);
    expect(admissionPluginsOff(chooseControllers(['simulation']))).toEqual(['ServiceAccount']);
    expect(admissionPluginsOff(chooseControllers(['serviceaccount']))).toEqual([]);
    expect(admissionPluginsOff(chooseControllers('*'))).toEqual([]);
  });

  it('by default creates pods that name no account', async () => {
    cluster = await testCluster();
    await cluster.client.resource('namespaces').create({ metadata: { name: 'a' } });
    const made = await cluster.client.resource<Pod>('pods', 'a').create(pod);
    expect(made.spec?.serviceAccountName).toBeUndefined();
    expect(made.spec?.volumes).toBeUndefined();
  });

  it("with the serviceaccount controller mounts the default account's token, and a kubelet runs the pod", async () => {
    cluster = await testCluster({ controllers: ['serviceaccount', 'simulation'] });
    await cluster.client.resource('namespaces').create({ metadata: { name: 'b' } });
    // The plugin waits a moment for the `default` account the controller is making.
    const made = await cluster.client.resource<Pod>('pods', 'b').create(pod);
    expect(made.spec?.serviceAccountName).toBe('default');
    expect(made.spec?.volumes?.[0]?.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const running = await cluster.waitFor<Pod>('pods', 'p', {
      namespace: 'b',
      until: (p) => p.status?.phase === 'Running',
    });
    expect(running.spec?.volumes).toHaveLength(1);
  });
});

describe('seed pods with the ServiceAccount plugin on', () => {
  it('are created once the serviceaccount controller runs, and the setup is reused with them', async () => {
    const objects = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seeded' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'seeded' }, spec: pod.spec },
    ];
    cluster = await testCluster({ controllers: ['serviceaccount'], objects });
    const seeded = await cluster.client.resource<Pod>('pods', 'seeded').get('p');
    expect(seeded.spec?.serviceAccountName).toBe('default');
    expect(seeded.spec?.volumes?.[0]?.name).toMatch(/^kube-api-access-/);
    await cluster.close();
    // The second cluster of the same setup starts over its snapshot, the pod in it.
    cluster = await testCluster({ controllers: ['serviceaccount'], objects });
    const again = await cluster.client.resource<Pod>('pods', 'seeded').get('p');
    expect(again.metadata?.uid).toBe(seeded.metadata?.uid);
  });
});
