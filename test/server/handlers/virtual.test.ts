/**
 * The resources answered and never stored (handlers/virtual.ts): their routes, answer forms and
 * what watchmark's authorizer says of a subject RBAC would judge on kube-apiserver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer({ insecureNoAuth: false, insecureHttp: false });
});
afterAll(async () => {
  await s?.close();
});

const sar = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

describe('virtual resources', () => {
  it('serve only the routes their storage has', async () => {
    expect((await call(s, 'GET', sar)).status).toBe(405);
    const named = await call(s, 'POST', `${sar}/x`, { body: {} });
    expect(named.status).toBe(404);
    expect(named.body.message).toBe('the server could not find the requested resource');
    const watch = await call(s, 'GET', '/api/v1/componentstatuses?watch=true');
    expect(watch.status).toBe(405);
    expect(watch.body.message).toBe('watch is not supported on resources of kind "componentstatuses"');
    expect(watch.headers.warning).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
  });

  it('refuse a Table of a review, as a storage without a Table convertor', async () => {
    const r = await call(s, 'POST', sar, {
      body: { spec: { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } } },
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(r.status).toBe(406);
  });

  it('answer a review with the field manager record and the authorizer decision', async () => {
    const master = await call(s, 'POST', sar, {
      body: { spec: { groups: ['system:masters'], resourceAttributes: { verb: 'get', resource: 'pods' } } },
      headers: { 'user-agent': 'tester/1' },
    });
    expect(master.status).toBe(201);
    expect(master.body.status).toEqual({ allowed: true });
    expect(master.body.metadata.managedFields[0]).toMatchObject({ manager: 'tester', operation: 'Update' });
    // kube-apiserver asks RBAC here (and denies a user bound to nothing); watchmark allows all.
    const other = await call(s, 'POST', sar, {
      body: { spec: { user: 'bob', resourceAttributes: { verb: 'delete', resource: 'nodes' } } },
    });
    expect(other.body.status).toEqual({
      allowed: true,
      reason: 'watchmark allows every authenticated request (no RBAC authorizer)',
    });
  });

  it('binds the pod a Binding names, dry runs writing nothing', async () => {
    await call(s, 'POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vb' } },
    });
    await call(s, 'POST', '/api/v1/namespaces/vb/pods', {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', image: 'i' }] },
      },
    });
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { name: 'n1' } };
    const dry = await call(s, 'POST', '/api/v1/namespaces/vb/bindings?dryRun=All', { body: binding });
    expect(dry.status).toBe(201);
    expect((await call(s, 'GET', '/api/v1/namespaces/vb/pods/p')).body.spec.nodeName).toBeUndefined();
    const bound = await call(s, 'POST', '/api/v1/namespaces/vb/bindings', { body: binding });
    expect(bound.body).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    expect((await call(s, 'GET', '/api/v1/namespaces/vb/pods/p')).body.spec.nodeName).toBe('n1');
  });
});
