/**
 * RunningServer.snapshot() and restore(): a kube-apiserver restarted over a restored etcd.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore, type Store } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, startTestServer, startTestServerWithClient, watch } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

const tempDir = tempDirForFile('watchmark-snapshot-');
const cleanups = cleanupAfterEach();
let n = 0;
const serve = () => startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups);

const fast = { backoff: { initialMs: 20, maxMs: 100 }, watchTimeoutMs: [60_000, 60_001] as [number, number] };

describe('snapshot and restore', () => {
  it('rolls objects and resourceVersions back; the next write gets the snapshot revision + 1, every time', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    const a = await cms.create({ metadata: { name: 'a' }, data: { v: '1' } });
    const snap = await server.snapshot();
    expect(snap.revision).toBe(Number(a.metadata?.resourceVersion));
    // Plain data: it survives JSON, and later writes do not reach it.
    const copy = JSON.parse(JSON.stringify(snap));
    await cms.update({ ...a, data: { v: '2' } });
    await cms.create({ metadata: { name: 'b' } });
    await cms.delete('a');
    expect(JSON.parse(JSON.stringify(snap))).toEqual(copy);

    for (const s of [snap, copy]) {
      await server.restore(s);
      expect(server.latestRevision()).toBe(snap.revision);
      const back = await cms.get('a');
      expect(back.data).toEqual({ v: '1' });
      expect(back.metadata?.resourceVersion).toBe(a.metadata?.resourceVersion);
      expect(back.metadata?.uid).toBe(a.metadata?.uid);
      expect(await cms.find('b')).toBeUndefined();
      const list = await cms.list();
      expect(list.metadata.resourceVersion).toBe(String(snap.revision));
      const c = await cms.create({ metadata: { name: 'c' } });
      expect(c.metadata?.resourceVersion).toBe(String(snap.revision + 1));
    }
  });

  it('ends every open watch; a watching informer does not notice (as client-go), a new one holds the restored state', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    await cms.create({ metadata: { name: 'kept' } });
    const snap = await server.snapshot();
    const stream = await watch(server, '/api/v1/namespaces/demo/configmaps?watch=1');
    const informer = kube.informer('configmaps', { namespace: 'demo' }, fast).start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    await cms.create({ metadata: { name: 'gone' } });
    await waitUntil(() => informer.size === 2, 'gone');
    const watchesBefore = informer.watcher.metrics.watchesStarted;
    await server.restore(snap);
    expect(await stream.ended).toBe('clean');
    // The informer resumes from gone's resourceVersion, which the restored store has not reached:
    // kube-apiserver 1.37 answers such a watch with a 200 that waits for newer events (cacher.go
    // `Watch`), so, like client-go's reflector, it neither relists nor drops gone. (Hence the etcd
    // restore advice to restart the components that watch.)
    await waitUntil(
      () => informer.watcher.metrics.watchesStarted > watchesBefore,
      'the informer to watch again after the restore',
    );
    expect(informer.watcher.metrics.lists.expired + informer.watcher.metrics.lists.tooLarge).toBe(0);
    expect(
      informer
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['gone', 'kept']);
    // A new informer (a restarted component) lists the restored state and follows it.
    const fresh = kube.informer('configmaps', { namespace: 'demo' }, fast).start();
    cleanups.push(() => fresh.stop());
    await fresh.synced();
    expect(fresh.list().map((o) => o.metadata?.name)).toEqual(['kept']);
    await cms.create({ metadata: { name: 'new' } });
    await waitUntil(() => fresh.size === 2, 'new');
  });

  it('a custom resource definition created after the snapshot is gone from discovery; one from before is served with its objects', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    await installCrd(server, widgetCrd());
    await call(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'demo' } } });
    const w = await call(server, 'POST', '/apis/example.com/v1/namespaces/demo/widgets', {
      body: widget('w1', { size: 2 }),
    });
    expect(w.status).toBe(201);
    const snap = await server.snapshot();
    await installCrd(server, widgetCrd({ group: 'later.example.com' }));
    expect((await call(server, 'GET', '/apis/later.example.com/v1')).status).toBe(200);
    await call(server, 'DELETE', '/apis/example.com/v1/namespaces/demo/widgets/w1');

    await server.restore(snap);
    expect((await call(server, 'GET', '/apis/later.example.com/v1')).status).toBe(404);
    const groups = (await call(server, 'GET', '/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups).toContain('example.com');
    expect(groups).not.toContain('later.example.com');
    expect((await call(server, 'GET', '/apis/later.example.com/v1/widgets')).status).toBe(404);
    const back = await call(server, 'GET', '/apis/example.com/v1/namespaces/demo/widgets/w1');
    expect(back.status).toBe(200);
    expect(back.body.metadata.resourceVersion).toBe(w.body.metadata.resourceVersion);
    expect(server.latestRevision()).toBe(snap.revision);
  });

  it('a namespace terminating in the snapshot finishes after the restore', async () => {
    const { server, kube } = await serve();
    const namespaces = kube.resource('namespaces');
    await namespaces.create({ metadata: { name: 'held' } });
    await kube
      .resource('configmaps', 'held')
      .create({ metadata: { name: 'x', finalizers: ['example.com/hold'] } });
    await namespaces.delete('held');
    await waitUntil(
      async () => ((await namespaces.get('held')).status as { phase?: string })?.phase === 'Terminating',
      'Terminating',
    );
    const snap = await server.snapshot();
    await server.restore(snap);
    const cm = await kube.resource('configmaps', 'held').get('x');
    await kube.resource('configmaps', 'held').update({ ...cm, metadata: { ...cm.metadata, finalizers: [] } });
    await waitUntil(async () => (await namespaces.find('held')) === undefined, 'the namespace to go');
  });

  it('is refused over a store other than memory', async () => {
    const inner = new MemoryStore();
    // Another store (etcd, say): everything delegated, but not a MemoryStore.
    const store = new Proxy(inner, {
      getPrototypeOf: () => Object.prototype,
      get: (target, key) => {
        if (key === 'name') return 'etcd';
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Store;
    const server = await startTestServer({ store });
    cleanups.push(async () => {
      await server.close();
      await inner.close();
    });
    await expect(server.snapshot()).rejects.toThrow(/memory store only; this server serves the etcd store/);
    await expect(
      server.restore({ format: 'watchmark.server-snapshot/v1', revision: 1, store: inner.snapshot() }),
    ).rejects.toThrow(/memory store only/);
  });
});

describe('startServer({ startFrom })', () => {
  it("serves a snapshot's objects, resourceVersions and custom kinds at once, writing nothing", async () => {
    const first = await startTestServer();
    cleanups.push(() => first.close());
    await installCrd(first, widgetCrd());
    const made = await call(first, 'POST', '/apis/example.com/v1/namespaces/default/widgets', {
      body: widget('w', { size: 2 }),
    });
    expect(made.status, made.text).toBe(201);
    const snap = await first.snapshot();
    for (const from of [snap, JSON.parse(JSON.stringify(snap))]) {
      const second = await startTestServer({ startFrom: from });
      cleanups.push(() => second.close());
      const got = await call(second, 'GET', '/apis/example.com/v1/namespaces/default/widgets/w');
      expect(got.status, got.text).toBe(200);
      expect(got.body.metadata.resourceVersion).toBe(made.body.metadata.resourceVersion);
      expect(got.body.metadata.uid).toBe(made.body.metadata.uid);
      expect(second.stats.writes).toBe(0);
      // Its own store: a write to one is not in the other.
      await call(second, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'only-2' } },
      });
      expect((await call(first, 'GET', '/api/v1/namespaces/default/configmaps/only-2')).status).toBe(404);
    }
  });

  it('cannot be combined with a store', async () => {
    const snap = await (async () => {
      const s = await startTestServer();
      cleanups.push(() => s.close());
      return s.snapshot();
    })();
    await expect(startTestServer({ startFrom: snap, store: new MemoryStore() })).rejects.toThrow(
      /startFrom .* cannot be combined with store or etcd/,
    );
  });
});
