/**
 * The Website operator's test suite, written once for every test runner:
 * the runner's describe/it/hooks are passed in (vitest, jest and node:test
 * entry files call {@link operatorSuite}), assertions are node:assert's.
 * Every test gets a fresh cluster (clusterPerTest) with the Website CRD
 * installed, the namespace and garbage collection controllers running, and
 * the operator started on it through the implementation under test.
 * Every wait is a watch (cluster.waitFor), never a sleep.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../../src/index.js';
import { clusterPerTest, type Hook } from '../../../src/testing/fixtures/index.js';
import type { TestCluster } from '../../../src/testing/index.js';
import { connectClientNode, connectWatchmark, IMPLEMENTATIONS, type Implementation } from '../src/connect.js';
import { type RunningController, startController } from '../src/controller.js';
import { API_VERSION, type Condition, type Deployment, FINALIZER, KIND, type Website } from '../src/types.js';

/** What the suite needs of a test runner. */
export interface SuiteRunner {
  describe(name: string, fn: () => void): unknown;
  it(name: string, fn: () => Promise<void>): unknown;
  beforeEach: Hook;
  afterEach: Hook;
}

export const CRD = fileURLToPath(new URL('../crd.yaml', import.meta.url));
export const WEBSITES = 'websites.demo.watchmark.dev';
const REGISTRY = 'website-registry';
const NS = 'shop';

function website(name: string, spec: Partial<Website['spec']> = {}): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name, namespace: NS },
    spec: { host: `${name}.example.com`, replicas: 2, ...spec },
  };
}

const ready = (w: Website): Condition | undefined => w.status?.conditions?.find((c) => c.type === 'Ready');

