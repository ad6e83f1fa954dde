/**
 * The client's RESTMapper against a real server serving CustomResourceDefinitions:
 * kubectl's name forms, the refresh on a miss, priority between groups, the
 * aggregated and legacy discovery paths, and every client entry point
 * (resource, informer, watcher, sharedInformer, checkpointIdentity) taking a
 * custom type's name.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import type { ApiRequest } from '../../../src/client/http/transport.js';
import { Transport } from '../../../src/client/http/transport.js';
import { discoverResources } from '../../../src/client/restmapper/discovery-documents.js';
import { NoResourceTypeError, RESTMapper } from '../../../src/client/restmapper/restmapper.js';
import type { WatcherEvent } from '../../../src/client/watch/watcher-types.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, startTestServerWithClient } from '../../helpers/server.js';
import { startSilentServer } from '../../helpers/silent-server.js';
import { waitUntil } from '../../helpers/wait.js';
import { widgetCrd } from '../../helpers/widget.js';

const tempDir = tempDirForFile('watchmark-restmapper-');
const cleanups = cleanupAfterEach();
let n = 0;

async function serverWithWidgets(): Promise<{ server: RunningServer; kube: KubeClient }> {
  const started = await startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups);
  await installCrd(started.server, widgetCrd());
  return started;
}

/** A CRD like widgetCrd but with its own names (so two groups can share a short name or not). */
function crdNamed(group: string, plural: string, kind: string, shortNames: string[]): any {
  const crd = widgetCrd({ group });
  crd.metadata.name = `${plural}.${group}`;
  crd.spec.names = { plural, singular: kind.toLowerCase(), kind, shortNames };
  return crd;
}

/** A Transport that asks for plain JSON only, as a client (or server) without aggregated discovery. */
class LegacyDiscoveryTransport extends Transport {
  override request(req: ApiRequest) {
    return super.request(req.accept ? { ...req, accept: 'application/json' } : req);
  }
}

const widgetType = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
  shortNames: ['wg'],
};

