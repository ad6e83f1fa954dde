import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import { TransportError } from '../../src/client/http/transport.js';
import type { Informer } from '../../src/client/informer/informer.js';
import type { KubeObject } from '../../src/protocol/events.js';
import { isTooLargeResourceVersion, StatusError } from '../../src/protocol/status.js';
import { MemoryStore, type RunningServer, type ServerOptions, startServer } from '../../src/server/index.js';
import { buildPod } from '../../src/sim/index.js';
import { cleanupAfterEach, tempDirForFile } from '../helpers/lifecycle.js';
import { startSilentServer } from '../helpers/silent-server.js';
import { waitUntil } from '../helpers/wait.js';

const tempDir = tempDirForFile('watchmark-client-');
const cleanups = cleanupAfterEach();

let n = 0;
async function serve(
  opts: ServerOptions = {},
): Promise<{ server: RunningServer; kube: KubeClient; kubeconfig: string }> {
  const kubeconfig = join(tempDir(), `kubeconfig-${n++}`);
  const server = await startServer({
    disableAdmissionPlugins: ['ServiceAccount'],
    bookmarkInterval: 100,
    bookmarkLead: 50,
    tooLargeWait: 100,
    compactionInterval: 0,
    kubeconfigOut: kubeconfig,
    ...opts,
  });
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  cleanups.push(async () => {
    await kube.close();
    await server.close();
  });
  return { server, kube, kubeconfig };
}

const fast = { backoff: { initialMs: 20, maxMs: 100 }, watchTimeoutMs: [60_000, 60_001] as [number, number] };

function podOn(name: string, node: string): KubeObject {
  return buildPod(name, { nodeName: node, image: 'nginx' });
}

async function setupNamespace(kube: KubeClient, ns = 'demo') {
  await kube.resource('namespaces').create({ metadata: { name: ns } });
  return kube.resource('pods', ns);
}

function names(informer: Informer): string[] {
  return informer
    .list()
    .map((o) => o.metadata?.name ?? '')
    .sort();
}

