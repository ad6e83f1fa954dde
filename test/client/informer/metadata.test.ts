/**
 * A metadata-only informer (`listWatch({ metadataOnly: true })`), as kube-controller-manager's
 * garbage collector runs them: PartialObjectMetadata objects from the list, the watch and a
 * streaming list, through the same Informer machinery as whole objects.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import { Informer } from '../../../src/client/informer/informer.js';
import { ResourceClient } from '../../../src/client/rest.js';
import { findBuiltin, type ResourceType } from '../../../src/client/watch/resources.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { waitUntil } from '../../helpers/wait.js';

const tempDir = tempDirForFile('watchmark-metadata-');
const cleanups = cleanupAfterEach();

let n = 0;
async function serve(): Promise<{ server: RunningServer; kube: KubeClient }> {
  const kubeconfig = join(tempDir(), `kubeconfig-${n++}`);
  const server = await startServer({
    bookmarkInterval: 100,
    bookmarkLead: 50,
    compactionInterval: 0,
    kubeconfigOut: kubeconfig,
  });
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  cleanups.push(async () => {
    await kube.close();
    await server.close();
  });
  await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
  return { server, kube };
}

const configMaps = findBuiltin('configmaps') as ResourceType;

function configMap(name: string): KubeObject {
  return { metadata: { name, labels: { app: 'demo' } }, data: { payload: 'x'.repeat(4000) } } as KubeObject;
}

describe('metadata-only informer', () => {
  for (const initial of ['list', 'stream'] as const) {
    it(`holds PartialObjectMetadata from the ${initial} and the watch that follows`, async () => {
      const { kube } = await serve();
      const cms = kube.resource('configmaps', 'demo');
      await cms.create(configMap('one'));
      const source = new ResourceClient(kube.transport, configMaps, 'demo').listWatch({ metadataOnly: true });
      const informer = new Informer(source, { initial });
      const seen: string[] = [];
      informer.on({
        add: (o) => {
          seen.push(`add ${o.kind} ${o.metadata?.name}`);
        },
        update: (_old, o) => {
          seen.push(`update ${o.kind} ${o.metadata?.name} ${o.metadata?.labels?.step}`);
        },
        delete: (o) => {
          seen.push(`delete ${o.kind} ${o.metadata?.name}`);
        },
      });
      cleanups.push(() => informer.stop());
      informer.start();
      await informer.synced();
      const one = informer.get('demo/one');
      expect(one).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
      expect(Object.keys(one ?? {})).toEqual(['kind', 'apiVersion', 'metadata']);
      expect(one?.metadata?.uid).toBeTruthy();

      await cms.create(configMap('two'));
      await cms.patch('one', { metadata: { labels: { step: '2' } } }, 'merge');
      await cms.delete('two');
      await waitUntil(
        () => seen.length >= 4,
        () => `four events, got ${JSON.stringify(seen)}`,
      );
      expect(seen).toEqual([
        'add PartialObjectMetadata one',
        'add PartialObjectMetadata two',
        'update PartialObjectMetadata one 2',
        'delete PartialObjectMetadata two',
      ]);
      expect(informer.get('demo/one')?.metadata?.labels?.step).toBe('2');
      expect(source.bytesRead).toBeLessThan(4000);
    });
  }

  it('lists an empty resource (`items: null`) as empty', async () => {
    const { kube } = await serve();
    const source = new ResourceClient(kube.transport, configMaps, 'empty').listWatch({ metadataOnly: true });
    const list = await source.list({});
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.items).toEqual([]);
    const informer = new Informer(source);
    cleanups.push(() => informer.stop());
    informer.start();
    await informer.synced();
    expect(informer.size).toBe(0);
  });

  it('reads a fraction of the bytes whole objects cost', async () => {
    const { kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    for (const name of ['a', 'b', 'c']) await cms.create(configMap(name));
    const rc = new ResourceClient(kube.transport, configMaps, 'demo');
    const whole = rc.listWatch();
    const meta = rc.listWatch({ metadataOnly: true });
    const [w, m] = await Promise.all([whole.list({}), meta.list({})]);
    expect(m.items.map((i) => i.metadata)).toEqual(w.items.map((i) => i.metadata));
    expect(meta.bytesRead * 5).toBeLessThan(whole.bytesRead);
  });
});

describe('KubeClient.informer with metadataOnly', () => {
  it("holds PartialObjectMetadata without the objects' content", async () => {
    const { kube } = await serve();
    await kube.resource('configmaps', 'demo').create(configMap('meta'));
    const informer = kube.informer('configmaps', { namespace: 'demo', metadataOnly: true }).start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    const got = informer.get('demo/meta') as KubeObject & { data?: unknown };
    expect(got.kind).toBe('PartialObjectMetadata');
    expect(got.metadata?.labels).toEqual({ app: 'demo' });
    expect(got.data).toBeUndefined();
  });
});