describe('RESTMapper', () => {
  it('resolves every name form kubectl takes, over aggregated discovery read once', async () => {
    const { kube } = await serverWithWidgets();
    const forms = [
      'widgets',
      'widget',
      'wg',
      'Widget',
      'WIDGETS',
      'widgets.example.com',
      'widget.example.com',
      'widgets.v1.example.com',
      'Widget.v1.example.com',
      'Widget.example.com',
    ];
    for (const name of forms) expect(await kube.mapper.resourceFor(name), name).toEqual(widgetType);
    expect(kube.mapper.discoverySource).toBe('aggregated');
    expect(kube.mapper.discoveryReads).toBe(1);
    // Once read, the snapshot answers synchronously.
    expect(kube.mapper.cached('wg')).toEqual(widgetType);
  });

  it('shares one discovery read between concurrent first lookups', async () => {
    const { kube } = await serverWithWidgets();
    const names = ['wg', 'widgets', 'Widget', 'widgets.example.com', 'wg', 'widget'];
    const lists = await Promise.all(names.map((name) => kube.resource(name, 'demo').list()));
    expect(lists.map((l) => l.items.length)).toEqual(names.map(() => 0));
    expect(kube.mapper.discoveryReads).toBe(1);
  });

  it('abandons a discovery read every caller gave up on, so the next caller reads afresh', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const kubeconfig = join(tempDir(), `silent-${n++}`);
    await silent.writeKubeconfig(kubeconfig);
    const kube = await KubeClient.load({ kubeconfig, qps: 0 });
    cleanups.push(() => kube.close());
    // A watcher's list gives up at its request deadline; the read it waited on must not outlive it.
    await expect(kube.mapper.resourceFor('wg', AbortSignal.timeout(100))).rejects.toThrow();
    await expect(kube.mapper.resourceFor('wg', AbortSignal.timeout(100))).rejects.toThrow();
    expect(kube.mapper.discoveryReads).toBe(2);
    await waitUntil(() => silent.connections() >= 4, 'each read to send its own requests');
  });

  it('answers built-in names with no discovery request', async () => {
    const { kube } = await serverWithWidgets();
    await kube.resource('pods', 'demo').list();
    await kube.resource('deploy', 'demo').list();
    expect(await kube.mapper.resourceFor('crd')).toMatchObject({ plural: 'customresourcedefinitions' });
    expect(kube.mapper.discoveryReads).toBe(0);
  });

  it("fails an unknown name with kubectl's message, after one fresh read", async () => {
    const { kube } = await serverWithWidgets();
    await kube.mapper.resourceFor('widgets');
    const err = await kube.mapper.resourceFor('gizmos').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoResourceTypeError);
    expect((err as Error).message).toBe('the server doesn\'t have a resource type "gizmos"');
    expect(kube.mapper.discoveryReads).toBe(2);
    // kubectl quotes the part before the first dot.
    await expect(kube.mapper.resourceFor('gizmos.example.com')).rejects.toThrow(
      'the server doesn\'t have a resource type "gizmos"',
    );
    // A resource of the wrong group, or a version the group does not serve, is no match either.
    await expect(kube.mapper.resourceFor('widgets.apps')).rejects.toThrow('resource type "widgets"');
    await expect(kube.mapper.resourceFor('widgets.v9.example.com')).rejects.toThrow(
      'resource type "widgets"',
    );
  });

  it('resolves a CRD created after the cache was filled (invalidate and retry once)', async () => {
    const { server, kube } = await serverWithWidgets();
    expect(await kube.mapper.resourceFor('wg')).toEqual(widgetType);
    await installCrd(server, crdNamed('late.io', 'gadgets', 'Gadget', ['gd']));
    expect(kube.mapper.cached('gadgets')).toBeUndefined();
    expect(await kube.mapper.resourceFor('gd')).toMatchObject({ group: 'late.io', plural: 'gadgets' });
    expect(kube.mapper.discoveryReads).toBe(2);
    // ...and through a ResourceClient made before the CRD existed.
    const early = kube.resource('sprockets', 'demo');
    await expect(early.list()).rejects.toThrow('resource type "sprockets"');
    await installCrd(server, crdNamed('late.io', 'sprockets', 'Sprocket', []));
    expect((await early.list()).items).toEqual([]);
  });

  it('gives a plural or short name two groups use to the first by group priority, and warns as kubectl', async () => {
    const { server, kube } = await serverWithWidgets();
    await installCrd(server, widgetCrd({ group: 'other.io' }));
    const warnings: string[] = [];
    const mapper = new RESTMapper(kube.transport, { onWarning: (w) => warnings.push(w) });
    const order = (await call(server, 'GET', '/apis')).body.groups.map((g: any) => g.name);
    const first = order.find((g: string) => g === 'example.com' || g === 'other.io');
    const second = first === 'example.com' ? 'other.io' : 'example.com';
    expect((await mapper.resourceFor('wg')).group).toBe(first);
    expect(warnings).toEqual([`short name "wg" could also match lower priority resource widgets.${second}`]);
    expect((await mapper.resourceFor('widgets')).group).toBe(first);
    expect((await mapper.resourceFor('widgets.other.io')).group).toBe('other.io');
    expect((await mapper.resourceFor('wg.other.io')).group).toBe('other.io');
  });

  it('prefers the preferred version of a group serving two', async () => {
    const { server, kube } = await serverWithWidgets();
    const crd = crdNamed('multi.io', 'things', 'Thing', []);
    const v1 = crd.spec.versions[0];
    crd.spec.versions = [{ ...v1, name: 'v1beta1', storage: false }, v1];
    await installCrd(server, crd);
    expect(await kube.mapper.resourceFor('things')).toMatchObject({ group: 'multi.io', version: 'v1' });
    expect(await kube.mapper.resourceFor('things.v1beta1.multi.io')).toMatchObject({ version: 'v1beta1' });
    expect(await kube.mapper.kindFor('multi.io/v1beta1', 'Thing')).toMatchObject({ version: 'v1beta1' });
    await expect(kube.mapper.kindFor('multi.io/v2', 'Thing')).rejects.toThrow(
      'no matches for kind "Thing" in version "multi.io/v2"',
    );
  });

  it('reads the same resources from legacy discovery as from aggregated discovery', async () => {
    const { kube } = await serverWithWidgets();
    const legacyTransport = new LegacyDiscoveryTransport(kube.transport.connection, { qps: 0 });
    cleanups.push(async () => legacyTransport.close());
    const aggregated = await discoverResources(kube.transport);
    const legacy = await discoverResources(legacyTransport);
    expect(aggregated.source).toBe('aggregated');
    expect(legacy.source).toBe('legacy');
    expect(legacy.requests).toBeGreaterThan(aggregated.requests);
    expect(legacy.groups).toEqual(aggregated.groups);
    const mapper = new RESTMapper(legacyTransport);
    expect(await mapper.resourceFor('wg')).toEqual(widgetType);
    expect(mapper.discoverySource).toBe('legacy');
  });
});

describe('discovery and the client-side rate limit', () => {
  it("a legacy read's many requests go through the discovery bucket, not the client's (qps 5, burst 10)", async () => {
    const { server, kube } = await serverWithWidgets();
    for (const g of ['a.io', 'b.io', 'c.io', 'd.io', 'e.io'])
      await installCrd(server, widgetCrd({ group: g }));
    // A clock that never moves: a request waiting for a token of the client's bucket would wait forever.
    const legacy = new LegacyDiscoveryTransport(kube.transport.connection, { clock: new ManualClock() });
    cleanups.push(async () => legacy.close());
    const snapshot = await discoverResources(legacy);
    expect(snapshot.requests).toBeGreaterThan(10);
    expect(snapshot.groups.map((g) => g.name)).toContain('e.io');
  });
});

