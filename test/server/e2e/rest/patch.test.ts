/**
 * REST over real HTTP, patches: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { call, pod, startTestServer } from '../../../helpers/server.js';
import { deployment, deploys, expectStatus, JSON_PATCH, MERGE, pods, restHelpers, SMP } from './fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});
const { freshNamespace, created } = restHelpers(() => s);

describe('patch', () => {
  it('applies merge, JSON and strategic merge patches', async () => {
    const ns = await freshNamespace();
    await created(deploys(ns), deployment('web'));
    const path = `${deploys(ns)}/web`;
    const merged = await call(s, 'PATCH', path, {
      body: { metadata: { labels: { a: '1' } }, spec: { replicas: 3 } },
      headers: MERGE,
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.metadata.labels).toEqual({ a: '1' });
    const jp = await call(s, 'PATCH', path, {
      body: [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/replicas', value: 6 },
      ],
      headers: JSON_PATCH,
    });
    expect(jp.status, jp.text).toBe(200);
    expect(jp.body.spec.replicas).toBe(6);
    const failedTest = await call(s, 'PATCH', path, {
      body: [{ op: 'test', path: '/spec/replicas', value: 99 }],
      headers: JSON_PATCH,
    });
    expect(failedTest.status).toBeGreaterThanOrEqual(400);
    expect(failedTest.status).toBeLessThan(500);
    // Strategic merge patch merges containers by name: the sidecar stays.
    const smp = await call(s, 'PATCH', path, {
      body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } },
      headers: SMP,
    });
    expect(smp.status, smp.text).toBe(200);
    const containers = smp.body.spec.template.spec.containers;
    expect(containers.map((c: { name: string; image: string }) => [c.name, c.image])).toEqual([
      ['web', 'nginx:1.28'],
      ['sidecar', 'busybox:1.36'],
    ]);
    expect(smp.body.metadata.generation).toBe(4);
    // A merge patch replaces lists whole.
    const mp = await call(s, 'PATCH', path, {
      body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.29' }] } } } },
      headers: MERGE,
    });
    expect(mp.body.spec.template.spec.containers).toHaveLength(1);
  });

  it('a patch carrying a stale resourceVersion is a 409; a patch of an absent object is a 404', async () => {
    const ns = await freshNamespace();
    const p = await created(pods(ns), pod('a'));
    await call(s, 'PATCH', `${pods(ns)}/a`, { body: { metadata: { labels: { x: '1' } } }, headers: MERGE });
    const r = await call(s, 'PATCH', `${pods(ns)}/a`, {
      body: { metadata: { resourceVersion: p.metadata.resourceVersion, labels: { x: '2' } } },
      headers: MERGE,
    });
    expectStatus(r, 409, 'Conflict');
    expectStatus(await call(s, 'PATCH', `${pods(ns)}/nope`, { body: {}, headers: MERGE }), 404, 'NotFound');
  });

  it('answers 415 for an unsupported patch content type', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    const r = await call(s, 'PATCH', `${pods(ns)}/a`, {
      body: { metadata: { labels: { a: 'b' } } },
      headers: { 'content-type': 'application/xml' },
    });
    expectStatus(r, 415, 'UnsupportedMediaType');
    expectStatus(
      await call(s, 'PATCH', `${pods(ns)}/a`, { body: '{"metadata":', headers: MERGE }),
      400,
      'BadRequest',
    );
  });

  it('server-side apply creates (201) then updates (200), and requires a fieldManager', async () => {
    const ns = await freshNamespace();
    const path = `${deploys(ns)}/applied`;
    const headers = { 'content-type': 'application/apply-patch+yaml' };
    const first = await call(s, 'PATCH', `${path}?fieldManager=test`, {
      body: deployment('applied'),
      headers,
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body.metadata.generation).toBe(1);
    const second = await call(s, 'PATCH', `${path}?fieldManager=test`, {
      body: deployment('applied', { replicas: 5 }),
      headers,
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.spec.replicas).toBe(5);
    expect(second.body.metadata.uid).toBe(first.body.metadata.uid);
    const yaml =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: applied\n  labels:\n    via: yaml\n';
    // Another manager's configuration merges in; the spec stays, owned by `test`.
    const third = await call(s, 'PATCH', `${path}?fieldManager=labeler`, { body: yaml, headers });
    expect(third.status, third.text).toBe(200);
    expect(third.body.metadata.labels).toEqual({ via: 'yaml' });
    expect(third.body.spec.replicas).toBe(5);
    // The same configuration from `test` would drop the spec fields `test` alone applied: the
    // selector and the containers go, and the object is invalid (as kube-apiserver answers).
    const dropped = await call(s, 'PATCH', `${path}?fieldManager=test`, { body: yaml, headers });
    expectStatus(dropped, 422, 'Invalid');
    // patch.go: ValidatePatchOptions requires a fieldManager for apply (a 422 of PatchOptions).
    expectStatus(await call(s, 'PATCH', path, { body: deployment('applied'), headers }), 422, 'Invalid');
    expectStatus(
      await call(s, 'PATCH', `${path}?fieldManager=test`, { body: deployment('other'), headers }),
      400,
    );
  });
});
