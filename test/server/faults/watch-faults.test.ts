/**
 * Stalled watches, a paused server, dropped watches and a compaction, as clients see them:
 * a raw watch stream (every line in order) and watchmark's Informer.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../../src/protocol/events.js';
import { MemoryStore } from '../../../src/server/index.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, startTestServer, startTestServerWithClient, watch } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const tempDir = tempDirForFile('watchmark-faults-');
const cleanups = cleanupAfterEach();
let n = 0;
const serve = (opts = {}) => startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups, opts);

const fast = { backoff: { initialMs: 20, maxMs: 100 }, watchTimeoutMs: [60_000, 60_001] as [number, number] };
const nameOf = (e: WatchEvent) => (e.object as { metadata?: { name?: string } }).metadata?.name;

describe('faults.stallWatches', () => {
  it('holds every line of open and new watches, then delivers all of them in order', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    await cms.create({ metadata: { name: 'before' } });
    const open = await watch(
      server,
      `/api/v1/namespaces/demo/configmaps?watch=1&resourceVersion=${server.latestRevision()}`,
    );
    cleanups.push(async () => open.close());
    const seen: string[] = [];
    const informer = kube.informer('configmaps', { namespace: 'demo' }, fast).start();
    cleanups.push(() => informer.stop());
    informer.on({
      add: (o) => void seen.push(`add ${o.metadata?.name}`),
      update: (_, o) => void seen.push(`update ${o.metadata?.name}`),
    });
    await informer.synced();
    await waitUntil(() => server.stats.openWatchers === 2, 'both watches to open');

    server.faults.stallWatches();
    // A watch opened while stalled starts (200) but gets not even its initial state.
    const fresh = await watch(server, '/api/v1/namespaces/demo/configmaps?watch=1');
    cleanups.push(async () => fresh.close());
    for (let i = 0; i < 5; i++) await cms.create({ metadata: { name: `cm-${i}` } });
    await cms.patch('cm-0', { data: { a: '1' } });
    // One more round trip after the writes: any line written meanwhile would be out by now.
    await call(server, 'GET', '/api/v1/namespaces/demo/configmaps');
    expect(open.events).toEqual([]);
    expect(fresh.events).toEqual([]);
    expect(seen).toEqual(['add before']);

    server.faults.resumeWatches();
    await open.until((e) => e.type === 'MODIFIED');
    expect(open.events.map((e) => `${e.type} ${nameOf(e)}`)).toEqual([
      'ADDED cm-0',
      'ADDED cm-1',
      'ADDED cm-2',
      'ADDED cm-3',
      'ADDED cm-4',
      'MODIFIED cm-0',
    ]);
    await fresh.until((e) => e.type === 'MODIFIED');
    expect(fresh.events.map((e) => `${e.type} ${nameOf(e)}`)).toEqual([
      'ADDED before',
      'ADDED cm-0',
      'ADDED cm-1',
      'ADDED cm-2',
      'ADDED cm-3',
      'ADDED cm-4',
      'MODIFIED cm-0',
    ]);
    await waitUntil(
      () => seen.length === 7,
      () => `the informer's events: ${seen.join(', ')}`,
    );
    expect(seen).toEqual([
      'add before',
      'add cm-0',
      'add cm-1',
      'add cm-2',
      'add cm-3',
      'add cm-4',
      'update cm-0',
    ]);
    expect(informer.watcher.metrics.lists.initial).toBe(1);
  });

  it('a stalled watcher that holds more than maxWatcherBufferBytes is cut as too slow, and its client resumes', async () => {
    const { server, kube } = await serve({ maxWatcherBufferBytes: 4_000 });
    const cms = kube.resource('configmaps', 'demo');
    const stream = await watch(
      server,
      `/api/v1/namespaces/demo/configmaps?watch=1&resourceVersion=${server.latestRevision()}`,
    );
    await waitUntil(() => server.stats.openWatchers === 1, 'the watch to open');
    server.faults.stallWatches();
    for (let i = 0; i < 10; i++)
      await cms.create({ metadata: { name: `big-${i}` }, data: { v: 'x'.repeat(1_000) } });
    expect(await stream.ended).toBe('aborted');
    expect(stream.events).toEqual([]);
    expect(server.stats.slowWatchersClosed).toBe(1);
    server.faults.resumeWatches();
  });
});

describe('faults.pause', () => {
  it('holds every request (health checks too) unanswered until resume, then answers them in order', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    server.faults.pause();
    const before = server.stats.requests;
    let answered = 0;
    const created = cms.create({ metadata: { name: 'held' } }).finally(() => answered++);
    await waitUntil(() => server.stats.requests === before + 1, 'the create to arrive');
    const health = call(server, 'GET', '/readyz').finally(() => answered++);
    await waitUntil(() => server.stats.requests === before + 2, 'the health check to arrive');
    const revision = server.latestRevision();
    // Both arrived; neither is answered, nothing was written.
    expect(answered).toBe(0);
    expect(await server.store.currentRevision()).toBe(revision);
    server.faults.resume();
    expect((await created).metadata?.name).toBe('held');
    expect((await health).status).toBe(200);
    expect(server.latestRevision()).toBe(revision + 1);
  });

  it('stalls open watches while paused; resume delivers what they held', async () => {
    // Two API servers over one store, as over one etcd: the paused one still follows the
    // store, and its watchers must hold what the other one writes.
    const store = new MemoryStore();
    const paused = await startTestServer({ store });
    const other = await startTestServer({ store, systemNamespaces: false });
    cleanups.push(async () => {
      await paused.close();
      await other.close();
      await store.close();
    });
    const stream = await watch(
      paused,
      `/api/v1/namespaces?watch=1&resourceVersion=${paused.latestRevision()}`,
    );
    cleanups.push(async () => stream.close());
    await waitUntil(() => paused.stats.openWatchers === 1, 'the watch to open');
    paused.faults.pause();
    expect(
      (await call(other, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'a' } } })).status,
    ).toBe(201);
    await waitUntil(
      () => paused.latestRevision() === other.latestRevision(),
      'the paused server to see the write',
    );
    await call(other, 'GET', '/api/v1/namespaces/a');
    expect(stream.events).toEqual([]);
    paused.faults.resume();
    expect(nameOf(await stream.next())).toBe('a');
  });
});

describe('close() of a paused, stalled server', () => {
  it('cuts the held requests and streams and resolves, leaving no timer', async () => {
    const server = await startTestServer();
    const stream = await watch(
      server,
      `/api/v1/namespaces?watch=1&resourceVersion=${server.latestRevision()}`,
    );
    await waitUntil(() => server.stats.openWatchers === 1, 'the watch to open');
    server.faults.stallWatches();
    server.faults.pause();
    const before = server.stats.requests;
    const held = call(server, 'GET', '/api/v1/namespaces').then(
      () => 'answered',
      () => 'cut',
    );
    await waitUntil(() => server.stats.requests === before + 1, 'the request to arrive');
    await server.close();
    expect(await held).toBe('cut');
    expect(await stream.ended).toBe('clean');
  });
});

describe('faults.dropWatches and faults.compact', () => {
  it('drop cuts every watch and the informer resumes without a relist; compact makes old resourceVersions 410', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    await cms.create({ metadata: { name: 'a' } });
    const informer = kube.informer('configmaps', { namespace: 'demo' }, fast).start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    await waitUntil(() => server.stats.openWatchers === 1, 'the watch to open');
    expect(server.faults.dropWatches()).toBe(1);
    await cms.create({ metadata: { name: 'b' } });
    await waitUntil(() => informer.size === 2, 'b');
    expect(informer.watcher.metrics.lists.initial).toBe(1);
    expect(informer.watcher.metrics.lists.expired).toBe(0);

    const old = String(server.latestRevision());
    await cms.create({ metadata: { name: 'c' } });
    const revision = await server.faults.compact();
    expect(revision).toBe(server.latestRevision());
    const expired = await watch(server, `/api/v1/namespaces/demo/configmaps?watch=1&resourceVersion=${old}`);
    const e = await expired.next();
    expect(e.type).toBe('ERROR');
    expect((e.object as { code?: number }).code).toBe(410);
    await waitUntil(() => informer.size === 3, 'c');
  });

  it('clear() ends stalls and pauses and removes every rule', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    server.faults.failNext({ code: 500, count: 10 });
    server.faults.stallWatches();
    server.faults.pause();
    server.faults.clear();
    expect((await call(server, 'GET', '/api/v1/namespaces')).status).toBe(200);
  });
});