/** Defines the suite, once per implementation (default both). */
export function operatorSuite(
  runner: SuiteRunner,
  implementations: readonly Implementation[] = IMPLEMENTATIONS,
) {
  for (const impl of implementations) {
    runner.describe(`Website operator over ${impl}`, () => {
      let controller: RunningController;
      const cluster = clusterPerTest(runner, {
        crds: [CRD],
        objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }],
        setup: async (c) => {
          const kube =
            impl === 'watchmark'
              ? await connectWatchmark(c.kubeconfigPath)
              : connectClientNode(await c.kubeConfig());
          controller = await startController(kube, { registryNamespace: REGISTRY });
          return () => controller.stop();
        },
      });
      const websites = (c: TestCluster) => c.client.resource(WEBSITES, NS);
      const waitWebsite = (c: TestCluster, name: string, until: (w: Website) => boolean) =>
        c.waitFor(WEBSITES, name, {
          namespace: NS,
          until: (o) => until(o as unknown as Website),
        }) as unknown as Promise<Website>;
      const waitDeployment = (c: TestCluster, name: string, until: (d: Deployment) => boolean = () => true) =>
        c.waitFor('deployments', name, {
          namespace: NS,
          until: (o) => until(o as unknown as Deployment),
        }) as unknown as Promise<Deployment>;

      runner.it('create: a Deployment owned by the Website appears, and status is reported', async () => {
        const c = cluster.current;
        const created = (await websites(c).create(website('site'))) as unknown as Website;
        const d = await waitDeployment(c, 'site');
        assert.deepEqual(d.metadata.ownerReferences, [
          {
            apiVersion: API_VERSION,
            kind: KIND,
            name: 'site',
            uid: created.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
        assert.equal(d.spec?.replicas, 2);
        assert.equal(d.spec?.template?.spec?.containers?.[0]?.image, 'nginx:1.27'); // the CRD's default
        const w = await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 1);
        assert.deepEqual(w.metadata.finalizers, [FINALIZER]);
        assert.equal(w.status?.readyReplicas, 0);
        const cond = ready(w);
        assert.equal(cond?.status, 'False');
        assert.equal(cond?.reason, 'DeploymentNotReady');
        assert.equal(cond?.observedGeneration, 1);
        assert.match(cond?.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        await c.waitFor('configmaps', `${NS}.site`, { namespace: REGISTRY });

        // The Deployment becomes ready (no kubelets here: its status is written as its controller would).
        const current = await c.client.resource('deployments', NS).get('site');
        await c.client.resource('deployments', NS).updateStatus({
          ...current,
          status: { replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2 },
        });
        const after = await waitWebsite(c, 'site', (o) => ready(o)?.status === 'True');
        assert.equal(after.status?.readyReplicas, 2);
        assert.equal(ready(after)?.reason, 'DeploymentReady');
      });

      runner.it('update: the Deployment follows the spec and observedGeneration the generation', async () => {
        const c = cluster.current;
        await websites(c).create(website('site'));
        await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 1);
        await websites(c).patch('site', { spec: { replicas: 3, image: 'nginx:1.28' } }, 'merge');
        const d = await waitDeployment(c, 'site', (o) => o.spec?.replicas === 3);
        assert.equal(d.spec?.template?.spec?.containers?.[0]?.image, 'nginx:1.28');
        const w = await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 2);
        assert.equal(w.metadata.generation, 2);
        assert.equal(ready(w)?.observedGeneration, 2);
        assert.equal(ready(w)?.message, '0/3 replicas ready');
      });

      runner.it(
        'delete: the finalizer cleans up the registry entry, then the Website and its Deployment go',
        async () => {
          const c = cluster.current;
          await websites(c).create(website('site'));
          await waitWebsite(c, 'site', (o) => o.metadata.finalizers?.includes(FINALIZER) === true);
          await c.waitFor('configmaps', `${NS}.site`, { namespace: REGISTRY });
          await waitDeployment(c, 'site');
          await websites(c).delete('site');
          await c.waitForDeletion(WEBSITES, 'site', { namespace: NS });
          assert.equal(controller.stats.cleanups, 1);
          assert.equal(await c.client.resource('configmaps', REGISTRY).find(`${NS}.site`), undefined);
          // The garbage collector deletes the Deployment its owner left.
          await c.waitForDeletion('deployments', 'site', { namespace: NS });
        },
      );

      runner.it('namespace deletion: Websites are finalized and everything in it goes', async () => {
        const c = cluster.current;
        await websites(c).create(website('one'));
        await websites(c).create(website('two'));
        await waitDeployment(c, 'one');
        await waitDeployment(c, 'two');
        await c.waitFor('configmaps', `${NS}.two`, { namespace: REGISTRY });
        await c.client.resource('namespaces').delete(NS);
        await c.waitForDeletion('namespaces', NS);
        assert.equal(controller.stats.cleanups, 2);
        const left = await c.client.resource('configmaps', REGISTRY).list();
        assert.deepEqual(
          left.items.filter((cm) => cm.metadata?.name?.startsWith(`${NS}.`)),
          [],
        );
        assert.deepEqual((await c.client.resource('deployments', NS).list()).items, []);
      });

      runner.it(
        'a dropped watch and a compaction mid-test: the operator keeps converging, no update lost',
        async () => {
          const c = cluster.current;
          await websites(c).create(website('site'));
          await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 1);
          // Changes made while the operator's watches are cut, then history it would resume from compacted away.
          c.server.dropWatches();
          await websites(c).patch('site', { spec: { replicas: 4 } }, 'merge');
          await c.server.compact();
          await websites(c).create(website('late', { replicas: 1 }));
          c.server.dropWatches();
          await websites(c).patch('site', { spec: { replicas: 5 } }, 'merge');
          await c.server.compact();
          await waitDeployment(c, 'site', (o) => o.spec?.replicas === 5);
          await waitDeployment(c, 'late');
          const w = await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 3);
          assert.equal(ready(w)?.message, '0/5 replicas ready');
          await waitWebsite(c, 'late', (o) => o.status?.observedGeneration === 1);
        },
      );
    });
  }
}
