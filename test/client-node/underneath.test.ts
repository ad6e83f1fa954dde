/**
 * What the drop-in sends, seen by a TCP proxy in front of a plain-HTTP
 * server: watchmark's watcher under client-node's API. A streaming list
 * with bookmarks where the server has it (a paginated list where it
 * refuses), the selectors on every request, and a watch the server ends
 * resumed from the last resourceVersion without a list.
 */
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { makeInformer } from '../../src/client-node/index.js';
import type { RunningServer, ServerOptions } from '../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../helpers/server.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { waitUntil } from '../helpers/wait.js';
import { Recorder } from './subjects.js';

describe('watchmark underneath client-node API', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setUp(
    opts: ServerOptions = {},
  ): Promise<{ server: RunningServer; proxy: TcpProxy; kc: k8s.KubeConfig }> {
    const server = await startTestServer(opts);
    cleanups.push(() => server.close());
    await ensureNamespace(server, 'demo');
    const proxy = await TcpProxy.start(server.url);
    cleanups.push(() => proxy.close());
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: proxy.url, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    return { server, proxy, kc };
  }

  const query = (path: string) => new URL(path, 'http://x').searchParams;

  it('a streaming list with bookmarks and both selectors, then no other request while quiet', async () => {
    const { server, proxy, kc } = await setUp();
    await call(server, 'POST', '/api/v1/namespaces/demo/pods', {
      body: pod('a', { nodeName: 'n1', labels: { app: 'web' } }),
    });
    const informer = makeInformer(
      kc,
      '/api/v1/namespaces/demo/pods',
      undefined,
      'app=web',
      'spec.nodeName=n1',
    );
    cleanups.push(() => informer.stop());
    await informer.start();
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['a']);
    expect(proxy.requests).toHaveLength(1);
    const q = query(proxy.requests[0].path);
    expect(proxy.requests[0].watch).toBe(true);
    expect(q.get('sendInitialEvents')).toBe('true');
    expect(q.get('allowWatchBookmarks')).toBe('true');
    expect(q.get('labelSelector')).toBe('app=web');
    expect(q.get('fieldSelector')).toBe('spec.nodeName=n1');
    expect(Number(q.get('timeoutSeconds'))).toBeGreaterThanOrEqual(300);
  });

  it('a server that refuses streaming lists gets a paginated list, then a watch from its resourceVersion', async () => {
    const { server, proxy, kc } = await setUp({ noWatchList: true });
    await call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod('a') });
    const informer = makeInformer(kc, '/api/v1/namespaces/demo/pods');
    cleanups.push(() => informer.stop());
    const rec = new Recorder(informer);
    await informer.start();
    await waitUntil(() => proxy.requests.length >= 3, 'the watch after the list');
    const [refused, list, watch] = proxy.requests;
    expect(query(refused.path).get('sendInitialEvents')).toBe('true');
    expect(list.watch).toBe(false);
    expect(query(list.path).get('limit')).toBe('500');
    expect(watch.watch).toBe(true);
    expect(query(watch.path).get('resourceVersion')).toBe(informer.latestResourceVersion());
    // The refused streaming list is no error a user hears of: it is how the watcher learns the server's features.
    expect(rec.log.filter((l) => l.startsWith('error'))).toEqual([]);
  });

  it('a watch the server ends is resumed from the last resourceVersion: connect again, no list', async () => {
    const { server, proxy, kc } = await setUp();
    const informer = makeInformer(kc, '/api/v1/namespaces/demo/pods', undefined, undefined, undefined, {
      watchTimeoutMs: [1_000, 1_000],
    });
    cleanups.push(() => informer.stop());
    const rec = new Recorder(informer);
    await informer.start();
    await call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod('a') });
    await rec.waitFor('add a');
    await rec.waitFor('connect', 2);
    // connect is called before the request goes out: wait for the proxy to see it.
    await proxy.waitFor(() => proxy.requests.length >= 2, 'the resumed watch');
    const resumed = proxy.requests[1];
    expect(resumed.watch).toBe(true);
    expect(query(resumed.path).get('sendInitialEvents')).toBeNull();
    expect(Number(query(resumed.path).get('resourceVersion'))).toBeGreaterThan(0);
    expect(proxy.requests.every((r) => r.watch)).toBe(true);
    expect(rec.log.filter((l) => l.startsWith('error'))).toEqual([]);
  });
});
