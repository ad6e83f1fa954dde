/**
 * metadata.managedFields on every write and server-side apply over HTTP, as kube-apiserver's
 * handlers record them (k8s.io/apiserver pkg/endpoints/handlers create.go, update.go, patch.go):
 * each case states the rule it checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer, watch } from '../../helpers/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const MERGE = { 'content-type': 'application/merge-patch+json' };

function cm(name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data };
}

function apply(path: string, manager: string, body: unknown, query = '') {
  return call(server, 'PATCH', `${path}?fieldManager=${manager}${query}`, { body, headers: APPLY });
}

/** The managers of an object with their operation and fields, without times. */
function owners(obj: any): { manager: string; operation: string; subresource?: string; fieldsV1: unknown }[] {
  return (obj.metadata.managedFields ?? []).map((e: any) => ({
    manager: e.manager,
    operation: e.operation,
    ...(e.subresource ? { subresource: e.subresource } : {}),
    fieldsV1: e.fieldsV1,
  }));
}

describe('managedFields on create, update and patch (operation Update)', () => {
  it('names the fieldManager, else the User-Agent before its first slash', async () => {
    const a = await call(server, 'POST', `${CM}?fieldManager=creator`, { body: cm('mf-a', { x: '1' }) });
    expect(a.status).toBe(201);
    const [entry] = a.body.metadata.managedFields;
    expect(Object.keys(entry)).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
    expect(entry).toMatchObject({
      manager: 'creator',
      operation: 'Update',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
    });
    expect(entry.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:x': {} } });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const b = await call(server, 'POST', CM, {
      body: cm('mf-b', { x: '1' }),
      headers: { 'user-agent': 'my-tool/v1.2.3 (linux/amd64)' },
    });
    expect(b.body.metadata.managedFields[0].manager).toBe('my-tool');
  });

  it('an update owns the fields it changed, taking them from their owner', async () => {
    await call(server, 'POST', `${CM}?fieldManager=creator`, { body: cm('mf-up', { x: '1', y: '2' }) });
    const got = await call(server, 'GET', `${CM}/mf-up`);
    const body = { ...got.body, data: { x: '1', y: '3', z: '4' } };
    const put = await call(server, 'PUT', `${CM}/mf-up?fieldManager=editor`, { body });
    expect(put.status).toBe(200);
    expect(owners(put.body)).toEqual([
      { manager: 'creator', operation: 'Update', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } },
      { manager: 'editor', operation: 'Update', fieldsV1: { 'f:data': { 'f:y': {}, 'f:z': {} } } },
    ]);
    const patched = await call(server, 'PATCH', `${CM}/mf-up?fieldManager=patcher`, {
      body: { data: { x: '9' } },
      headers: MERGE,
    });
    expect(owners(patched.body).map((o) => [o.manager, o.fieldsV1])).toEqual([
      // A member without children is written `{}` (smd's FieldsV1 encoding).
      ['creator', { 'f:data': {} }],
      ['editor', { 'f:data': { 'f:y': {}, 'f:z': {} } }],
      ['patcher', { 'f:data': { 'f:x': {} } }],
    ]);
  });

  it('an update that changes nothing writes nothing and moves no time', async () => {
    const c = await call(server, 'POST', `${CM}?fieldManager=creator`, { body: cm('mf-same', { x: '1' }) });
    const again = await call(server, 'PUT', `${CM}/mf-same?fieldManager=other`, { body: c.body });
    expect(again.body.metadata.resourceVersion).toBe(c.body.metadata.resourceVersion);
    expect(again.body.metadata.managedFields).toEqual(c.body.metadata.managedFields);
  });

  it('managedFields: [{}] resets them; a client may also write them as it read them', async () => {
    await call(server, 'POST', `${CM}?fieldManager=creator`, { body: cm('mf-reset', { x: '1' }) });
    const reset = await call(server, 'PATCH', `${CM}/mf-reset`, {
      body: { metadata: { managedFields: [{}] } },
      headers: MERGE,
    });
    expect(reset.status).toBe(200);
    expect(reset.body.metadata.managedFields).toBeUndefined();
    // An untracked object stays untracked on update (skipnonapplied.go).
    const after = await call(server, 'PATCH', `${CM}/mf-reset?fieldManager=p`, {
      body: { data: { y: '2' } },
      headers: MERGE,
    });
    expect(after.body.metadata.managedFields).toBeUndefined();
    // ...until someone applies: the existing fields go to before-first-apply.
    const applied = await apply(`${CM}/mf-reset`, 'a', cm('mf-reset', { z: '3' }));
    expect(owners(applied.body).map((o) => o.manager)).toEqual(['a', 'before-first-apply']);
  });

  it('fieldManager: at most 128 bytes, printable (ValidateFieldManager)', async () => {
    const long = await call(server, 'POST', `${CM}?fieldManager=${'m'.repeat(129)}`, {
      body: cm('mf-long', {}),
    });
    expect(long.status).toBe(422);
    expect(long.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes',
    );
    const bad = await call(server, 'PUT', `${CM}/mf-long?fieldManager=a%01b`, { body: cm('mf-long', {}) });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\x01b": invalid character U+0001 (at position 1)',
    );
    expect(bad.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "a\\x01b": invalid character U+0001 (at position 1)',
        field: 'fieldManager',
      },
    ]);
  });

  it('force is for apply alone', async () => {
    await call(server, 'POST', CM, { body: cm('mf-force', { x: '1' }) });
    const r = await call(server, 'PATCH', `${CM}/mf-force?force=true`, {
      body: { data: {} },
      headers: MERGE,
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  });
});