describe('client entry points with a custom type name', () => {
  it('ResourceClient verbs resolve on first use, then keep the type', async () => {
    const { kube } = await serverWithWidgets();
    const widgets = kube.resource('wg', 'demo');
    expect(() => widgets.path).toThrow('not resolved yet');
    const created = await widgets.create({ metadata: { name: 'w1' }, spec: { size: 2 } } as KubeObject);
    expect(created).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { color: 'red' } });
    expect(widgets.path.collectionPath).toBe('/apis/example.com/v1/namespaces/demo/widgets');
    await widgets.patch('w1', { spec: { replicas: 3 } });
    expect((await widgets.getScale('w1')).spec.replicas).toBe(3);
    expect((await kube.resource('widgets.example.com').inNamespace('demo').list()).items).toHaveLength(1);
    expect(kube.mapper.discoveryReads).toBe(1);
  });

  it('an informer on a custom type sees add, update and delete', async () => {
    const { kube } = await serverWithWidgets();
    const informer = kube.informer('widgets.example.com', { namespace: 'demo' });
    const seen: string[] = [];
    informer.on({
      add: (o) => {
        seen.push(`add ${o.metadata?.name}`);
      },
      update: (_old, o) => {
        seen.push(`update ${o.metadata?.name} ${(o as any).spec.size}`);
      },
      delete: (o) => {
        seen.push(`delete ${o.metadata?.name}`);
      },
    });
    cleanups.push(() => informer.stop());
    await informer.synced();
    const widgets = kube.resource('widgets', 'demo');
    await widgets.create({ metadata: { name: 'w1' }, spec: { size: 1 } } as KubeObject);
    await widgets.patch('w1', { spec: { size: 5 } });
    await widgets.delete('w1');
    await waitUntil(
      () => seen.length === 3,
      () => `three notifications, got ${seen}`,
    );
    expect(seen).toEqual(['add w1', 'update w1 5', 'delete w1']);
    expect(informer.size).toBe(0);
  });

  it('a watcher on a custom type gets bookmarks', async () => {
    const { kube } = await serverWithWidgets();
    await kube.resource('wg', 'demo').create({ metadata: { name: 'w1' }, spec: { size: 1 } } as KubeObject);
    const watcher = kube.watcher('wg', { namespace: 'demo' });
    const events: WatcherEvent[] = [];
    for await (const e of watcher) {
      events.push(e);
      // A bookmark goes only when the server knows a newer resourceVersion: write elsewhere.
      if (e.type === 'initDone')
        await kube.resource('configmaps', 'demo').create({ metadata: { name: 'nudge' } });
      if (e.type === 'bookmark') break;
    }
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['init', 'initApply', 'initDone']);
    expect(events.at(-1)?.type).toBe('bookmark');
    expect(watcher.metrics.lists.initial).toBe(1);
  });

  it('an informer on an unknown type reports the error, and syncs once the CRD is installed', async () => {
    const { server, kube } = await serverWithWidgets();
    const errors: string[] = [];
    const informer = kube.informer(
      'gizmos',
      { namespace: 'demo' },
      {
        backoff: { initialMs: 20, maxMs: 100, jitter: 0 },
        onError: (err, failure) => errors.push(`${failure?.what}: ${(err as Error).message}`),
      },
    );
    cleanups.push(() => informer.stop());
    informer.start();
    await waitUntil(() => errors.length > 0, 'the informer to report the unknown type');
    expect(errors[0]).toBe('list failed: the server doesn\'t have a resource type "gizmos"');
    await installCrd(server, crdNamed('late.io', 'gizmos', 'Gizmo', []));
    await informer.synced();
    expect(informer.isSynced).toBe(true);
  });

  it('sharedInformer shares one informer across spellings once the type is known', async () => {
    const { kube } = await serverWithWidgets();
    const first = kube.sharedInformer('wg', { namespace: 'demo' });
    await first.synced();
    expect(kube.sharedInformer('widgets', { namespace: 'demo' })).toBe(first);
    expect(kube.sharedInformer('widgets.example.com', { namespace: 'demo' })).toBe(first);
    expect(kube.informers.all()).toHaveLength(1);
  });

  it('checkpointIdentity resolves a custom type', async () => {
    const { kube } = await serverWithWidgets();
    const identity = await kube.checkpointIdentity('wg', { namespace: 'demo' });
    expect(identity).toMatchObject({ resource: 'example.com/v1/widgets', namespace: 'demo' });
    await expect(kube.checkpointIdentity('gizmos')).rejects.toThrow('resource type "gizmos"');
  });
});
