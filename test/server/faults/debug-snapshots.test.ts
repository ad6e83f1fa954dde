/**
 * snapshot() and restore() over HTTP (`/debug/watchmark/snapshots`), as a test in Go or
 * Python drives them: named snapshots held in the server, behind the API's authentication.
 * One test does it with the real kubectl (`kubectl create --raw`, `get --raw`), as a shell
 * script would.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ServerOptions, startServer } from '../../../src/server/index.js';
import { MAX_SNAPSHOTS } from '../../../src/server/snapshots/shelf.js';
import { etcdAvailable, useEtcd } from '../../helpers/etcd.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, ensureNamespace, watch } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { waitUntil } from '../../helpers/wait.js';

const run = promisify(execFile);
const cleanups = cleanupAfterEach();
const tempDir = tempDirForFile('watchmark-snapshots-test-');
const SNAPSHOTS = '/debug/watchmark/snapshots';
const CMS = '/api/v1/namespaces/demo/configmaps';
const kubectl = (await findKubectls()).find((k) => k.name === 'kubectl');
const haveKubectl = requireTool('kubectl', kubectl !== undefined);

async function serve(opts: ServerOptions = {}) {
  const server = await startServer({ compactionInterval: 0, ...opts });
  cleanups.push(() => server.close());
  await ensureNamespace(server, 'demo');
  return server;
}

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

describe('/debug/watchmark/snapshots', () => {
  it('takes a named snapshot, restores it (ending watches) and forgets it', async () => {
    const server = await serve();
    expect((await call(server, 'GET', SNAPSHOTS, { token: 'wrong' })).status).toBe(401);
    const kept = await call(server, 'POST', CMS, { body: configMap('kept', { a: '1' }) });
    const taken = await call(server, 'POST', SNAPSHOTS, { body: { name: 'clean' } });
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ name: 'clean', revision: Number(kept.body.metadata.resourceVersion) });
    expect((await call(server, 'GET', SNAPSHOTS)).body).toEqual({
      snapshots: [{ name: 'clean', revision: taken.body.revision }],
    });

    // The test changes things, with a watch open.
    const stream = await watch(server, `${CMS}?watch=1&resourceVersion=${taken.body.revision}`);
    cleanups.push(async () => stream.close());
    await call(server, 'PUT', `${CMS}/kept`, {
      body: { ...configMap('kept', { a: '2' }), metadata: { name: 'kept' } },
    });
    await call(server, 'POST', CMS, { body: configMap('added', { b: '1' }) });

    const restored = await call(server, 'POST', `${SNAPSHOTS}/clean/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toEqual({ name: 'clean', revision: taken.body.revision });
    await stream.ended;
    const list = await call(server, 'GET', CMS);
    expect(list.body.items.map((c: any) => [c.metadata.name, c.data, c.metadata.resourceVersion])).toEqual([
      ['kept', { a: '1' }, kept.body.metadata.resourceVersion],
    ]);
    // The next write gets the snapshot's revision + 1.
    const next = await call(server, 'POST', CMS, { body: configMap('next', {}) });
    expect(Number(next.body.metadata.resourceVersion)).toBe(taken.body.revision + 1);
    // Restored again: the same snapshot, as often as wanted.
    expect((await call(server, 'POST', `${SNAPSHOTS}/clean/restore`)).status).toBe(200);
    expect((await call(server, 'GET', `${CMS}/next`)).status).toBe(404);

    const forgotten = await call(server, 'DELETE', `${SNAPSHOTS}/clean`);
    expect(forgotten.body).toEqual({ name: 'clean', revision: taken.body.revision });
    const gone = await call(server, 'POST', `${SNAPSHOTS}/clean/restore`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    expect(gone.body.message).toBe('snapshot "clean" not found: held are none');
  });

  it('refuses bad names, a held name, unknown actions, wrong methods and a 17th snapshot, changing nothing', async () => {
    const server = await serve();
    await call(server, 'POST', CMS, { body: configMap('c', { a: '1' }) });
    const before = server.latestRevision();
    for (const body of [{}, { name: 'Bad_Name' }, { name: '' }, { name: 'x'.repeat(64) }, { name: 7 }]) {
      const r = await call(server, 'POST', SNAPSHOTS, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toMatch(/^a snapshot needs \{"name": "..."\}/);
    }
    expect((await call(server, 'POST', SNAPSHOTS, { body: { name: 's0' } })).status).toBe(201);
    const again = await call(server, 'POST', SNAPSHOTS, { body: { name: 's0' } });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('AlreadyExists');
    expect((await call(server, 'POST', `${SNAPSHOTS}/s0/rewind`)).status).toBe(404);
    expect((await call(server, 'GET', `${SNAPSHOTS}/s0/restore`)).status).toBe(405);
    expect((await call(server, 'GET', `${SNAPSHOTS}/s0`)).status).toBe(405);
    expect((await call(server, 'PUT', SNAPSHOTS, { body: { name: 's1' } })).status).toBe(405);
    for (let i = 1; i < MAX_SNAPSHOTS; i++) {
      expect((await call(server, 'POST', SNAPSHOTS, { body: { name: `s${i}` } })).status).toBe(201);
    }
    const full = await call(server, 'POST', SNAPSHOTS, { body: { name: 'one-more' } });
    expect(full.status).toBe(400);
    expect(full.body.message).toBe(
      `at most ${MAX_SNAPSHOTS} snapshots are held (each is a copy of the whole state): DELETE one first`,
    );
    expect((await call(server, 'GET', SNAPSHOTS)).body.snapshots).toHaveLength(MAX_SNAPSHOTS);
    // Nothing of the API changed.
    expect(server.latestRevision()).toBe(before);
    expect((await call(server, 'GET', `${CMS}/c`)).body.data).toEqual({ a: '1' });
  });

  it('a restore waits for the writes under way, and they are undone by it', async () => {
    // Writes held in a validating hook until the test lets them go.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = 0;
    const server = await serve({
      admission: {
        validate: async (r) => {
          if (r.resource.resource === 'configmaps') {
            waiting++;
            await held;
          }
          return { allowed: true };
        },
      },
    });
    expect((await call(server, 'POST', SNAPSHOTS, { body: { name: 'empty' } })).status).toBe(201);
    const order: string[] = [];
    const writes = Array.from({ length: 5 }, (_, i) =>
      call(server, 'POST', CMS, { body: configMap(`w${i}`, {}) }).then((r) => {
        order.push(`write ${r.status}`);
        return r;
      }),
    );
    await waitUntil(() => waiting === 5, 'five writes held in admission');
    const restore = call(server, 'POST', `${SNAPSHOTS}/empty/restore`).then((r) => {
      order.push(`restore ${r.status}`);
      return r;
    });
    // The restore has arrived and waits (a GET behind it waits at the door too).
    await waitUntil(() => server.stats.requests >= 8, 'the restore to arrive');
    release();
    await Promise.all([...writes, restore]);
    expect(order).toEqual([...Array(5).fill('write 201'), 'restore 200']);
    expect((await call(server, 'GET', CMS)).body.items).toEqual([]);
  });

  it('two restores at once run one after the other: the state is one snapshot whole, in the store and the caches', async () => {
    const server = await serve();
    await call(server, 'POST', CMS, { body: configMap('a', {}) });
    const one = await call(server, 'POST', SNAPSHOTS, { body: { name: 'one' } });
    await call(server, 'POST', CMS, { body: configMap('b', {}) });
    await call(server, 'POST', CMS, { body: configMap('c', {}) });
    const three = await call(server, 'POST', SNAPSHOTS, { body: { name: 'three' } });
    const [first, second] = await Promise.all([
      call(server, 'POST', `${SNAPSHOTS}/one/restore`),
      call(server, 'POST', `${SNAPSHOTS}/three/restore`),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const names = (await call(server, 'GET', CMS)).body.items.map((c: any) => c.metadata.name);
    const fromStore = (await call(server, 'GET', `${CMS}?resourceVersion=`)).body.items.map(
      (c: any) => c.metadata.name,
    );
    expect([['a'], ['a', 'b', 'c']]).toContainEqual(names);
    expect(fromStore).toEqual(names);
    // Whichever came last: the next write follows its revision.
    const next = await call(server, 'POST', CMS, { body: configMap('d', {}) });
    const last = names.length === 1 ? one : three;
    expect(Number(next.body.metadata.resourceVersion)).toBe(last.body.revision + 1);
  });

  it.skipIf(!haveKubectl)('kubectl drives it with create --raw and get --raw', async () => {
    if (!kubectl) throw new Error('unreachable: no kubectl');
    const server = await serve();
    const dir = tempDir();
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, server.kubeconfig);
    const body = join(dir, 'snapshot.json');
    await writeFile(body, JSON.stringify({ name: 'clean' }));
    const k = (...args: string[]) => run(kubectl.path, ['--kubeconfig', kubeconfig, ...args]);
    await k('create', 'configmap', 'before', '-n', 'demo');
    expect(JSON.parse((await k('create', '--raw', SNAPSHOTS, '-f', body)).stdout)).toMatchObject({
      name: 'clean',
    });
    await k('create', 'configmap', 'after', '-n', 'demo');
    const empty = join(dir, 'empty.json');
    await writeFile(empty, '{}');
    await k('create', '--raw', `${SNAPSHOTS}/clean/restore`, '-f', empty);
    const names = (await k('get', 'configmaps', '-n', 'demo', '-o', 'name')).stdout.trim().split('\n');
    expect(names).toContain('configmap/before');
    expect(names).not.toContain('configmap/after');
    expect(JSON.parse((await k('get', '--raw', SNAPSHOTS)).stdout).snapshots).toEqual([
      { name: 'clean', revision: expect.any(Number) },
    ]);
  });
});

describe.skipIf(!etcdAvailable)('/debug/watchmark/snapshots over etcd', () => {
  const etcd = useEtcd();
  it('is refused with a Status that says to use etcd snapshots', async () => {
    const store = etcd.newStore();
    cleanups.push(() => store.close());
    const server = await startServer({ store });
    cleanups.push(() => server.close());
    const r = await call(server, 'POST', SNAPSHOTS, { body: { name: 'clean' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'snapshots work over the memory store only; this server serves the etcd store (use etcdctl snapshot save/restore there)',
    );
  });
});
