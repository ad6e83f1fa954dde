/**
 * testCluster: what a controller's test suite gets, checked the way such a
 * suite uses it (through its client, kubectl's kubeconfig and client-node).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCluster, testCluster, WaitTimeoutError } from '../../src/testing/index.js';

const CRDS = fileURLToPath(
  new URL('../../support/fixtures/crds/cert-manager.io_certificates.yaml', import.meta.url),
);
const CERT = fileURLToPath(new URL('../../support/fixtures/crds/certificates-example.yaml', import.meta.url));
const SANDBOX = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sandbox' } };

describe('testCluster', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await testCluster({
      crds: [CRDS],
      objects: [CERT, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seeded' } }, SANDBOX],
    });
  });
  afterAll(async () => {
    await c?.close();
  });

  it('installs CRDs (served at once) and seed objects', async () => {
    const certs = await c.client.resource('certificates.cert-manager.io', '').list({});
    expect(certs.items.length).toBeGreaterThan(0);
    const ns = await c.client.resource('namespaces').get('seeded');
    expect(ns.metadata?.name).toBe('seeded');
  });

  it('waits on a watch for an object and a condition, and says what it saw on a timeout', async () => {
    const cms = c.client.resource('configmaps', 'default');
    const waiting = c.waitFor<{ data?: Record<string, string> } & import('../../src/index.js').KubeObject>(
      'configmaps',
      'w1',
      { until: (o) => o.data?.phase === 'done', timeout: 5_000 },
    );
    await cms.create({ metadata: { name: 'w1' }, data: { phase: 'start' } });
    await cms.patch('w1', { data: { phase: 'done' } }, 'merge');
    expect((await waiting).data?.phase).toBe('done');

    const err = await c.waitFor('configmaps', 'w1', { until: () => false, timeout: 200 }).catch((e) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err.message).toMatch(/timed out after 200 ms waiting for configmaps default\/w1 to satisfy/);
    const missing = await c.waitFor('configmaps', 'nope', { timeout: 100 }).catch((e) => e);
    expect(missing.message).toContain('not found');
  });

  it('waits for a predicate across namespaces, and for deletion', async () => {
    const found = c.waitFor('configmaps', (o) => o.metadata?.labels?.pick === 'me');
    await c.client
      .resource('configmaps', 'seeded')
      .create({ metadata: { name: 'p1', labels: { pick: 'me' } } });
    expect((await found).metadata?.namespace).toBe('seeded');
    const gone = c.waitForDeletion('configmaps', 'p1', { namespace: 'seeded' });
    await c.client.resource('configmaps', 'seeded').delete('p1');
    await gone;
    // Never existed: at once.
    await c.waitForDeletion('configmaps', 'never-was');
  });

  it('collects garbage for any kind by default (a ConfigMap owned by a deleted ConfigMap)', async () => {
    const cms = c.client.resource('configmaps', 'default');
    const owner = await cms.create({ metadata: { name: 'owner' } });
    await cms.create({
      metadata: {
        name: 'dependent',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }],
      },
    });
    await cms.delete('owner');
    await c.waitForDeletion('configmaps', 'dependent');
  });

  it('deletes a namespace with what it holds', async () => {
    await c.client.resource('namespaces').create({ metadata: { name: 'doomed' } });
    await c.client.resource('configmaps', 'doomed').create({ metadata: { name: 'x' } });
    await c.client.resource('namespaces').delete('doomed');
    await c.waitForDeletion('namespaces', 'doomed');
  });

  it('gives a kubeconfig file and a client-node KubeConfig that reach it', async () => {
    expect(existsSync(c.kubeconfigPath)).toBe(true);
    const obj = c.kubeconfigObject;
    expect(obj.clusters[0]?.cluster.server).toBe(c.url);
    expect(obj['current-context']).toBe(obj.contexts[0]?.name);
    // The file too, as a client-node program given KUBECONFIG loads it.
    const k8sFile = await import('@kubernetes/client-node');
    const fromFile = new k8sFile.KubeConfig();
    fromFile.loadFromFile(c.kubeconfigPath);
    expect(
      (await fromFile.makeApiClient(k8sFile.CoreV1Api).readNamespace({ name: 'seeded' })).metadata?.name,
    ).toBe('seeded');
    const { kubeConfig } = c;
    const kc = await kubeConfig();
    const k8s = await import('@kubernetes/client-node');
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const list = await core.listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toContain('seeded');
  });
});

describe('isolation and lifecycle', () => {
  it('two clusters never see each other', async () => {
    const [a, b] = await Promise.all([testCluster(), testCluster()]);
    try {
      expect(a.url).not.toBe(b.url);
      const watching = b.waitFor('configmaps', 'only-in-a', { timeout: 300 }).catch((e) => e);
      await a.client.resource('configmaps', 'default').create({ metadata: { name: 'only-in-a' } });
      await a.waitFor('configmaps', 'only-in-a');
      expect(await watching).toBeInstanceOf(WaitTimeoutError);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('close() removes the kubeconfig file and is idempotent', async () => {
    const c = await testCluster({ controllers: [] });
    const path = c.kubeconfigPath;
    await Promise.all([c.close(), c.close()]);
    expect(existsSync(path)).toBe(false);
  });

  it('a bad CRD file fails before anything starts, naming the file', async () => {
    await expect(testCluster({ crds: ['/no/such/dir'] })).rejects.toThrow(/\/no\/such\/dir/);
    await expect(testCluster({ controllers: ['nope'] })).rejects.toThrow(/unknown controller "nope"/);
  });

  it('leaves no handle open: a process that starts and closes clusters exits on its own', async () => {
    const script = `
      import { testCluster } from ${JSON.stringify(new URL('../../src/testing/index.ts', import.meta.url).href)};
      const c = await testCluster({ crds: [${JSON.stringify(CRDS)}], tls: true });
      await c.client.resource('configmaps', 'default').create({ metadata: { name: 'x' } });
      await c.waitFor('configmaps', 'x');
      await (await c.kubeConfig()).getCurrentCluster();
      await c.close();
      console.log('closed');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    // The child's own exit is the assertion; the test's timeout is the bound.
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toContain('closed');
    expect(code).toBe(0);
  });
});
