/**
 * ServerOptions.onRequest: one record per resource request, with the verb kube-apiserver's
 * request-info resolves; and a fault as @kubernetes/client-node sees it.
 */
import { join } from 'node:path';
import { ApiException, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { answeredResourceVersion } from '../../../src/server/faults/request-recorder.js';
import { type RequestRecord, startServer } from '../../../src/server/index.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, startTestServerWithClient, watch } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const tempDir = tempDirForFile('watchmark-record-');
const cleanups = cleanupAfterEach();
let n = 0;

async function recorded() {
  const records: RequestRecord[] = [];
  const { server, kube } = await startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups, {
    onRequest: (r) => records.push(r),
  });
  records.length = 0; // the demo namespace's create
  return { server, kube, records };
}

describe('onRequest', () => {
  it('records a create with its field manager, a list, a get, an apply, a 404, a delete and a deletecollection', async () => {
    const { server, kube, records } = await recorded();
    const cms = kube.resource('configmaps', 'demo');
    const created = await cms.create({ metadata: { name: 'a' } }, { fieldManager: 'my-operator' });
    const list = await cms.list({ labelSelector: 'x!=y' });
    await cms.get('a', { resourceVersion: '0' });
    const applied = await cms.apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } },
      { fieldManager: 'applier' },
    );
    await cms.get('missing').catch(() => undefined);
    await cms.delete('a', { dryRun: true });
    await cms.deleteCollection({});
    const userAgent = records[0].userAgent;
    expect(userAgent).toMatch(/^watchmark/);
    const base = { apiGroup: '', apiVersion: 'v1', resource: 'configmaps', namespace: 'demo', userAgent };
    expect(records.map(({ time, ...r }) => r)).toEqual([
      {
        ...base,
        verb: 'create',
        fieldManager: 'my-operator',
        dryRun: false,
        code: 201,
        resultResourceVersion: created.metadata?.resourceVersion,
      },
      {
        ...base,
        verb: 'list',
        dryRun: false,
        code: 200,
        resultResourceVersion: list.metadata.resourceVersion,
      },
      {
        ...base,
        verb: 'get',
        name: 'a',
        dryRun: false,
        resourceVersion: '0',
        code: 200,
        resultResourceVersion: created.metadata?.resourceVersion,
      },
      {
        ...base,
        verb: 'patch',
        name: 'a',
        fieldManager: 'applier',
        patchType: 'application/apply-patch+yaml',
        dryRun: false,
        code: 200,
        resultResourceVersion: applied.metadata?.resourceVersion,
      },
      { ...base, verb: 'get', name: 'missing', dryRun: false, code: 404 },
      // A ConfigMap's DELETE answers a Status (metadata {}), as kube-apiserver's does: no
      // resourceVersion to record.
      { ...base, verb: 'delete', name: 'a', dryRun: true, code: 200 },
      expect.objectContaining({ ...base, verb: 'deletecollection', code: 200 }),
    ]);
    for (const r of records) expect(typeof r.time).toBe('number');
    expect(server.latestRevision()).toBeGreaterThan(Number(applied.metadata?.resourceVersion));
  });

  it('records a watch when its stream starts, with the verb of each watch form', async () => {
    const { server, records } = await recorded();
    const rv = String(server.latestRevision());
    const streams = [
      await watch(server, `/api/v1/namespaces/demo/configmaps?watch=true&resourceVersion=${rv}`),
      await watch(server, '/api/v1/watch/namespaces/demo/configmaps/one'),
      await watch(server, '/api/v1/configmaps?watch=1&fieldSelector=metadata.name%3Dtwo'),
    ];
    cleanups.push(async () => {
      for (const s of streams) s.close();
    });
    await waitUntil(() => records.length === 3, 'three records');
    expect(records.map(({ time, userAgent, ...r }) => r)).toEqual([
      {
        verb: 'watch',
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'configmaps',
        namespace: 'demo',
        dryRun: false,
        resourceVersion: rv,
        code: 200,
      },
      {
        verb: 'watch',
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'configmaps',
        namespace: 'demo',
        name: 'one',
        dryRun: false,
        code: 200,
      },
      {
        verb: 'watch',
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'configmaps',
        name: 'two',
        dryRun: false,
        code: 200,
      },
    ]);
    // A watch refused before its stream starts is recorded with its code.
    const refused = await call(server, 'GET', '/api/v1/namespaces/demo/configmaps?watch=1&timeoutSeconds=x');
    expect(refused.status).toBe(400);
    expect(records[3]).toMatchObject({ verb: 'watch', code: 400 });
  });

  it('records faults too; @kubernetes/client-node sees the 429 with its Retry-After and then succeeds', async () => {
    // client-node speaks TLS only: a server with its defaults (TLS and a token).
    const records: RequestRecord[] = [];
    const server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      compactionInterval: 0,
      onRequest: (r) => records.push(r),
    });
    cleanups.push(() => server.close());
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'demo' } } });
    records.length = 0;
    const handle = server.faults.failNext({
      code: 429,
      verb: 'list',
      resource: 'pods',
      retryAfterSeconds: 2,
    });
    const err = await core.listNamespacedPod({ namespace: 'demo' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiException);
    const apiErr = err as ApiException<string>;
    expect(apiErr.code).toBe(429);
    expect(apiErr.headers['retry-after']).toBe('2');
    expect(JSON.parse(apiErr.body)).toMatchObject({
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 2 },
    });
    expect(handle.hits).toBe(1);
    const pods = await core.listNamespacedPod({ namespace: 'demo' });
    expect(pods.items).toEqual([]);
    expect(records.map((r) => `${r.verb} ${r.resource} ${r.code}`)).toEqual([
      'list pods 429',
      'list pods 200',
    ]);
    expect(records[1].resultResourceVersion).toBe(pods.metadata?.resourceVersion);
    expect(records[0].userAgent).not.toMatch(/^watchmark/);
  });

  it('the Namespace itself: request-info reads its name as the namespace too', async () => {
    const { kube, records } = await recorded();
    await kube.resource('namespaces').get('demo');
    expect(records[0]).toMatchObject({
      verb: 'get',
      resource: 'namespaces',
      name: 'demo',
      namespace: 'demo',
    });
  });
});

describe('answeredResourceVersion', () => {
  it('reads the top-level metadata only, and gives up rather than guess', () => {
    expect(
      answeredResourceVersion(
        '{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"12"},"items":[]}',
      ),
    ).toBe('12');
    expect(
      answeredResourceVersion(
        '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","annotations":{"x":"{\\"resourceVersion\\":\\"9\\"}"},"resourceVersion":"7"}}',
      ),
    ).toBe('7');
    expect(
      answeredResourceVersion('{"spec":{"template":{"metadata":{}}},"metadata":{"resourceVersion":"3"}}'),
    ).toBe(undefined);
    expect(
      answeredResourceVersion('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success"}'),
    ).toBe(undefined);
  });
});
