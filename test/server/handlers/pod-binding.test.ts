/**
 * pods/binding, as kube-apiserver's BindingREST serves it (pkg/registry/core/pod/storage/storage.go):
 * a Binding assigns the pod to its node, merges its annotations, sets PodScheduled, writes past
 * the field manager (no managedFields entry), and refuses a second binding, a mismatched name, a
 * missing target and a wrong uid as upstream does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
  await ensureNamespace(s, 'bind');
});
afterAll(async () => {
  await s.close();
});

const pods = '/api/v1/namespaces/bind/pods';
const binding = (name: string, node: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name, ...extra },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

async function created(name: string) {
  const r = await call(s, 'POST', `${pods}?fieldManager=maker`, { body: pod(name) });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('pods/binding', () => {
  it('assigns the pod, merges annotations, sets PodScheduled, and records no field manager', async () => {
    const p = await created('a');
    const r = await call(s, 'POST', `${pods}/a/binding`, {
      body: binding('a', 'node-1', { uid: p.metadata.uid, annotations: { 'example.com/by': 'scheduler' } }),
      headers: { 'user-agent': 'kube-scheduler/v1.33.1 (linux/amd64) kubernetes/abc' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const bound = (await call(s, 'GET', `${pods}/a`)).body;
    expect(bound.spec.nodeName).toBe('node-1');
    expect(bound.metadata.annotations).toMatchObject({ 'example.com/by': 'scheduler' });
    const scheduled = bound.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    expect(scheduled).toMatchObject({ type: 'PodScheduled', status: 'True', lastProbeTime: null });
    expect(bound.metadata.managedFields).toEqual(p.metadata.managedFields);
    expect(bound.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual(['maker']);
  });

  it('refuses a second binding as a Conflict on pods/binding', async () => {
    await created('b');
    expect((await call(s, 'POST', `${pods}/b/binding`, { body: binding('b', 'node-1') })).status).toBe(201);
    const again = await call(s, 'POST', `${pods}/b/binding`, { body: binding('b', 'node-2') });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on pods/binding "b": pod b is already assigned to node "node-1"',
      details: { name: 'b', kind: 'pods/binding' },
    });
  });

  it('refuses a mismatched name, a missing target and a stale uid, changing nothing', async () => {
    const p = await created('c');
    const wrongName = await call(s, 'POST', `${pods}/c/binding`, { body: binding('other', 'node-1') });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.message).toBe('name in URL does not match name in Binding object');
    const noTarget = await call(s, 'POST', `${pods}/c/binding`, {
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'c' }, target: {} },
    });
    expect(noTarget.status).toBe(500);
    expect(noTarget.body.message).toBe('target.name: Required value');
    const staleUid = await call(s, 'POST', `${pods}/c/binding`, {
      body: binding('c', 'node-1', { uid: 'not-the-uid' }),
    });
    expect(staleUid.status).toBe(409);
    expect(staleUid.body.message).toBe(
      `Operation cannot be fulfilled on pods "c": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${p.metadata.uid}`,
    );
    const dry = await call(s, 'POST', `${pods}/c/binding?dryRun=All`, { body: binding('c', 'node-1') });
    expect(dry.status).toBe(201);
    const after = (await call(s, 'GET', `${pods}/c`)).body;
    expect(after.spec.nodeName).toBeUndefined();
    expect(after.metadata.resourceVersion).toBe(p.metadata.resourceVersion);
  });

  it('serves create only, and only for pods; a missing pod is a 404', async () => {
    await created('d');
    expect((await call(s, 'GET', `${pods}/d/binding`)).status).toBe(405);
    expect((await call(s, 'PUT', `${pods}/d/binding`, { body: binding('d', 'n') })).status).toBe(405);
    expect((await call(s, 'POST', '/api/v1/namespaces/bind/configmaps/x/binding', { body: {} })).status).toBe(
      404,
    );
    expect((await call(s, 'POST', `${pods}/missing/binding`, { body: binding('missing', 'n') })).status).toBe(
      404,
    );
  });
});
