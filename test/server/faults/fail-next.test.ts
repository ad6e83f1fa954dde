/**
 * faults.failNext as a client sees it: the Status kube-apiserver sends for the code, the
 * Retry-After of a 429, nothing written by the failed request, and the next request served.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../src/protocol/status.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { call, startTestServerWithClient } from '../../helpers/server.js';

const tempDir = tempDirForFile('watchmark-faults-');
const cleanups = cleanupAfterEach();
let n = 0;
const serve = () => startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups);

async function failure(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

describe('faults.failNext', () => {
  it('409 on an update: the Conflict kube-apiserver sends, nothing written, then the update goes through', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    const cm = await cms.create({ metadata: { name: 'c' }, data: { a: '1' } });
    const handle = server.faults.failNext({ code: 409, verb: 'update', resource: 'configmaps' });
    const before = server.latestRevision();
    const err = await failure(cms.update({ ...cm, data: { a: '2' } }));
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'c', kind: 'configmaps' },
      code: 409,
    });
    expect(handle.hits).toBe(1);
    expect(handle.remaining).toBe(0);
    expect(server.latestRevision()).toBe(before);
    expect((await cms.get('c')).data).toEqual({ a: '1' });
    const updated = await cms.update({ ...cm, data: { a: '2' } });
    expect(updated.data).toEqual({ a: '2' });
  });

  it('429 with Retry-After and details.retryAfterSeconds, count 2, then served', async () => {
    const { server, kube } = await serve();
    server.faults.failNext({ code: 429, count: 2, verb: 'list', resource: 'pods', retryAfterSeconds: 3 });
    const raw = await call(server, 'GET', '/api/v1/namespaces/demo/pods');
    expect(raw.status).toBe(429);
    expect(raw.headers['retry-after']).toBe('3');
    expect(raw.body).toMatchObject({
      reason: 'TooManyRequests',
      message: 'Too many requests, please try again later.',
      details: { retryAfterSeconds: 3 },
      code: 429,
    });
    const err = await failure(kube.resource('pods', 'demo').list());
    expect(err.code).toBe(429);
    expect(err.status.details?.retryAfterSeconds).toBe(3);
    expect((await kube.resource('pods', 'demo').list()).items).toEqual([]);
  });

  it('500 on a create: nothing created, resourceVersion unchanged; the retry creates it', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    server.faults.failNext({ code: 500, verb: 'create', message: 'etcdserver: leader changed' });
    const before = server.latestRevision();
    const err = await failure(cms.create({ metadata: { name: 'x' } }));
    expect(err.status).toMatchObject({
      reason: 'InternalError',
      message: 'Internal error occurred: etcdserver: leader changed',
      details: { causes: [{ message: 'etcdserver: leader changed' }] },
      code: 500,
    });
    expect(server.latestRevision()).toBe(before);
    expect(await cms.find('x')).toBeUndefined();
    await cms.create({ metadata: { name: 'x' } });
    expect(await cms.find('x')).toBeDefined();
  });

  it('504 and 503 in kube-apiserver words; a rule matches namespace, name, user agent and field manager only', async () => {
    const { server, kube } = await serve();
    const cms = kube.resource('configmaps', 'demo');
    await cms.create({ metadata: { name: 'a' } });
    server.faults.failNext({ code: 504, verb: 'get', name: 'a', namespace: 'demo' });
    const timeout = await failure(cms.get('a'));
    expect(timeout.status).toMatchObject({
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
      code: 504,
    });
    expect((await cms.get('a')).metadata?.name).toBe('a');

    const byAgent = server.faults.failNext({ code: 503, userAgent: 'my-controller' });
    const byManager = server.faults.failNext({
      code: 409,
      fieldManager: 'the-operator',
      resource: 'configmaps',
    });
    await cms.get('a'); // watchmark's user agent: not matched
    expect(byAgent.hits).toBe(0);
    const other = await call(server, 'GET', '/api/v1/namespaces/demo/configmaps/a', {
      headers: { 'user-agent': 'my-controller/v1.2 (linux/amd64)' },
    });
    expect(other.status).toBe(503);
    expect(other.body).toMatchObject({ reason: 'ServiceUnavailable', code: 503 });
    expect(byAgent.hits).toBe(1);
    await cms.create({ metadata: { name: 'b' } }, { fieldManager: 'someone-else' });
    const err = await failure(cms.create({ metadata: { name: 'c' } }, { fieldManager: 'the-operator' }));
    expect(err.code).toBe(409);
    expect(byManager.remaining).toBe(0);
    expect(await cms.find('c')).toBeUndefined();
  });

  it('a subresource rule fails only that subresource; cancel() and clear() remove rules', async () => {
    const { server, kube } = await serve();
    const deployments = kube.resource('deployments', 'demo');
    await deployments.create({
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    server.faults.failNext({ code: 409, resource: 'deployments.apps/status' });
    const d = await deployments.get('d');
    await deployments.update(d); // the main resource: not matched
    const status = await failure(deployments.updateStatus(await deployments.get('d')));
    expect(status.status.message).toMatch(/^Operation cannot be fulfilled on deployments.apps "d"/);
    expect(status.status.details).toEqual({ name: 'd', group: 'apps', kind: 'deployments' });

    const h = server.faults.failNext({ code: 500, count: 5 });
    h.cancel();
    await deployments.get('d');
    expect(h.hits).toBe(0);
    server.faults.failNext({ code: 500, count: 5 });
    server.faults.clear();
    await deployments.get('d');
    expect(() => server.faults.failNext({ code: 418 })).toThrow(/code 418/);
  });
});
