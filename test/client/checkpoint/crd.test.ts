/**
 * Checkpoints of informers on a custom type: the identity names the type by
 * group, version and plural (resolved through the client's RESTMapper), so an
 * informer on `widgets.example.com` resumes from its checkpoint across a
 * client restart without listing, and the same file offered to an informer
 * on `widgets.other.example.com` (same plural, another group) is refused and
 * that informer lists its own objects.
 */

import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkpointFileName } from '../../../src/client/checkpoint/checkpoint-identity.js';
import { KubeClient } from '../../../src/client/client.js';
import type { Informer } from '../../../src/client/informer/informer.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import type { RunningServer } from '../../../src/server/index.js';
import { buildKubeconfig } from '../../../src/server/pki/kubeconfig.js';
import { FaultProxy } from '../../../support/fault-proxy/fault-proxy.js';
import { installCrd } from '../../helpers/crds.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { ensureNamespace, startTestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';
import { widgetCrd } from '../../helpers/widget.js';

let dir: string;
const tempDir = tempDirForFile('watchmark-checkpoint-crd-');
beforeAll(() => {
  dir = tempDir();
});
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const WIDGETS = 'widgets.example.com';
const OTHER_WIDGETS = 'widgets.other.example.com';

const lists = (s: RunningServer) => Object.values(s.stats.lists).reduce((a, b) => a + b, 0);

/** What went through the proxy, as `METHOD path?query`. */
interface World {
  server: RunningServer;
  proxy: FaultProxy;
  requests: string[];
  kubeconfig: string;
}

/**
 * A server with both widget definitions installed and the `demo` namespace,
 * behind a proxy that records every request (the clients talk through it:
 * a checkpoint is tied to the server URL it was saved against).
 */
async function world(): Promise<World> {
  const server = await startTestServer({ historyWindow: 600_000 });
  const requests: string[] = [];
  const proxy = await FaultProxy.start({
    target: server.url,
    decide: (req) => {
      const query = req.query.toString();
      requests.push(`${req.method} ${req.path}${query ? `?${decodeURIComponent(query)}` : ''}`);
      return { kind: 'pass' };
    },
  });
  cleanups.push(async () => {
    await proxy.close();
    await server.close();
  });
  await installCrd(server, widgetCrd());
  await installCrd(server, widgetCrd({ group: 'other.example.com' }));
  await ensureNamespace(server, 'demo');
  const kubeconfig = join(dir, `kubeconfig-${Math.random().toString(36).slice(2)}`);
  await writeFile(kubeconfig, buildKubeconfig({ server: proxy.url }), { mode: 0o600 });
  return { server, proxy, requests, kubeconfig };
}

/** A fresh client: a process restart, with a cold RESTMapper. */
async function client(w: World): Promise<KubeClient> {
  const kube = await KubeClient.load({ kubeconfig: w.kubeconfig, qps: 0 });
  cleanups.push(() => kube.close());
  return kube;
}

const widget = (name: string, size = 1): KubeObject => ({ metadata: { name }, spec: { size } }) as KubeObject;

function checkpointed(kube: KubeClient, type: string, path: string): Informer<KubeObject> {
  const i = kube.informer(type, { namespace: 'demo' }, { checkpoint: { path, intervalMs: 10 } });
  cleanups.push(() => i.stop());
  return i;
}