describe('apply (operation Apply)', () => {
  it('creates, updates, and applying the same configuration again is a no-op', async () => {
    const w = await watch(server, `${CM}?watch=1&fieldSelector=metadata.name=ssa-noop`);
    try {
      const created = await apply(`${CM}/ssa-noop`, 'a', cm('ssa-noop', { x: '1' }));
      expect(created.status).toBe(201);
      expect(owners(created.body)).toEqual([
        { manager: 'a', operation: 'Apply', fieldsV1: { 'f:data': { 'f:x': {} } } },
      ]);
      expect('apiVersion' in created.body.metadata.managedFields[0]).toBe(true);
      const again = await apply(`${CM}/ssa-noop`, 'a', cm('ssa-noop', { x: '1' }));
      expect(again.status).toBe(200);
      expect(again.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
      const changed = await apply(`${CM}/ssa-noop`, 'a', cm('ssa-noop', { x: '2' }));
      expect(changed.body.metadata.resourceVersion).not.toBe(created.body.metadata.resourceVersion);
      await w.until((e) => e.type === 'MODIFIED');
      expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    } finally {
      w.close();
    }
  });

  it('removes the fields a manager stops applying, unless another manager owns them', async () => {
    await apply(`${CM}/ssa-rm`, 'a', cm('ssa-rm', { x: '1', y: '2', z: '3' }));
    await apply(`${CM}/ssa-rm`, 'b', cm('ssa-rm', { z: '3' }));
    const r = await apply(`${CM}/ssa-rm`, 'a', cm('ssa-rm', { x: '1' }));
    expect(r.body.data).toEqual({ x: '1', z: '3' });
    // Entries are ordered by time, then manager: sorted here.
    expect(owners(r.body).sort((p, q) => p.manager.localeCompare(q.manager))).toEqual([
      { manager: 'a', operation: 'Apply', fieldsV1: { 'f:data': { 'f:x': {} } } },
      { manager: 'b', operation: 'Apply', fieldsV1: { 'f:data': { 'f:z': {} } } },
    ]);
    // An empty configuration leaves only what others own.
    const empty = await apply(`${CM}/ssa-rm`, 'a', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa-rm' },
    });
    expect(empty.body.data).toEqual({ z: '3' });
    expect(owners(empty.body).map((o) => o.manager)).toEqual(['b']);
  });

  it('answers a conflict as kube-apiserver, and force=true takes the field', async () => {
    await apply(`${CM}/ssa-c`, 'a', cm('ssa-c', { x: '1', y: '1' }));
    const r = await apply(`${CM}/ssa-c`, 'b', cm('ssa-c', { x: '2', y: '2' }));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 2 conflicts: conflicts with "a":\n- .data.x\n- .data.y',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.x' },
          { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.y' },
        ],
      },
      code: 409,
    });
    // The same value is shared ownership, not a conflict.
    const shared = await apply(`${CM}/ssa-c`, 'b', cm('ssa-c', { x: '1' }));
    expect(shared.status).toBe(200);
    const forced = await apply(`${CM}/ssa-c`, 'b', cm('ssa-c', { x: '1', y: '2' }), '&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.data).toEqual({ x: '1', y: '2' });
    expect(owners(forced.body).map((o) => [o.manager, o.fieldsV1])).toEqual([
      ['a', { 'f:data': { 'f:x': {} } }],
      ['b', { 'f:data': { 'f:x': {}, 'f:y': {} } }],
    ]);
  });

  it('an Update never conflicts: it takes the field from the applier', async () => {
    await apply(`${CM}/ssa-u`, 'a', cm('ssa-u', { x: '1' }));
    const p = await call(server, 'PATCH', `${CM}/ssa-u?fieldManager=editor`, {
      body: { data: { x: '2' } },
      headers: MERGE,
    });
    expect(p.status).toBe(200);
    expect(owners(p.body).map((o) => [o.manager, o.operation])).toEqual([['editor', 'Update']]);
    const back = await apply(`${CM}/ssa-u`, 'a', cm('ssa-u', { x: '3' }));
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('Apply failed with 1 conflict: conflict with "editor" using v1: .data.x');
  });

  it('requires fieldManager, refuses managedFields in the configuration, and checks the kind', async () => {
    const none = await call(server, 'PATCH', `${CM}/ssa-req`, { body: cm('ssa-req', {}), headers: APPLY });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    expect(none.body.details).toEqual({
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [
        {
          reason: 'FieldValueRequired',
          message: 'Required value: is required for apply patch',
          field: 'fieldManager',
        },
      ],
    });
    const mf = await apply(`${CM}/ssa-req`, 'a', cm('ssa-req', {}, { managedFields: [{ manager: 'x' }] }));
    expect(mf.status).toBe(400);
    expect(mf.body.message).toBe('metadata.managedFields must be nil');
  });

  it('dry-run applies answer the object and store nothing', async () => {
    const dry = await apply(`${CM}/ssa-dry`, 'a', cm('ssa-dry', { x: '1' }), '&dryRun=All');
    expect(dry.status).toBe(201);
    expect(owners(dry.body)[0]?.manager).toBe('a');
    expect((await call(server, 'GET', `${CM}/ssa-dry`)).status).toBe(404);
    const real = await apply(`${CM}/ssa-dry`, 'a', cm('ssa-dry', { x: '1' }));
    const dry2 = await apply(`${CM}/ssa-dry`, 'b', cm('ssa-dry', { y: '2' }), '&dryRun=All');
    expect(dry2.body.data).toEqual({ x: '1', y: '2' });
    const got = await call(server, 'GET', `${CM}/ssa-dry`);
    expect(got.body.metadata.resourceVersion).toBe(real.body.metadata.resourceVersion);
    expect(owners(got.body).map((o) => o.manager)).toEqual(['a']);
  });
});

