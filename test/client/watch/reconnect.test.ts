/**
 * Reconnecting the way client-go does, through a TCP proxy that resets or
 * closes connections under a real server: a working watch cut by a reset or
 * an EOF is watched again at once from its last resourceVersion (no backoff,
 * no list); a watch cut before it did anything backs off; an idempotent
 * request that fails on a reused keep-alive connection is sent again once,
 * at once, on a new one.
 *
 * The watchers here back off for 30 s or more, so a backoff where none is due
 * shows up as a test that times out; the measured gaps are printed (a figure
 * in ms is reported, not asserted).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import { TransportError } from '../../../src/client/http/transport.js';
import type { Watcher, WatcherEvent } from '../../../src/client/watch/watcher.js';
import type { RunningServer } from '../../../src/server/index.js';
import { buildKubeconfig } from '../../../src/server/pki/kubeconfig.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';
import { type SeenRequest, TcpProxy } from '../../helpers/tcp-proxy.js';
import { waitUntil } from '../../helpers/wait.js';

const tempDir = tempDirForFile('watchmark-reconnect-');
const cleanups = cleanupAfterEach();

let n = 0;
async function setup(): Promise<{ server: RunningServer; proxy: TcpProxy; kube: KubeClient }> {
  const server = await startTestServer({ bookmarkInterval: 60_000 });
  const proxy = await TcpProxy.start(server.url);
  const kubeconfig = join(tempDir(), `kubeconfig-${n++}`);
  await writeFile(kubeconfig, buildKubeconfig({ server: proxy.url }), { mode: 0o600 });
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  cleanups.push(async () => {
    await kube.close();
    await proxy.close();
    await server.close();
  });
  await ensureNamespace(server, 'r');
  return { server, proxy, kube };
}

/** A kubelet-like watcher (one node's pods) whose every backoff is at least 30 s. */
function nodeWatcher(kube: KubeClient): { watcher: Watcher; events: WatcherEvent[]; done: Promise<void> } {
  const watcher = kube.watcher(
    'pods',
    { namespace: 'r', fieldSelector: 'spec.nodeName=node-1' },
    { backoff: { initialMs: 30_000, maxMs: 60_000 }, watchTimeoutMs: [60_000, 60_001] },
  );
  const events: WatcherEvent[] = [];
  const done = (async () => {
    for await (const e of watcher) events.push(e);
  })();
  cleanups.push(async () => {
    watcher.stop();
    await done;
  });
  return { watcher, events, done };
}

const watches = (proxy: TcpProxy): SeenRequest[] => proxy.requests.filter((r) => r.watch);
const lists = (proxy: TcpProxy): SeenRequest[] =>
  proxy.requests.filter((r) => !r.watch && r.path.startsWith('/api/v1/namespaces/r/pods'));

async function createPod(server: RunningServer, name: string): Promise<string> {
  const res = await call(server, 'POST', '/api/v1/namespaces/r/pods', {
    body: pod(name, { nodeName: 'node-1' }),
  });
  expect(res.status).toBe(201);
  return res.body.metadata.resourceVersion as string;
}

describe('reconnects like client-go', () => {
  for (const how of ['reset', 'end'] as const) {
    it(`a working watch cut by ${how === 'reset' ? 'a reset (RST)' : 'an EOF (FIN)'} is watched again at once from its last resourceVersion, with no list`, async () => {
      const { server, proxy, kube } = await setup();
      const { watcher, events } = nodeWatcher(kube);
      await proxy.waitFor(() => watches(proxy).length === 1, 'the first watch');
      const rv = await createPod(server, 'a');
      await waitUntil(() => events.some((e) => e.type === 'apply'), 'the event of pod a');
      expect(watcher.resourceVersion).toBe(rv);

      const cutAt = performance.now();
      expect(how === 'reset' ? proxy.resetAll() : proxy.endAll()).toBeGreaterThan(0);
      await proxy.waitFor(() => watches(proxy).length === 2, 'the watch after the cut');
      const again = watches(proxy)[1];
      console.log(`${how}: next watch request ${(again.at - cutAt).toFixed(1)} ms after the cut`);
      expect(new URL(again.path, 'http://x').searchParams.get('resourceVersion')).toBe(rv);
      expect(lists(proxy)).toHaveLength(1);
      expect(watcher.metrics.watchEnds.reset).toBe(1);
      expect(watcher.metrics.errors).toBe(0);

      // The resumed watch works: the next pod arrives on it.
      await createPod(server, 'b');
      await waitUntil(
        () => events.some((e) => e.type === 'apply' && e.object.metadata?.name === 'b'),
        'pod b',
      );
      expect(watcher.metrics.lists).toMatchObject({ initial: 1, expired: 0, error: 0 });
    });
  }

  it('a watch cut before it delivered anything or lasted 1 s backs off (a hot loop otherwise)', async () => {
    const { proxy, kube } = await setup();
    const watcher = kube.watcher(
      'pods',
      { namespace: 'r' },
      { backoff: { initialMs: 300, maxMs: 300, jitter: 0 }, watchTimeoutMs: [60_000, 60_001] },
    );
    const done = (async () => {
      for await (const _ of watcher);
    })();
    cleanups.push(async () => {
      watcher.stop();
      await done;
    });
    await proxy.waitFor(() => watches(proxy).length === 1, 'the first watch');
    // Cut once its answer has begun: before that, the request itself is replayed (next test).
    await waitUntil(() => watcher.metrics.watchesStarted === 1, 'the watch to start');
    const cutAt = performance.now();
    proxy.resetAll();
    await proxy.waitFor(() => watches(proxy).length === 2, 'the watch after the backoff');
    const gap = watches(proxy)[1].at - cutAt;
    console.log(`short empty watch reset: next watch request ${gap.toFixed(1)} ms after the cut`);
    expect(gap).toBeGreaterThanOrEqual(290);
    expect(watcher.metrics.watchEnds).toMatchObject({ reset: 0, error: 1 });
    expect(lists(proxy)).toHaveLength(1);
  });

  it('a GET on a reused keep-alive connection the server closed is sent again at once on a new one; a POST is not', async () => {
    const { proxy, kube } = await setup();
    const namespaces = () => kube.transport.json<{ items: unknown[] }>({ path: '/api/v1/namespaces' });
    await namespaces();
    expect(proxy.connections).toBe(1);

    proxy.resetReusedConnections = true;
    const listed = await namespaces();
    expect(listed.items.length).toBeGreaterThan(0);
    expect(kube.transport.retriedStale).toBe(1);
    expect(proxy.connections).toBe(2);

    // A create is not idempotent: it fails as it is, for the caller to decide.
    const created = kube.transport.request({
      method: 'POST',
      path: '/api/v1/namespaces/r/configmaps',
      body: { metadata: { name: 'c' } },
    });
    await expect(created).rejects.toBeInstanceOf(TransportError);
    await expect(created).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(kube.transport.retriedStale).toBe(1);
  });

  it("a watch sent on a reused connection the server closed starts on a new one, without the watcher's backoff", async () => {
    const { proxy, kube } = await setup();
    proxy.resetReusedConnections = true;
    const { watcher } = nodeWatcher(kube);
    // The list goes first on connection 1; the watch reuses it, is reset, and is sent again on connection 2.
    await proxy.waitFor(() => watches(proxy).length === 1, 'the watch');
    expect(watches(proxy)[0].connection).toBe(2);
    expect(kube.transport.retriedStale).toBe(1);
    expect(watcher.metrics.errors).toBe(0);
  });
});
