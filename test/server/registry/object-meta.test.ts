/**
 * ObjectMeta rules every kind shares: empty lists and maps are not stored
 * (omitempty), the uid cannot change, and a DELETE's propagation policy
 * replaces the garbage collector finalizer an earlier DELETE set (the generic
 * store's deletionFinalizersForGarbageCollection).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const MERGE = { 'content-type': 'application/merge-patch+json' };
let n = 0;
const fresh = () => `meta-${++n}`;

async function create(name: string, metadata: object = {}): Promise<any> {
  const got = await call(s, 'POST', CM, { body: { metadata: { name, ...metadata }, data: { a: '1' } } });
  expect(got.status, got.text).toBe(201);
  return got.body;
}

describe('empty metadata lists and maps (omitempty)', () => {
  it('are dropped on create, and owned by no manager', async () => {
    const name = fresh();
    const got = await create(name, { labels: {}, annotations: {}, ownerReferences: [], finalizers: [] });
    for (const f of ['labels', 'annotations', 'ownerReferences', 'finalizers'])
      expect(got.metadata, f).not.toHaveProperty(f);
    expect(JSON.stringify(got.metadata.managedFields)).not.toContain('f:metadata');
    const read = await call(s, 'GET', `${CM}/${name}`);
    expect(read.body.metadata).not.toHaveProperty('ownerReferences');
  });

  it('are dropped when an update empties them', async () => {
    const name = fresh();
    await create(name, {
      labels: { a: 'b' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u-1' }],
    });
    const got = await call(s, 'PATCH', `${CM}/${name}`, {
      headers: MERGE,
      body: { metadata: { labels: null, ownerReferences: [] } },
    });
    expect(got.status, got.text).toBe(200);
    expect(got.body.metadata).not.toHaveProperty('labels');
    expect(got.body.metadata).not.toHaveProperty('ownerReferences');
  });
});

describe('metadata.uid', () => {
  it("refuses an update or patch that changes it, with ValidateObjectMetaUpdate's message", async () => {
    const name = fresh();
    const created = await create(name);
    const patch = await call(s, 'PATCH', `${CM}/${name}`, {
      headers: MERGE,
      body: { metadata: { uid: 'other' } },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.message).toBe(
      `ConfigMap "${name}" is invalid: metadata.uid: Invalid value: "other": field is immutable`,
    );
    const put = await call(s, 'PUT', `${CM}/${name}`, {
      body: { ...created, metadata: { ...created.metadata, uid: 'other' } },
    });
    expect(put.status).toBe(422);
    const read = await call(s, 'GET', `${CM}/${name}`);
    expect(read.body.metadata.uid).toBe(created.metadata.uid);
    expect(read.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('keeps the old uid when an update sends none', async () => {
    const name = fresh();
    const created = await create(name);
    const { uid: _, ...meta } = created.metadata;
    const put = await call(s, 'PUT', `${CM}/${name}`, {
      body: { ...created, metadata: meta, data: { a: '2' } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.metadata.uid).toBe(created.metadata.uid);
  });
});

describe('a second DELETE with another propagation policy', () => {
  async function markForeground(name: string): Promise<void> {
    // A finalizer of the test's own keeps the object, so each step can be read.
    await create(name, { finalizers: ['example.com/hold'] });
    const del = await call(s, 'DELETE', `${CM}/${name}`, { body: { propagationPolicy: 'Foreground' } });
    expect(del.status, del.text).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['example.com/hold', 'foregroundDeletion']);
  }

  it('Orphan replaces foregroundDeletion with orphan', async () => {
    const name = fresh();
    await markForeground(name);
    const del = await call(s, 'DELETE', `${CM}/${name}`, { body: { propagationPolicy: 'Orphan' } });
    expect(del.status, del.text).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['example.com/hold', 'orphan']);
  });

  it('Background takes both off; no policy keeps what the object holds', async () => {
    const name = fresh();
    await markForeground(name);
    const again = await call(s, 'DELETE', `${CM}/${name}`);
    expect(again.body.metadata.finalizers).toEqual(['example.com/hold', 'foregroundDeletion']);
    const bg = await call(s, 'DELETE', `${CM}/${name}`, { body: { propagationPolicy: 'Background' } });
    expect(bg.status, bg.text).toBe(200);
    expect(bg.body.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('orphanDependents: false is an explicit choice, as Background', async () => {
    const name = fresh();
    await markForeground(name);
    const del = await call(s, 'DELETE', `${CM}/${name}`, { body: { orphanDependents: false } });
    expect(del.body.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('the object goes once the last finalizer is taken off', async () => {
    const name = fresh();
    await create(name);
    const del = await call(s, 'DELETE', `${CM}/${name}`, { body: { propagationPolicy: 'Foreground' } });
    expect(del.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    const bg = await call(s, 'DELETE', `${CM}/${name}`, { body: { propagationPolicy: 'Background' } });
    expect(bg.status, bg.text).toBe(200);
    expect((await call(s, 'GET', `${CM}/${name}`)).status).toBe(404);
  });
});
