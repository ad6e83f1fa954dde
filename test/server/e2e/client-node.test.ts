/**
 * The real `@kubernetes/client-node` (1.x) against the server over TLS with a
 * bearer token: typed API calls, its Watch, and its ListWatch informer. The
 * peer's client is the proof that our wire format is the one clients parse.
 */
import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  ListWatch,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1Pod,
  Watch,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { waitUntil } from '../../helpers/wait.js';

let server: RunningServer;
let kc: KubeConfig;
let core: CoreV1Api;
let socketsBefore = 0;

/** Sockets open in this process: what a leaked watch or agent would hold. */
function openSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TLSWrap').length;
}

beforeAll(async () => {
  socketsBefore = openSockets();
  server = await startServer({
    disableAdmissionPlugins: ['ServiceAccount'],
    bookmarkInterval: 150,
    bookmarkLead: 100,
    compactionInterval: 0,
  });
  kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
});

afterAll(async () => {
  // Every watch was aborted and every informer stopped: the server holds no stream for them.
  await waitUntil(() => server.stats.openWatchers === 0, 'every watch stream to close', 2000).catch(() => {});
  expect(server.stats.openWatchers, 'watch streams left open').toBe(0);
  await server?.close();
  // Nor may a socket (a keep-alive agent, a half-closed stream) outlive the server.
  await waitUntil(() => openSockets() <= socketsBefore, 'every socket to close', 2000).catch(() => {});
  expect(openSockets()).toBeLessThanOrEqual(socketsBefore);
});

function podBody(name: string, labels: Record<string, string> = {}): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
  };
}

