/**
 * client-node's KubeConfig as the drop-in reads it (only through its public
 * methods): an exec plugin's token, a refused impersonation, a plain-HTTP
 * server, and the path and cache rules the informer is built on.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { NamespacedCache } from '../../src/client-node/cache.js';
import { makeInformer, Watch } from '../../src/client-node/index.js';
import { connectionFromKubeConfig } from '../../src/client-node/kubeconfig.js';
import { parseCollectionPath } from '../../src/client-node/path.js';
import type { RunningServer } from '../../src/server/index.js';
import { makeTempDir, type TempDir } from '../helpers/lifecycle.js';
import { call, ensureNamespace, pod, startTestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

describe('the KubeConfig, read through its public methods', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function tlsServer(): Promise<RunningServer> {
    const server = await startTestServer({ insecureHttp: false, insecureNoAuth: false });
    cleanups.push(() => server.close());
    await ensureNamespace(server, 'demo');
    return server;
  }

  it('an exec plugin gives the token: both informers list and watch with it', async () => {
    const server = await tlsServer();
    const dir: TempDir = await makeTempDir('client-node-exec-');
    cleanups.push(() => dir.remove());
    const plugin = join(dir.path, 'plugin.mjs');
    const runs = join(dir.path, 'runs');
    // An ExecCredential plugin (client.authentication.k8s.io/v1) that counts its runs.
    await writeFile(
      plugin,
      [
        "import { appendFileSync } from 'node:fs';",
        `appendFileSync(${JSON.stringify(runs)}, 'x');`,
        'process.stdout.write(JSON.stringify({',
        "  apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',",
        `  status: { token: ${JSON.stringify(server.token)} },`,
        '}));',
      ].join('\n'),
    );
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [
        { name: 'c', server: server.url, caData: Buffer.from(server.caPem ?? '').toString('base64') },
      ],
      users: [
        {
          name: 'u',
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: process.execPath,
            args: [plugin],
            interactiveMode: 'Never',
          },
        },
      ],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    await call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod('a') });
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = makeInformer(kc, '/api/v1/namespaces/demo/pods', () =>
      core.listNamespacedPod({ namespace: 'demo' }),
    );
    cleanups.push(() => informer.stop());
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    expect(errors).toEqual([]);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['a']);
    await call(server, 'POST', '/api/v1/namespaces/demo/pods', { body: pod('b') });
    await waitUntil(() => informer.get('b', 'demo') !== undefined, 'the watched add of b');
    // client-node ran the plugin (and caches its token as it always does).
    expect((await readFile(runs, 'utf8')).length).toBeGreaterThanOrEqual(1);
  });

  it('a missing token is a 401 reported to error (retried), not a crash', async () => {
    const server = await tlsServer();
    const kc = new k8s.KubeConfig();
    kc.loadFromString(server.kubeconfig.replace(server.token ?? '', 'wrong-token'));
    const informer = makeInformer(kc, '/api/v1/namespaces/demo/pods', undefined, undefined, undefined, {
      backoff: { initialMs: 10, maxMs: 20 },
    });
    cleanups.push(() => informer.stop());
    const errors: any[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    await waitUntil(() => errors.length >= 2, 'the refusal retried');
    expect(errors[0].statusCode).toBe(401);
  });

  it('impersonation (a header the transport cannot send) is refused, not ignored', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u', token: 't', impersonateUser: 'someone' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    await expect(connectionFromKubeConfig(kc)).rejects.toThrow(/Impersonate-User, which is not supported/);
  });

  it('no current cluster: the Watch ends with the error client-node gives', async () => {
    const kc = new k8s.KubeConfig();
    const done: any[] = [];
    await new Watch(kc).watch(
      '/api/v1/pods',
      {},
      () => {},
      (err) => done.push(err),
    );
    expect(done.map((e) => e.message)).toEqual(['No currently active cluster']);
  });

  it('a plain-HTTP server with insecure-skip-tls-verify (as client-node demands) and no credentials', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    await ensureNamespace(server, 'demo');
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: server.url, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const informer = makeInformer(kc, '/api/v1/namespaces');
    cleanups.push(() => informer.stop());
    await informer.start();
    expect(informer.get('demo')?.metadata?.name).toBe('demo');
  });
});

describe('the path read into a collection', () => {
  it('core and group paths, namespaced or not; a query string keeps its selectors', () => {
    const p = (path: string) => {
      const r = parseCollectionPath(path);
      return [r.resource.collectionPath, r.labelSelector, r.fieldSelector];
    };
    expect(p('/api/v1/namespaces/demo/pods')).toEqual(['/api/v1/namespaces/demo/pods', undefined, undefined]);
    expect(p('/api/v1/pods')).toEqual(['/api/v1/pods', undefined, undefined]);
    expect(p('/apis/apps/v1/deployments')).toEqual(['/apis/apps/v1/deployments', undefined, undefined]);
    expect(
      p('/apis/example.com/v1/namespaces/x/widgets?labelSelector=a%3Db&fieldSelector=metadata.name%3Dw'),
    ).toEqual(['/apis/example.com/v1/namespaces/x/widgets', 'a=b', 'metadata.name=w']);
  });

  it('anything else is refused when the informer is made, naming the forms', () => {
    for (const bad of ['/api/v1/namespaces/demo', '/healthz', '/apis/apps', '/api/v1/namespaces/demo/pods/a'])
      expect(() => parseCollectionPath(bad), bad).toThrow(/is not a collection path/);
    expect(() => makeInformer(new k8s.KubeConfig(), '/version')).toThrow(/is not a collection path/);
  });
});

describe("the cache's rules (client-node's cache.ts)", () => {
  const obj = (name: string, rv?: string, namespace = 'ns') => ({
    metadata: { name, namespace, resourceVersion: rv },
  });

  it('the same resourceVersion again is no event; none at all is always an update', () => {
    const c = new NamespacedCache();
    expect(c.addOrUpdate(obj('a', '1'))?.verb).toBe('add');
    expect(c.addOrUpdate(obj('a', '1'))).toBeUndefined();
    expect(c.addOrUpdate(obj('a', '2'))?.verb).toBe('update');
    expect(c.addOrUpdate(obj('b'))?.verb).toBe('add');
    expect(c.addOrUpdate(obj('b'))?.verb).toBe('update');
  });

  it('deleting what is not cached is no event; the last object of a namespace takes the namespace', () => {
    const c = new NamespacedCache();
    expect(c.delete(obj('a', '1'))).toBeUndefined();
    c.addOrUpdate(obj('a', '1'));
    expect(c.delete(obj('a', '2'))?.verb).toBe('delete');
    expect(c.list()).toEqual([]);
  });

  it('a relist: deletions of what it lacks first, then its adds and updates in its order', () => {
    const c = new NamespacedCache();
    for (const o of [obj('a', '1'), obj('b', '1'), obj('z', '1', 'other')]) c.addOrUpdate(o);
    const changes = c.replace([obj('c', '3'), obj('a', '2'), obj('b', '1')]);
    expect(changes.map((ch) => `${ch.verb} ${ch.object.metadata?.name}`)).toEqual([
      'delete z',
      'add c',
      'update a',
    ]);
    expect(c.list().map((o) => o.metadata?.name)).toEqual(['a', 'b', 'c']);
  });
});
