/**
 * Field ownership on custom resources (merge schema from the CRD's structural schema) and on the
 * writes the server makes itself (the CRD controllers, the namespace bootstrap), as
 * kube-apiserver records them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { call, startTestServer } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
  await installCrd(server, widgetCrd());
});
afterAll(async () => {
  await server.close();
});

const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

function apply(path: string, manager: string, body: unknown, query = '') {
  return call(server, 'PATCH', `${path}?fieldManager=${manager}${query}`, { body, headers: APPLY });
}

function entry(obj: any, manager: string): any {
  return obj.metadata.managedFields?.find((e: any) => e.manager === manager);
}

describe('custom resources', () => {
  it('apply creates with the applied fields only (defaults are no one s), and conflicts on a value', async () => {
    const a = await apply(`${WIDGETS}/w1`, 'a', widget('w1', { size: 1 }));
    expect(a.status).toBe(201);
    expect(a.body.spec).toEqual({ size: 1, color: 'red' });
    expect(a.body.metadata.managedFields).toEqual([
      {
        manager: 'a',
        operation: 'Apply',
        apiVersion: 'example.com/v1',
        time: expect.any(String),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:size': {} } },
      },
    ]);
    const b = await apply(`${WIDGETS}/w1`, 'b', widget('w1', { size: 2 }));
    expect(b.status).toBe(409);
    expect(b.body.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.size');
    expect(b.body.details.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.size' },
    ]);
    const forced = await apply(`${WIDGETS}/w1`, 'b', widget('w1', { size: 2, color: 'blue' }), '&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toEqual({ size: 2, color: 'blue' });
    expect(entry(forced.body, 'a')).toBeUndefined();
  });

  it('a create records what the body set (after defaulting) for the User-Agent', async () => {
    const c = await call(server, 'POST', WIDGETS, {
      body: widget('w2', { size: 3 }),
      headers: { 'user-agent': 'kubectl-create/v1.30.0' },
    });
    expect(c.status).toBe(201);
    expect(entry(c.body, 'kubectl-create').fieldsV1).toEqual({
      'f:spec': { '.': {}, 'f:color': {}, 'f:size': {} },
    });
  });

  it('status applies and updates own status only (subresource status); the main resource ignores status', async () => {
    await apply(`${WIDGETS}/w3`, 'owner', widget('w3', { size: 1 }, { status: { replicas: 5 } }));
    const st = await apply(
      `${WIDGETS}/w3/status`,
      'ctrl',
      widget('w3', { size: 9 }, { status: { replicas: 2, selector: 'app=w3' } }),
    );
    expect(st.status).toBe(200);
    expect(st.body.spec.size).toBe(1);
    expect(st.body.status).toEqual({ replicas: 2, selector: 'app=w3' });
    expect(entry(st.body, 'owner').fieldsV1).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(entry(st.body, 'ctrl')).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:replicas': {}, 'f:selector': {} } },
    });
    // The status strategy keeps the new object's managedFields while copying the old object.
    const got = await call(server, 'GET', `${WIDGETS}/w3`);
    expect(got.body.metadata.managedFields).toEqual(st.body.metadata.managedFields);
  });

  it('scale gives spec.replicas to the scaler', async () => {
    await apply(`${WIDGETS}/w4`, 'owner', widget('w4', { size: 1, replicas: 1 }));
    const s = await call(server, 'PATCH', `${WIDGETS}/w4/scale`, {
      body: { spec: { replicas: 3 } },
      headers: { 'content-type': 'application/merge-patch+json', 'user-agent': 'kubectl/v1.30.0' },
    });
    expect(s.status).toBe(200);
    const got = await call(server, 'GET', `${WIDGETS}/w4`);
    expect(got.body.spec.replicas).toBe(3);
    expect(entry(got.body, 'owner').fieldsV1).toEqual({ 'f:spec': { 'f:size': {} } });
    expect(entry(got.body, 'kubectl')).toEqual({
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'example.com/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
  });
});

describe("the server's own writes", () => {
  it("the CRD's status is kube-apiserver's (Update, subresource status)", async () => {
    const crd = await call(
      server,
      'GET',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com',
    );
    const e = entry(crd.body, 'kube-apiserver');
    expect(e).toMatchObject({
      operation: 'Update',
      apiVersion: 'apiextensions.k8s.io/v1',
      subresource: 'status',
    });
    expect(Object.keys(e.fieldsV1)).toEqual(['f:status']);
    expect(Object.keys(e.fieldsV1['f:status'])).toEqual(
      expect.arrayContaining(['f:acceptedNames', 'f:conditions']),
    );
  });

  it('the bootstrap namespaces are kube-apiserver creates', async () => {
    const ns = await call(server, 'GET', '/api/v1/namespaces/default');
    expect(ns.body.metadata.managedFields).toEqual([
      {
        manager: 'kube-apiserver',
        operation: 'Update',
        apiVersion: 'v1',
        time: expect.any(String),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } },
      },
    ]);
  });
});