const names = (objects: KubeObject[]) =>
  objects.map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`).sort();

/** Waits until the informer's cache equals the server's list of `type` in `demo`. */
async function same(kube: KubeClient, type: string, i: Informer<KubeObject>): Promise<void> {
  const want = names((await kube.resource(type, 'demo').list()).items);
  await waitUntil(
    () => JSON.stringify(names(i.list())) === JSON.stringify(want),
    () => `the informer's cache to equal the server's ${type} (want ${want}; got ${names(i.list())})`,
    10_000,
    20,
  );
}

/** Requests of the `demo` widgets collection of `group`: lists, and watches. */
function collectionRequests(w: World, group: string): { lists: string[]; watches: string[] } {
  const path = `/apis/${group}/v1/namespaces/demo/widgets`;
  const mine = w.requests.filter((r) => r.startsWith(`GET ${path}?`) || r === `GET ${path}`);
  return {
    lists: mine.filter((r) => !/[?&]watch=(true|1)/.test(r)),
    watches: mine.filter((r) => /[?&]watch=(true|1)/.test(r)),
  };
}

describe('checkpoint of an informer on a custom type', () => {
  it('resumes across a client restart from its checkpoint, without listing, and catches up on the changes it missed', async () => {
    const w = await world();
    const writer = await client(w);
    const widgets = writer.resource(WIDGETS, 'demo');
    for (const name of ['a', 'b', 'c']) await widgets.create(widget(name));
    const path = join(dir, 'widgets.checkpoint');

    const first = checkpointed(await client(w), WIDGETS, path);
    await first.start().synced();
    expect(first.checkpoint?.status.ignored).toBe('no checkpoint file');
    await first.stop();

    // While no informer runs: an update, a status write, a delete, a create.
    await widgets.patch('a', { spec: { size: 2 } });
    await widgets.patch('c', { status: { replicas: 3 } }, 'merge', { subresource: 'status' });
    await widgets.delete('b');
    await widgets.create(widget('d'));

    const listsBefore = lists(w.server);
    w.requests.length = 0;
    const seen: string[] = [];
    const restarted = checkpointed(await client(w), WIDGETS, path);
    restarted.on({
      add: (o) => void seen.push(`add ${o.metadata?.name}`),
      update: (_, o) => void seen.push(`update ${o.metadata?.name}`),
      delete: (o) => void seen.push(`delete ${o.metadata?.name}`),
    });
    await restarted.start().synced();
    // The loaded state is the synced one; the watch from its resourceVersion brings the rest.
    await waitUntil(() => restarted.checkpoint?.status.replayedEvents === 4, 'the 4 missed changes');
    // The informer's own traffic, before this test lists to compare.
    const mine = collectionRequests(w, 'example.com');
    const serverLists = lists(w.server) - listsBefore;
    await same(writer, WIDGETS, restarted);

    expect(mine.lists).toEqual([]);
    expect(mine.watches.length).toBeGreaterThanOrEqual(1);
    const loaded = restarted.checkpoint?.status.loadedResourceVersion;
    expect(mine.watches[0]).toMatch(new RegExp(`[?&]resourceVersion=${loaded}(&|$)`));
    expect(serverLists).toBe(0);
    expect(restarted.checkpoint?.status).toMatchObject({
      resumed: true,
      loadedObjects: 3,
      lists: 0,
      replayedEvents: 4,
    });
    expect(restarted.watcher.metrics.lists).toEqual({ initial: 0, expired: 0, tooLarge: 0, error: 0 });
    expect(seen.sort()).toEqual(
      ['add a', 'add b', 'add c', 'update a', 'update c', 'delete b', 'add d'].sort(),
    );
  });

  it('keeps a stable identity per group and version: a checkpoint of widgets.example.com is not used for widgets.other.example.com', async () => {
    const w = await world();
    const writer = await client(w);
    for (const name of ['a', 'b']) await writer.resource(WIDGETS, 'demo').create(widget(name));
    await writer.resource(OTHER_WIDGETS, 'demo').create(widget('x', 7));

    // The identity names the resolved group/version/plural, the same from every client.
    const identity = await (await client(w)).checkpointIdentity(WIDGETS, { namespace: 'demo' });
    expect(identity.resource).toBe('example.com/v1/widgets');
    expect(
      await (await client(w)).checkpointIdentity('widgets.v1.example.com', { namespace: 'demo' }),
    ).toEqual(identity);
    const other = await (await client(w)).checkpointIdentity(OTHER_WIDGETS, { namespace: 'demo' });
    expect(other.resource).toBe('other.example.com/v1/widgets');
    expect({ ...other, resource: identity.resource }).toEqual(identity);

    // Shared informers' files are named per group too.
    const key = (group: string) => ({
      type: { group, version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true },
      namespace: 'demo',
    });
    expect(checkpointFileName(key('example.com'))).not.toBe(checkpointFileName(key('other.example.com')));

    const path = join(dir, 'example-widgets.checkpoint');
    const first = checkpointed(await client(w), WIDGETS, path);
    await first.start().synced();
    await first.stop();

    const listsBefore = lists(w.server);
    w.requests.length = 0;
    const wrong = checkpointed(await client(w), OTHER_WIDGETS, path);
    await wrong.start().synced();
    expect(wrong.checkpoint?.status.resumed).toBe(false);
    expect(wrong.checkpoint?.status.ignored).toBe(
      'it belongs to another resource ("example.com/v1/widgets", not "other.example.com/v1/widgets")',
    );
    // It listed its own type, and holds its own objects only.
    expect(collectionRequests(w, 'other.example.com').lists).toHaveLength(1);
    expect(collectionRequests(w, 'example.com').lists).toEqual([]);
    expect(lists(w.server) - listsBefore).toBe(1);
    expect(wrong.watcher.metrics.lists.initial).toBe(1);
    expect(wrong.list().map((o) => `${o.apiVersion} ${o.metadata?.name}`)).toEqual([
      'other.example.com/v1 x',
    ]);
  });

  it("names a shared informer's checkpoint file after the resolved type: a short name before discovery and the full name after it share one file", async () => {
    const w = await world();
    const writer = await client(w);
    for (const name of ['a', 'b']) await writer.resource(WIDGETS, 'demo').create(widget(name));
    const shared = join(dir, `shared-${Math.random().toString(36).slice(2)}`);
    await mkdir(shared);
    const factoryClient = async () => {
      const kube = await KubeClient.load({
        kubeconfig: w.kubeconfig,
        qps: 0,
        informerFactory: { checkpoint: { dir: shared, intervalMs: 10 } },
      });
      cleanups.push(() => kube.close());
      return kube;
    };

    // A cold client: the short name is not known yet, so the informer is shared by that name.
    const cold = await factoryClient();
    const first = cold.sharedInformer('wg', { namespace: 'demo' });
    await first.synced();
    await waitUntil(async () => (first.checkpoint?.status.writes ?? 0) > 0, 'a first checkpoint write');
    await cold.close();
    const key = {
      type: { group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true },
      namespace: 'demo',
    };
    expect(await readdir(shared)).toEqual([checkpointFileName(key)]);

    // A warm client that resolved the full name first makes a resolved informer: same file, resumed.
    const warm = await factoryClient();
    await warm.mapper.resourceFor(WIDGETS);
    const listsBefore = lists(w.server);
    const second = warm.sharedInformer(WIDGETS, { namespace: 'demo' });
    await second.synced();
    expect(second.checkpoint?.status).toMatchObject({ resumed: true, loadedObjects: 2, lists: 0 });
    expect(lists(w.server) - listsBefore).toBe(0);
    expect(await readdir(shared)).toEqual([checkpointFileName(key)]);
  });
});