describe('subresources', () => {
  const deployment = (replicas: number) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'sub' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'sub' } },
      template: {
        metadata: { labels: { app: 'sub' } },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      },
    },
  });

  it('an apply through /status owns status fields only (subresource status); the main resource ignores status', async () => {
    const created = await apply(`${DEPLOY}/sub`, 'owner', { ...deployment(1), status: { replicas: 7 } });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body.metadata.managedFields)).not.toContain('f:status');
    const st = await apply(`${DEPLOY}/sub/status`, 'ctrl', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'sub' },
      spec: { replicas: 9 },
      status: { replicas: 1, observedGeneration: 1 },
    });
    expect(st.status).toBe(200);
    expect(st.body.spec.replicas).toBe(1);
    expect(st.body.status).toMatchObject({ replicas: 1, observedGeneration: 1 });
    const entry = st.body.metadata.managedFields.find((e: any) => e.manager === 'ctrl');
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'status' });
    expect(entry.fieldsV1).toEqual({ 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } });
  });

  it('a PUT to /status records an Update with subresource status', async () => {
    const got = await call(server, 'GET', `${DEPLOY}/sub`);
    const put = await call(server, 'PUT', `${DEPLOY}/sub/status`, {
      body: { ...got.body, status: { ...got.body.status, readyReplicas: 1 } },
      headers: { 'user-agent': 'kube-controller-manager/v1.30.0' },
    });
    expect(put.status).toBe(200);
    const entry = put.body.metadata.managedFields.find((e: any) => e.manager === 'kube-controller-manager');
    expect(entry).toMatchObject({ operation: 'Update', subresource: 'status', apiVersion: 'apps/v1' });
    expect(entry.fieldsV1).toEqual({ 'f:status': { 'f:readyReplicas': {} } });
  });

  it('scale moves spec.replicas to the scaler (Update, subresource scale, no time)', async () => {
    const s = await call(server, 'PATCH', `${DEPLOY}/sub/scale`, {
      body: { spec: { replicas: 4 } },
      headers: { ...MERGE, 'user-agent': 'kubectl/v1.30.0 (linux/amd64) kubernetes/7c48c2b' },
    });
    expect(s.status).toBe(200);
    const got = await call(server, 'GET', `${DEPLOY}/sub`);
    expect(got.body.metadata.managedFields).toContainEqual({
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
    const owner = got.body.metadata.managedFields.find((e: any) => e.manager === 'owner');
    expect(owner.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    // The applier now conflicts with the scaler.
    const r = await apply(`${DEPLOY}/sub`, 'owner', deployment(1));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
    );
  });
});
