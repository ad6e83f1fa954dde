/**
 * `kubectl delete --cascade=foreground|orphan|background` with the real
 * kubectl against a server users would run (HTTPS, a token) and the garbage
 * collector: foreground and orphan deletes finish (kubectl waits for the
 * object to be gone, which only the collector's removal of the finalizer
 * allows), with the dependents deleted first or left without the reference.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import { type RunningControllers, startControllers } from '../../src/controllers/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../helpers/tools.js';
import { KubectlSession } from '../server/kubectl/run.js';
import { configMap, refTo, waitFor } from './harness.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('kubectl delete --cascade with the garbage collector', () => {
  const tempDir = tempDirForFile('watchmark-kubectl-cascade-');
  let server: RunningServer;
  let controllers: RunningControllers;
  let kube: KubeClient;
  let kubectl: KubectlSession;
  const ns = 'cascade';

  beforeAll(async () => {
    const dir = tempDir();
    server = await startServer({ kubeconfigOut: join(dir, 'kubeconfig') });
    controllers = await startControllers({ kubeconfig: server.kubeconfigPath!, controllers: 'namespace,gc' });
    await controllers.synced();
    kube = await KubeClient.load({ kubeconfig: server.kubeconfigPath!, qps: 0 });
    await kube.resource('namespaces').create({ metadata: { name: ns } });
    await mkdir(join(dir, 'kubectl', 'home'), { recursive: true });
    kubectl = new KubectlSession(kubectls[0], join(dir, 'kubectl'), server.kubeconfigPath!, ns);
  });

  afterAll(async () => {
    await kubectl?.close();
    await kube?.close();
    await controllers?.close();
    await server?.close();
  });

  const cms = () => kube.resource('configmaps', ns);

  it('--cascade=foreground finishes once the dependents are gone', async () => {
    const owner = await cms().create(configMap('fg-owner'));
    const mid = await cms().create(configMap('fg-mid', [refTo(owner, { blockOwnerDeletion: true })]));
    await cms().create(configMap('fg-leaf', [refTo(mid, { blockOwnerDeletion: true })]));
    const r = await kubectl.inNamespace([
      'delete',
      'configmap',
      'fg-owner',
      '--cascade=foreground',
      '--timeout=20s',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('configmap "fg-owner" deleted\n');
    // Gone before the owner was: blocking dependents go first.
    const names = (await cms().list()).items.map((o) => o.metadata?.name);
    expect(names.filter((n) => n?.startsWith('fg-'))).toEqual([]);
  });

  it('--cascade=orphan finishes and leaves the dependents without the reference', async () => {
    const owner = await cms().create(configMap('or-owner'));
    await cms().create(configMap('or-dep', [refTo(owner, { controller: true, blockOwnerDeletion: true })]));
    const r = await kubectl.inNamespace([
      'delete',
      'configmap',
      'or-owner',
      '--cascade=orphan',
      '--timeout=20s',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('configmap "or-owner" deleted\n');
    const dep = await cms().get('or-dep');
    expect(dep.metadata?.ownerReferences ?? []).toEqual([]);
    expect(dep.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('--cascade=background (the default) returns at once; the dependents follow', async () => {
    const owner = await cms().create(configMap('bg-owner'));
    await cms().create(configMap('bg-dep', [refTo(owner)]));
    const r = await kubectl.inNamespace(['delete', 'configmap', 'bg-owner']);
    expect(r.code).toBe(0);
    await waitFor(kube, 'configmaps', ns, (m) => !m.has('bg-dep'), 'bg-dep to be collected');
  });
});
