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

/**
 * The operator's requests: neither the test's client (`watchmark/...`) nor the garbage collector
 * (`kube-controller-manager/...`); client-node's are node-fetch's.
 */
function operatorRequests(c: TestCluster) {
  return c.requests
    .all()
    .filter(
      (r) => !r.userAgent?.startsWith('watchmark/') && !r.userAgent?.startsWith('kube-controller-manager/'),
    );
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
        'a dropped watch and a compaction mid-test: the operator relists and converges, no update lost',
        async () => {
          const c = cluster.current;
          await websites(c).create(website('site'));
          await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 1);
          c.requests.clear();
          // The operator's watches go quiet; two changes happen; the history they would resume from is
          // compacted away; the watches are cut. Resuming from the last resourceVersion they saw gets
          // 410 Gone: only a relist finds the changes.
          c.faults.stallWatches();
          await websites(c).patch('site', { spec: { replicas: 4 } }, 'merge');
          await websites(c).create(website('late', { replicas: 1 }));
          await c.faults.compact();
          c.faults.dropWatches();
          c.faults.resumeWatches();
          await waitDeployment(c, 'site', (o) => o.spec?.replicas === 4);
          await waitDeployment(c, 'late');
          const w = await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 2);
          assert.equal(ready(w)?.message, '0/4 replicas ready');
          await waitWebsite(c, 'late', (o) => o.status?.observedGeneration === 1);
          const relists = operatorRequests(c).filter((r) => r.verb === 'list' && r.resource === 'websites');
          assert.ok(relists.length >= 1, 'the operator relisted Websites after 410 Gone');
        },
      );

      runner.it('a 409 Conflict on the status update: retried, and the status lands', async () => {
        const c = cluster.current;
        const conflict = c.faults.failNext({ code: 409, verb: 'update', resource: 'websites/status' });
        await websites(c).create(website('site'));
        const w = await waitWebsite(c, 'site', (o) => o.status?.observedGeneration === 1);
        assert.equal(conflict.hits, 1);
        assert.ok(controller.stats.conflicts >= 1);
        assert.equal(ready(w)?.reason, 'DeploymentNotReady');
        // The failed attempt changed nothing; the retry is the one status write that landed.
        const statusWrites = c.requests.find({ verb: 'update', resource: 'websites', subresource: 'status' });
        // (A reconcile from a cache older than that write may add a 409 of its own after it.)
        const codes = statusWrites.map((r) => r.code);
        assert.equal(codes[0], 409);
        assert.equal(codes.filter((code) => code === 200).length, 1);
      });
    });
  }
}
