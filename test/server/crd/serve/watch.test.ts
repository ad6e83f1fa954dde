/**
 * Custom types watch as built-in ones do: bookmarks that let a quiet watcher resume after a
 * compaction without relisting, streaming lists, and, over etcd, every server serving a
 * definition made through another, and a restarted server serving what was stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { installCrd } from '../../../helpers/crds.js';
import { etcdAvailable, settled, uniquePrefix, useEtcd } from '../../../helpers/etcd.js';
import { call, ensureNamespace, startTestServer, watch } from '../../../helpers/server.js';
import { waitUntil } from '../../../helpers/wait.js';
import { widget, widgetCrd } from '../../../helpers/widget.js';

const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of opened.splice(0).reverse()) await r.close();
});

async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
  const s = await startTestServer(opts);
  opened.push(s);
  return s;
}

describe('watching a custom type', () => {
  it('a quiet watcher resumes from its bookmark after a compaction, where its last event is gone (410)', async () => {
    const s = await server();
    await installCrd(s, widgetCrd());
    const created = await call(s, 'POST', WIDGETS, { body: widget('quiet') });
    const since = created.body.metadata.resourceVersion;
    const w = await watch(s, `${WIDGETS}?watch=1&allowWatchBookmarks=true&resourceVersion=${since}`);
    // Other writes (built-in kinds) move the revision on; the widget watcher sees none of them.
    await ensureNamespace(s, 'busy');
    for (let i = 0; i < 5; i++) {
      await call(s, 'POST', '/api/v1/namespaces/busy/configmaps', {
        body: { metadata: { name: `cm-${i}` } },
      });
    }
    const latest = s.latestRevision();
    const bookmark = await w.until(
      (e) => e.type === 'BOOKMARK' && Number(e.object.metadata?.resourceVersion) >= latest,
      5_000,
    );
    w.close();
    await s.compact();
    const stale = await watch(s, `${WIDGETS}?watch=1&resourceVersion=${since}`).catch((a) => a);
    expect(stale.status).toBe(200);
    const gone = await stale.next();
    expect(gone.type).toBe('ERROR');
    expect((gone.object as any).code).toBe(410);
    stale.close();
    const resumed = await watch(
      s,
      `${WIDGETS}?watch=1&allowWatchBookmarks=true&resourceVersion=${bookmark.object.metadata?.resourceVersion}`,
    );
    await call(s, 'POST', WIDGETS, { body: widget('after') });
    const next = await resumed.next();
    expect(next.type).toBe('ADDED');
    expect(next.object.metadata?.name).toBe('after');
    resumed.close();
  });

  it('a streaming list sends every object, then the initial-events bookmark', async () => {
    const s = await server();
    await installCrd(s, widgetCrd());
    for (const name of ['a', 'b', 'c']) await call(s, 'POST', WIDGETS, { body: widget(name) });
    const w = await watch(
      s,
      `${WIDGETS}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
    );
    const end = await w.until((e) => e.type === 'BOOKMARK');
    expect(end.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(w.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata?.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
    w.close();
  });

  it('a changed definition ends the watches on its type; stored objects are read with its new defaults', async () => {
    const s = await server();
    const crd = await installCrd(s, widgetCrd());
    await call(s, 'POST', WIDGETS, { body: widget('a') });
    const w = await watch(s, `${WIDGETS}?watch=1`);
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    schema.properties.spec.properties.shape = { type: 'string', default: 'round' };
    const updated = await call(
      s,
      'PUT',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
      {
        body: crd,
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.generation).toBe(2);
    expect(await w.ended).toBe('clean');
    await waitUntil(
      async () => (await call(s, 'GET', `${WIDGETS}/a`)).body?.spec?.shape === 'round',
      'the stored widget to be read with the new default',
    );
    const stored = await s.store.get('/example.com/widgets/default/a');
    expect(JSON.parse(stored!.value).spec.shape).toBeUndefined();
  });

  it('deleting a namespace deletes its custom objects', async () => {
    const s = await server();
    await installCrd(s, widgetCrd());
    await ensureNamespace(s, 'gone');
    const path = '/apis/example.com/v1/namespaces/gone/widgets';
    await call(s, 'POST', path, { body: widget('w') });
    await call(s, 'DELETE', '/api/v1/namespaces/gone');
    await waitUntil(
      async () => (await call(s, 'GET', '/api/v1/namespaces/gone')).status === 404,
      'the namespace to go',
    );
    expect((await call(s, 'GET', path)).body.items).toEqual([]);
  });

  it('cluster-scoped definitions serve objects without a namespace', async () => {
    const s = await server();
    await installCrd(s, widgetCrd({ scope: 'Cluster' }));
    const created = await call(s, 'POST', '/apis/example.com/v1/widgets', { body: widget('top') });
    expect(created.status).toBe(201);
    expect(created.body.metadata.namespace).toBeUndefined();
    expect((await call(s, 'GET', '/apis/example.com/v1/namespaces/default/widgets')).status).toBe(404);
  });
});

describe.skipIf(!etcdAvailable)('custom types over etcd', () => {
  const etcd = useEtcd();

  it('a definition made through one server is served by every server, and again after a restart', async () => {
    const prefix = uniquePrefix();
    const storeA = etcd.newStore({ prefix });
    const storeB = etcd.newStore({ prefix });
    opened.push(storeA, storeB);
    const a = await server({ store: storeA });
    const b = await server({ store: storeB });
    await installCrd(a, widgetCrd());
    await waitUntil(async () => (await call(b, 'GET', WIDGETS)).status === 200, 'B to serve widgets');
    const onB = await watch(b, `${WIDGETS}?watch=1&resourceVersion=${b.latestRevision()}`);
    const created = await call(a, 'POST', WIDGETS, { body: widget('shared') });
    const seen = await onB.next();
    expect(seen.type).toBe('ADDED');
    expect(seen.object.metadata?.resourceVersion).toBe(created.body.metadata.resourceVersion);
    onB.close();
    await b.close();
    const storeC = etcd.newStore({ prefix });
    opened.push(storeC);
    const c = await server({ store: storeC });
    await settled(c);
    // Served as soon as the server answers: definitions stored before its start are synced first.
    const got = await call(c, 'GET', `${WIDGETS}/shared`);
    expect(got.status).toBe(200);
    expect(got.body.spec).toEqual({ size: 1, color: 'red' });
  });
});
