/**
 * The controllers' start and stop: close() leaves no handle open (a test
 * runner exits on its own), a client passed in stays usable, and without
 * the garbage collector nothing runs in process at all.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import { startControllers } from '../../src/controllers/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { startTestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { configMap, refTo, waitFor } from './harness.js';

/** Open handles and requests by type. */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

describe('startControllers', () => {
  const tempDir = tempDirForFile('watchmark-controllers-lifecycle-');
  let server: RunningServer;
  let kubeconfig: string;

  beforeAll(async () => {
    kubeconfig = join(tempDir(), 'kubeconfig');
    server = await startTestServer({ kubeconfigOut: kubeconfig });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('close() leaves no handle open', async () => {
    const before = handles();
    const controllers = await startControllers({ kubeconfig, controllers: ['gc'] });
    await controllers.synced();
    expect(controllers.isSynced).toBe(true);
    expect(handles()).not.toEqual(before);
    await controllers.close();
    await controllers.close();
    // The server's ends of the closed connections go a few ticks later: a condition, not a sleep.
    const noMore = () => Object.entries(handles()).every(([type, n]) => n <= (before[type] ?? 0));
    await waitUntil(
      noMore,
      () => `the handles of before: ${JSON.stringify(before)}, now ${JSON.stringify(handles())}`,
      5000,
    );
  });

  it('a client passed in is left open, and the namespace controller alone runs nothing here', async () => {
    const kube = await KubeClient.load({ kubeconfig, qps: 0 });
    try {
      const gc = await startControllers({ client: kube, controllers: 'namespace,gc' });
      await gc.synced();
      await gc.close();
      expect((await kube.resource('namespaces').get('default')).metadata?.name).toBe('default');
      const ns = await startControllers({ client: kube, controllers: ['namespace'] });
      expect(ns.controllers).toEqual(['namespace']);
      expect(ns.gcResources).toEqual([]);
      expect(ns.isSynced).toBe(true);
      await ns.synced();
      await ns.close();
    } finally {
      await kube.close();
    }
  });

  it('finishes deletions left pending before it started: an orphaning owner and a foreground one', async () => {
    const kube = await KubeClient.load({ kubeconfig, qps: 0 });
    try {
      const cms = kube.resource('configmaps', 'default');
      const secrets = kube.resource('secrets', 'default');
      const owner = await cms.create(configMap('pending-orphan'));
      // A dependent of another kind: its monitor may list after the owner's.
      await secrets.create({ metadata: { name: 'pending-dep', ownerReferences: [refTo(owner)] } });
      const fg = await cms.create(configMap('pending-fg'));
      await secrets.create({
        metadata: { name: 'pending-fg-dep', ownerReferences: [refTo(fg, { blockOwnerDeletion: true })] },
      });
      await cms.delete('pending-orphan', { propagationPolicy: 'Orphan' });
      await cms.delete('pending-fg', { propagationPolicy: 'Foreground' });
      const controllers = await startControllers({ client: kube, controllers: 'gc' });
      try {
        await waitFor(
          kube,
          'configmaps',
          'default',
          (m) => !m.has('pending-orphan') && !m.has('pending-fg'),
          'both owners to go',
        );
        await waitFor(
          kube,
          'secrets',
          'default',
          (m) => !m.has('pending-fg-dep'),
          'the foreground dependent to go',
        );
        expect((await secrets.get('pending-dep')).metadata?.ownerReferences ?? []).toEqual([]);
      } finally {
        await controllers.close();
      }
    } finally {
      await kube.close();
    }
  });

  it('needs a client or a kubeconfig', async () => {
    await expect(startControllers({})).rejects.toThrow('startControllers needs a client or a kubeconfig');
  });
});