describe('client against watchmark serve', () => {
  it('resumes after drop-watches from its last resourceVersion, without a list', async () => {
    const { server, kube } = await serve();
    const pods = await setupNamespace(kube);
    await pods.create(podOn('a', 'n1'));
    const informer = kube.informer('pods', { namespace: 'demo' }, fast).start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    await waitUntil(() => server.stats.openWatchers === 1, 'the watch to open', 3000);
    expect(server.dropWatches()).toBe(1);
    await pods.create(podOn('b', 'n1'));
    await waitUntil(() => informer.size === 2, 'pod b', 5000);
    const m = informer.watcher.metrics;
    expect(m.lists.initial).toBe(1);
    expect(m.lists.expired).toBe(0);
    expect(m.resumes).toBeGreaterThanOrEqual(1);
    expect(m.watchEnds.error).toBeGreaterThanOrEqual(1);
  });

  it('a filtered watch survives a compaction with bookmarks and no relist; without bookmarks it relists once and converges', async () => {
    for (const bookmarks of [true, false]) {
      const { server, kube } = await serve(bookmarks ? {} : { noBookmarks: true });
      const pods = await setupNamespace(kube);
      await pods.create(podOn('mine', 'n1'));
      const informer = kube
        .informer('pods', { namespace: 'demo', fieldSelector: 'spec.nodeName=n1' }, { ...fast, bookmarks })
        .start();
      cleanups.push(() => informer.stop());
      await informer.synced();
      // Churn on another node: this watcher sees none of it, the server's RV races ahead.
      for (let i = 0; i < 5; i++) await pods.create(podOn(`other-${i}`, 'n2'));
      if (bookmarks)
        await waitUntil(
          () => Number(informer.watcher.resourceVersion) >= server.latestRevision(),
          'bookmark',
          3000,
        );
      await waitUntil(() => server.stats.openWatchers === 1, 'the watch to open', 3000);
      await server.compact();
      server.dropWatches();
      await pods.create(podOn('mine-2', 'n1'));
      await waitUntil(() => informer.size === 2, 'mine-2', 5000);
      expect(names(informer)).toEqual(['mine', 'mine-2']);
      const m = informer.watcher.metrics;
      expect(m.lists.expired).toBe(bookmarks ? 0 : 1);
      if (bookmarks) expect(m.bookmarks).toBeGreaterThan(0);
    }
  });

  it('streaming lists sync an informer and then follow changes', async () => {
    const { kube } = await serve();
    const pods = await setupNamespace(kube);
    await pods.create(podOn('a', 'n1'));
    await pods.create(podOn('b', 'n1'));
    const informer = kube.informer('pods', { namespace: 'demo' }, { ...fast, initial: 'stream' }).start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    expect(names(informer)).toEqual(['a', 'b']);
    await pods.delete('a');
    await waitUntil(() => informer.size === 1, 'delete', 5000);
    expect(informer.watcher.metrics.pages).toBe(0);
  });

  it('falls back to a paginated list when the server refuses streaming lists', async () => {
    const { kube } = await serve({ noWatchList: true });
    const pods = await setupNamespace(kube);
    await pods.create(podOn('a', 'n1'));
    const informer = kube.informer('pods', { namespace: 'demo' }, { ...fast, initial: 'stream' }).start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    expect(names(informer)).toEqual(['a']);
    expect(informer.watcher.metrics.pages).toBe(1);
    // Counted as soon as the list is read, not at the first watch event.
    expect(informer.watcher.metrics.bytesRead).toBeGreaterThan(100);
  });

  it('an expired continue token costs one full list', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    await setupNamespace(kube);
    for (let i = 0; i < 5; i++) await cms.create({ metadata: { name: `cm-${i}` } });
    const page = await cms.list({ limit: 2 });
    expect(page.metadata.continue).toBeTruthy();
    await cms.create({ metadata: { name: 'cm-5' } });
    await server.compact();
    const err = await cms.list({ limit: 2, continue: page.metadata.continue }).catch((e) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(410);
    // The watcher does the fallback by itself.
    const informer = kube.informer('configmaps', { namespace: 'demo' }, { ...fast, pageSize: 2 });
    informer.start();
    cleanups.push(() => informer.stop());
    await informer.synced();
    expect(informer.size).toBe(6);
  });

  it('survives a server restart over the same store; after losing the store a list is refused as too large and a new informer converges', async () => {
    const kubeconfig = join(tempDir(), `kubeconfig-restart`);
    const store = new MemoryStore();
    const opts = {
      store,
      disableAdmissionPlugins: ['ServiceAccount'],
      insecureHttp: true,
      insecureNoAuth: true,
      bookmarkInterval: 100,
      compactionInterval: 0,
      tooLargeWait: 100,
      kubeconfigOut: kubeconfig,
    };
    let server = await startServer(opts);
    const port = Number(new URL(server.url).port);
    const kube = await KubeClient.load({ kubeconfig, qps: 0 });
    const pods = await setupNamespace(kube);
    await pods.create(podOn('a', 'n1'));
    const informer = kube.informer('pods', { namespace: 'demo' }, fast).start();
    await informer.synced();
    await server.close();
    server = await startServer({ ...opts, port });
    await pods.create(podOn('b', 'n1'));
    await waitUntil(() => informer.size === 2, 'b after restart', 5000);
    expect(informer.watcher.metrics.lists.expired).toBe(0);
    // A server with a brand-new store: resourceVersions start over, the client's is "too large".
    // kube-apiserver 1.37 answers a watch from a resourceVersion it has not reached with a 200
    // that waits for newer events (cacher.go `Watch`), so a watching client, like client-go's
    // reflector, does not notice; a list not older than it is the 504, and a new informer's
    // consistent list converges.
    await server.close();
    const lost = await startServer({ ...opts, store: new MemoryStore(), port });
    await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
    await kube.resource('pods', 'demo').create(podOn('c', 'n1'));
    const notOlder = await kube
      .resource('pods', 'demo')
      .list({ resourceVersion: informer.watcher.resourceVersion, resourceVersionMatch: 'NotOlderThan' })
      .catch((e) => e);
    expect(isTooLargeResourceVersion(notOlder)).toBe(true);
    await informer.stop();
    const fresh = kube.informer('pods', { namespace: 'demo' }, fast).start();
    await fresh.synced();
    expect(names(fresh).join()).toBe('c');
    await fresh.stop();
    await kube.close();
    await lost.close();
  });

  it('a bad token is a clear 401 StatusError, reported and retried, never a silent stop', async () => {
    const { server, kubeconfig } = await serve();
    const { readFile, writeFile } = await import('node:fs/promises');
    const text = (await readFile(kubeconfig, 'utf8')).replace(server.token!, 'wrong-token');
    const bad = join(tempDir(), 'bad-kubeconfig');
    await writeFile(bad, text, { mode: 0o600 });
    const kube = await KubeClient.load({ kubeconfig: bad, qps: 0 });
    cleanups.push(() => kube.close());
    const err = await kube
      .resource('pods', 'default')
      .list()
      .catch((e) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(401);
    expect(String(err.message)).not.toContain('wrong-token');
    const errors: unknown[] = [];
    const informer = kube.informer('pods', {}, { ...fast, onError: (e) => errors.push(e) }).start();
    await waitUntil(() => errors.length >= 2, 'two reported failures', 3000);
    expect((errors[0] as StatusError).code).toBe(401);
    await informer.stop();
  });

  it('a request nobody answers ends with ETIMEDOUT at the request timeout, never a hang', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const kubeconfig = join(tempDir(), 'silent-kubeconfig');
    await silent.writeKubeconfig(kubeconfig, 'demo');
    const kube = await KubeClient.load({ kubeconfig, qps: 0, requestTimeoutMs: 200 });
    cleanups.push(() => kube.close());
    const err = await kube
      .resource('configmaps')
      .get('x')
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('ETIMEDOUT');
    expect(String(err.message)).toBe(
      `GET ${silent.url}/api/v1/namespaces/demo/configmaps/x: no answer within 200 ms`,
    );
    // The caller's own signal still wins over the deadline.
    const abort = new AbortController();
    const pending = kube.transport
      .request({ path: '/api', signal: abort.signal, timeoutMs: 0 })
      .catch((e) => e);
    abort.abort(new Error('caller gave up'));
    expect(String((await pending).message)).toBe('caller gave up');
  });

  it('an answer that stalls after its head ends with the deadline\'s ETIMEDOUT, or the caller\'s reason, not as "cut short"', async () => {
    // Headers and a piece of the body, then nothing: the client's own deadline ends it.
    let answered = 0;
    const stalling = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":', () => answered++);
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    });
    const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
    const anonymous = {
      authorization: async () => undefined,
      clientCertificate: async () => undefined,
      invalidate() {},
    };
    const kube = new KubeClient(
      { server: url, insecureSkipTlsVerify: false, namespace: 'default', credentials: anonymous },
      { qps: 0, requestTimeoutMs: 200 },
    );
    cleanups.push(() => kube.close());
    const err = await kube.transport.request({ path: '/api' }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('ETIMEDOUT');
    expect(String(err.message)).toBe(`GET ${url}/api: no answer within 200 ms`);
    const abort = new AbortController();
    const pending = kube.transport
      .request({ path: '/api', signal: abort.signal, timeoutMs: 0 })
      .catch((e) => e);
    await waitUntil(() => answered === 2, 'the second answer to stall', 1000);
    abort.abort(new Error('caller gave up'));
    expect(String((await pending).message)).toBe('caller gave up');
  });

  it('refuses "." and ".." as names, which would address another path: DELETE .../pods/.. is a DELETE of the namespace', async () => {
    const { kube } = await serve();
    const pods = await setupNamespace(kube);
    await pods.create(podOn('a', 'n1'));
    for (const name of ['.', '..']) {
      await expect(pods.delete(name)).rejects.toThrow(
        `invalid resource name "${name}": may not be '${name}'`,
      );
      await expect(pods.get(name)).rejects.toThrow(`invalid resource name "${name}": may not be '${name}'`);
      expect(() => kube.resource('pods', name)).toThrow(`invalid namespace "${name}": may not be '${name}'`);
    }
    await expect(pods.delete('')).rejects.toThrow('resource name may not be empty');
    // Nothing was sent: the namespace and its pod are still there.
    expect((await kube.resource('namespaces').get('demo')).metadata?.name).toBe('demo');
    expect((await pods.list()).items.map((p) => p.metadata?.name)).toEqual(['a']);
  });
});