async function namespace(name: string): Promise<string> {
  await core.createNamespace({ body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  return name;
}

describe('@kubernetes/client-node CoreV1Api', () => {
  it('loads the kubeconfig (TLS + token) and creates, reads, lists, patches and deletes', async () => {
    const cluster = kc.getCurrentCluster();
    expect(cluster?.server).toBe(server.url);
    expect(cluster?.caData).toBeTruthy();
    expect(kc.getCurrentUser()?.token).toBe(server.token);

    const ns = await namespace('crud');
    const created = await core.createNamespacedPod({ namespace: ns, body: podBody('a', { app: 'x' }) });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.spec?.restartPolicy).toBe('Always');
    await core.createNamespacedPod({ namespace: ns, body: podBody('b') });

    const read = await core.readNamespacedPod({ name: 'a', namespace: ns });
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    // The typed client turns RFC 3339 strings into Dates: they must parse.
    expect(read.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(Number.isNaN(read.metadata?.creationTimestamp?.getTime())).toBe(false);

    const list = await core.listNamespacedPod({ namespace: ns });
    expect(list.items.map((p) => p.metadata?.name)).toEqual(['a', 'b']);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    const selected = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=x' });
    expect(selected.items.map((p) => p.metadata?.name)).toEqual(['a']);
    const paged = await core.listNamespacedPod({ namespace: ns, limit: 1 });
    expect(paged.items).toHaveLength(1);
    expect(paged.metadata?._continue).toBeTruthy();
    const rest = await core.listNamespacedPod({
      namespace: ns,
      limit: 1,
      _continue: paged.metadata?._continue,
    });
    expect(rest.items.map((p) => p.metadata?.name)).toEqual(['b']);
    const all = await core.listPodForAllNamespaces();
    expect(all.items.filter((p) => p.metadata?.namespace === ns)).toHaveLength(2);

    // The generated client's default patch type is JSON patch; merge patch is chosen by header.
    const jsonPatched = await core.patchNamespacedPod({
      name: 'a',
      namespace: ns,
      body: [{ op: 'add', path: '/metadata/labels/tier', value: 'web' }],
    });
    expect(jsonPatched.metadata?.labels).toEqual({ app: 'x', tier: 'web' });
    const merged = await core.patchNamespacedPod(
      { name: 'a', namespace: ns, body: { metadata: { labels: { tier: null } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(merged.metadata?.labels).toEqual({ app: 'x' });

    const replaced = await core.replaceNamespacedPod({
      name: 'b',
      namespace: ns,
      body: {
        ...(await core.readNamespacedPod({ name: 'b', namespace: ns })),
        metadata: { name: 'b', labels: { r: '1' } },
      },
    });
    expect(replaced.metadata?.labels).toEqual({ r: '1' });

    await core.deleteNamespacedPod({ name: 'a', namespace: ns });
    const err = await core.readNamespacedPod({ name: 'a', namespace: ns }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiException);
    const apiErr = err as ApiException<string>;
    expect(apiErr.code).toBe(404);
    expect(JSON.parse(apiErr.body)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('rejects a client without the token', async () => {
    const anonymous = new KubeConfig();
    anonymous.loadFromOptions({
      clusters: [{ name: 'c', server: server.url, caData: Buffer.from(server.caPem!).toString('base64') }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const err = await anonymous
      .makeApiClient(CoreV1Api)
      .listNamespace()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((err as ApiException<string>).code).toBe(401);
  });
});

describe('@kubernetes/client-node Watch', () => {
  it('sees ADDED, MODIFIED and DELETED, and BOOKMARKs when it asks for them', async () => {
    const ns = await namespace('watched');
    const start = await core.listNamespacedPod({ namespace: ns });
    const events: Array<{ type: string; name?: string; rv?: string }> = [];
    let doneWith: unknown = 'not done';
    const controller = await new Watch(kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { allowWatchBookmarks: true, resourceVersion: start.metadata?.resourceVersion },
      (type, obj: V1Pod) =>
        events.push({ type, name: obj.metadata?.name, rv: obj.metadata?.resourceVersion }),
      (err) => {
        doneWith = err;
      },
    );
    try {
      // A label to add to: an empty `labels: {}` is not stored (omitempty), as in kube-apiserver.
      await core.createNamespacedPod({ namespace: ns, body: podBody('w', { app: 'w' }) });
      await core.patchNamespacedPod({
        name: 'w',
        namespace: ns,
        body: [{ op: 'add', path: '/metadata/labels/seen', value: 'yes' }],
      });
      await core.deleteNamespacedPod({ name: 'w', namespace: ns });
      await waitUntil(() => events.some((e) => e.type === 'DELETED'), 'the DELETED event');
      expect(events.filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, e.name])).toEqual([
        ['ADDED', 'w'],
        ['MODIFIED', 'w'],
        // A pod's delete first writes its mark (deletionTimestamp, grace 0), as kube-apiserver does.
        ['MODIFIED', 'w'],
        ['DELETED', 'w'],
      ]);
      // A write elsewhere moves the global resourceVersion; the next bookmark carries it.
      await namespace('elsewhere');
      const target = server.latestRevision();
      await waitUntil(
        () => events.some((e) => e.type === 'BOOKMARK' && Number(e.rv) >= target),
        `a bookmark at ${target} or later`,
        3000,
      );
      const bookmark = events.find((e) => e.type === 'BOOKMARK' && Number(e.rv) >= target);
      expect(bookmark?.name).toBeUndefined();
      expect(bookmark?.rv).toMatch(/^\d+$/);
      expect(doneWith).toBe('not done');
    } finally {
      controller.abort();
    }
    await waitUntil(() => doneWith !== 'not done', 'the watch to call done');
  });

  it('without allowWatchBookmarks gets no BOOKMARK', async () => {
    const ns = await namespace('quiet');
    const types: string[] = [];
    const controller = await new Watch(kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      {},
      (type) => types.push(type),
      () => {},
    );
    // A control watch, opened later, that asks for bookmarks: once it has one, a bookmark was due
    // on the quiet watch too (its timer started first).
    const control: Array<{ type: string; rv?: string }> = [];
    const withBookmarks = await new Watch(kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { allowWatchBookmarks: true },
      (type, obj: V1Pod) => control.push({ type, rv: obj.metadata?.resourceVersion }),
      () => {},
    );
    try {
      await core.createNamespacedPod({ namespace: ns, body: podBody('q') });
      await waitUntil(() => types.includes('ADDED'), 'the first ADDED');
      await namespace('quiet-elsewhere');
      const target = server.latestRevision();
      await waitUntil(
        () => control.some((e) => e.type === 'BOOKMARK' && Number(e.rv) >= target),
        `a bookmark at ${target} or later on the control watch`,
        3000,
      );
      // The barrier: a later pod's ADDED, which the stream carries after any bookmark sent before it.
      await core.createNamespacedPod({ namespace: ns, body: podBody('q2') });
      await waitUntil(() => types.length >= 2, 'the second ADDED');
      expect(types).toEqual(['ADDED', 'ADDED']);
    } finally {
      controller.abort();
      withBookmarks.abort();
    }
  });

  it('reports a 410 for a compacted resourceVersion to its done callback or as an ERROR event', async () => {
    const ns = await namespace('expired');
    const first = await core.createNamespacedPod({ namespace: ns, body: podBody('e', { app: 'e' }) });
    await core.patchNamespacedPod({
      name: 'e',
      namespace: ns,
      body: [{ op: 'add', path: '/metadata/labels/v', value: '2' }],
    });
    await server.compact();
    const errors: Array<{ code?: number; reason?: string }> = [];
    let done = false;
    const controller = await new Watch(kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { resourceVersion: first.metadata?.resourceVersion },
      (type, obj: { code?: number; reason?: string }) => {
        if (type === 'ERROR') errors.push(obj);
      },
      () => {
        done = true;
      },
    );
    try {
      await waitUntil(() => errors.length > 0 && done, 'the ERROR event and the end of the watch');
      expect(errors[0]).toMatchObject({ code: 410, reason: 'Expired' });
    } finally {
      controller.abort();
    }
  });
});

describe('@kubernetes/client-node informers', () => {
  it('makeInformer keeps a cache that follows creates, updates and deletes', async () => {
    const ns = await namespace('informed');
    await core.createNamespacedPod({ namespace: ns, body: podBody('pre', { v: '1' }) });
    const informer = makeInformer(kc, `/api/v1/namespaces/${ns}/pods`, () =>
      core.listNamespacedPod({ namespace: ns }),
    );
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (p) => seen.push(`add ${p.metadata?.name}`));
    informer.on('update', (p) => seen.push(`update ${p.metadata?.name} ${p.metadata?.labels?.v}`));
    informer.on('delete', (p) => seen.push(`delete ${p.metadata?.name}`));
    informer.on('error', (err) => errors.push(err));
    await informer.start();
    try {
      expect(informer.list(ns).map((p) => p.metadata?.name)).toEqual(['pre']);
      await core.createNamespacedPod({ namespace: ns, body: podBody('a', { v: '1' }) });
      await core.createNamespacedPod({ namespace: ns, body: podBody('b', { v: '1' }) });
      await core.patchNamespacedPod({
        name: 'a',
        namespace: ns,
        body: [{ op: 'replace', path: '/metadata/labels/v', value: '2' }],
      });
      await core.deleteNamespacedPod({ name: 'pre', namespace: ns });
      const expected = (pods: readonly V1Pod[]) =>
        pods
          .map((p) => `${p.metadata?.name}=${p.metadata?.labels?.v}`)
          .sort()
          .join(',');
      await waitUntil(
        () => expected(informer.list(ns)) === 'a=2,b=1',
        () => `the informer to hold a=2,b=1 (it holds ${expected(informer.list(ns))})`,
      );
      expect(informer.get('a', ns)?.metadata?.labels?.v).toBe('2');
      expect(informer.get('pre', ns)).toBeUndefined();
      // The delete's mark (deletionTimestamp) arrives as an update before the removal.
      expect(seen).toEqual(['add pre', 'add a', 'add b', 'update a 2', 'update pre 1', 'delete pre']);
      expect(errors).toEqual([]);
      const fresh = await core.listNamespacedPod({ namespace: ns });
      // Events advanced the informer's resourceVersion to the store's latest write.
      expect(informer).toBeInstanceOf(ListWatch);
      expect((informer as ListWatch<V1Pod>).latestResourceVersion()).toBe(fresh.metadata?.resourceVersion);
    } finally {
      await informer.stop();
    }
  });

  it('ListWatch with a label selector resumes from its resourceVersion after the server cuts its watch', async () => {
    const ns = await namespace('listwatch');
    let lists = 0;
    const lw = new ListWatch<V1Pod>(
      `/api/v1/namespaces/${ns}/pods`,
      new Watch(kc),
      () => {
        lists++;
        return core.listNamespacedPod({ namespace: ns, labelSelector: 'team=a' });
      },
      false,
      'team=a',
    );
    // client-node stops for good on a cut stream ("Premature close"); its
    // documented remedy is to start again from the error handler.
    const errors: unknown[] = [];
    let stopping = false;
    lw.on('error', (err) => {
      errors.push(err);
      if (!stopping) void lw.start();
    });
    await lw.start();
    try {
      await core.createNamespacedPod({ namespace: ns, body: podBody('a1', { team: 'a' }) });
      await core.createNamespacedPod({ namespace: ns, body: podBody('b1', { team: 'b' }) });
      await waitUntil(() => lw.list(ns).length === 1, 'the ListWatch to hold a1');
      expect(server.dropWatches()).toBeGreaterThan(0);
      await waitUntil(() => errors.length === 1, 'the cut watch to report its error');
      await core.createNamespacedPod({ namespace: ns, body: podBody('a2', { team: 'a' }) });
      // a1 stops matching the selector: the resumed watch sends it as DELETED.
      await core.patchNamespacedPod({
        name: 'a1',
        namespace: ns,
        body: [{ op: 'replace', path: '/metadata/labels/team', value: 'b' }],
      });
      await waitUntil(
        () =>
          lw
            .list(ns)
            .map((p) => p.metadata?.name)
            .join() === 'a2',
        'the ListWatch to hold only a2',
      );
      // Resumed from the last resourceVersion: no second list.
      expect(lists).toBe(1);
      expect(errors).toHaveLength(1);
    } finally {
      stopping = true;
      await lw.stop();
    }
  });
});
