/**
 * A Pod's metadata.generation (PodObservedGenerationTracking, KEP-5067; pkg/registry/core/pod/strategy.go):
 * 1 at create, +1 on a spec change and never otherwise (labels, pods/status, pods/binding), kept
 * observed generations on a status write that leaves them out; and the generation bump of an
 * object's first deletion mark (rest.BeforeDelete for a pod's graceful delete, store.go
 * `markAsDeleting` for an object held by finalizers), for the objects that have a generation only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer, watch } from '../../../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
  await ensureNamespace(s, 'gen');
});
afterAll(async () => {
  await s.close();
});

const PODS = '/api/v1/namespaces/gen/pods';
const MERGE = { 'content-type': 'application/merge-patch+json' };

async function created(path: string, body: unknown) {
  const r = await call(s, 'POST', path, { body });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('a pod’s generation', () => {
  it('starts at 1, also in a dry run, whatever the client sent', async () => {
    const sent = { ...pod('dry'), metadata: { name: 'dry', generation: 7 } };
    const dry = await call(s, 'POST', `${PODS}?dryRun=All`, { body: sent });
    expect(dry.status, dry.text).toBe(201);
    expect(dry.body.metadata.generation).toBe(1);
    expect((await created(PODS, sent)).metadata.generation).toBe(1);
  });

  it('moves on a spec change only, never on labels, status or binding', async () => {
    await created(PODS, pod('p'));
    const path = `${PODS}/p`;
    const labelled = await call(s, 'PATCH', path, {
      body: { metadata: { labels: { a: 'b' } } },
      headers: MERGE,
    });
    expect(labelled.body.metadata.generation).toBe(1);
    const status = await call(s, 'PATCH', `${path}/status`, {
      body: { status: { message: 'hi' } },
      headers: MERGE,
    });
    expect(status.status, status.text).toBe(200);
    expect(status.body.metadata.generation).toBe(1);
    const bound = await call(s, 'POST', `${path}/binding`, {
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'p' },
        target: { kind: 'Node', name: 'n1' },
      },
    });
    expect(bound.status, bound.text).toBe(201);
    expect((await call(s, 'GET', path)).body.metadata.generation).toBe(1);
    const image = await call(s, 'PATCH', path, {
      body: { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    expect(image.status, image.text).toBe(200);
    expect(image.body.metadata.generation).toBe(2);
    // The client's generation is not taken (rest.BeforeUpdate keeps the stored one).
    const put = await call(s, 'PUT', path, {
      body: { ...image.body, metadata: { ...image.body.metadata, generation: 40 } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.metadata.generation).toBe(2);
  });

  it('keeps the observed generations a status write leaves out', async () => {
    await created(PODS, pod('obs'));
    const path = `${PODS}/obs/status`;
    const first = await call(s, 'PATCH', path, {
      body: {
        status: {
          observedGeneration: 1,
          conditions: [
            { type: 'Ready', status: 'False', observedGeneration: 1 },
            { type: 'example.com/Gate', status: 'True', observedGeneration: 1 },
          ],
        },
      },
      headers: MERGE,
    });
    expect(first.status, first.text).toBe(200);
    const replaced = structuredClone(first.body);
    delete replaced.status.observedGeneration;
    replaced.status.conditions = [
      { type: 'Ready', status: 'True' },
      { type: 'example.com/Gate', status: 'True', observedGeneration: 0 },
      { type: 'example.com/New', status: 'True' },
    ];
    const put = await call(s, 'PUT', path, { body: replaced });
    expect(put.status, put.text).toBe(200);
    expect(put.body.status.observedGeneration).toBe(1);
    expect(put.body.status.conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'True', observedGeneration: 1 }),
      expect.objectContaining({ type: 'example.com/Gate', observedGeneration: 1 }),
      expect.not.objectContaining({ observedGeneration: expect.anything() }),
    ]);
  });
});

describe('the generation of a deletion mark', () => {
  it('moves once when a pod is deleted gracefully, as its watchers see', async () => {
    await created(PODS, pod('gone'));
    const w = await watch(s, `${PODS}?watch=true&fieldSelector=metadata.name=gone`);
    try {
      await w.until((e) => e.type === 'ADDED');
      const dry = await call(s, 'DELETE', `${PODS}/gone?dryRun=All`);
      expect(dry.body.metadata.generation).toBe(2);
      const r = await call(s, 'DELETE', `${PODS}/gone`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.metadata).toMatchObject({ generation: 2, deletionGracePeriodSeconds: 0 });
      const marked = await w.until((e) => e.type === 'MODIFIED');
      expect(marked.object.metadata?.generation).toBe(2);
      const deleted = await w.until((e) => e.type === 'DELETED');
      expect(deleted.object.metadata?.generation).toBe(2);
    } finally {
      w.close();
    }
  });

  it('moves on the first mark of an object held by finalizers, not on later deletes', async () => {
    await created(PODS, { ...pod('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const path = `${PODS}/held`;
    const first = await call(s, 'DELETE', path);
    expect(first.body.metadata.generation).toBe(2);
    const again = await call(s, 'DELETE', `${path}?propagationPolicy=Orphan`);
    expect(again.status, again.text).toBe(200);
    expect(again.body.metadata.finalizers).toContain('orphan');
    expect(again.body.metadata.generation).toBe(2);
    // The update that removes the last finalizer answers the object at the version it replaced.
    const freed = await call(s, 'PATCH', path, { body: { metadata: { finalizers: null } }, headers: MERGE });
    expect(freed.status, freed.text).toBe(200);
    expect(freed.body.metadata.resourceVersion).toBe(again.body.metadata.resourceVersion);
    expect((await call(s, 'GET', path)).status).toBe(404);
  });

  it('leaves an object without a generation without one', async () => {
    const cms = '/api/v1/namespaces/gen/configmaps';
    await created(cms, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    });
    const r = await call(s, 'DELETE', `${cms}/held`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata.deletionTimestamp).toBeDefined();
    expect(r.body.metadata.generation).toBeUndefined();
  });

  it('moves for any kind with a generation (a Deployment deleted in the foreground)', async () => {
    const deploys = '/apis/apps/v1/namespaces/gen/deployments';
    await created(deploys, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    const r = await call(s, 'DELETE', `${deploys}/web?propagationPolicy=Foreground`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata).toMatchObject({ generation: 2, finalizers: ['foregroundDeletion'] });
  });
});
