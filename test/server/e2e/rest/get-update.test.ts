/**
 * REST over real HTTP, reads and updates: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { call, pod, startTestServer } from '../../../helpers/server.js';
import { deployment, deploys, expectStatus, MERGE, pods, restHelpers } from './fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});
const { freshNamespace, created } = restHelpers(() => s);

describe('get and update', () => {
  it('answers 404 worded as kube-apiserver words it', async () => {
    const ns = await freshNamespace();
    const r = await call(s, 'GET', `${deploys(ns)}/x`);
    expectStatus(r, 404, 'NotFound');
    expect(r.body.message).toBe('deployments.apps "x" not found');
    expect(r.body.details).toEqual({ name: 'x', group: 'apps', kind: 'deployments' });
    const p = await call(s, 'GET', `${pods(ns)}/y`);
    expect(p.body.message).toBe('pods "y" not found');
  });

  it('GET with a resourceVersion: unset, "0" and N read the newest; a future N is a 504; a bad one a 400', async () => {
    const ns = await freshNamespace();
    const d = await created(deploys(ns), deployment('web'));
    const rv = d.metadata.resourceVersion;
    const patched = await call(s, 'PATCH', `${deploys(ns)}/web`, {
      headers: MERGE,
      body: { metadata: { labels: { v: '2' } } },
    });
    expect(patched.status, patched.text).toBe(200);
    for (const q of ['', '?resourceVersion=0', `?resourceVersion=${rv}`]) {
      const r = await call(s, 'GET', `${deploys(ns)}/web${q}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.metadata.resourceVersion).toBe(patched.body.metadata.resourceVersion);
    }
    const scale = await call(s, 'GET', `${deploys(ns)}/web/scale?resourceVersion=0`);
    expect(scale.status, scale.text).toBe(200);
    const future = await call(s, 'GET', `${deploys(ns)}/web?resourceVersion=99999999`);
    expectStatus(future, 504, 'Timeout');
    expect(future.body.details.causes).toEqual([
      { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
    ]);
    // The storage versioner's parse error reaches the client bare: a 500 without a reason, as from kube-apiserver.
    const bad = await call(s, 'GET', `${deploys(ns)}/web?resourceVersion=abc`);
    expect(bad.status).toBe(500);
    expect(bad.body.reason).toBeUndefined();
    expect(bad.body.message).toBe(
      'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
  });

  it('PUT with a stale resourceVersion is a 409 Conflict; without one it succeeds', async () => {
    const ns = await freshNamespace();
    const d = await created(deploys(ns), deployment('web'));
    const fresh = structuredClone(d);
    fresh.spec.replicas = 3;
    const ok = await call(s, 'PUT', `${deploys(ns)}/web`, { body: fresh });
    expect(ok.status, ok.text).toBe(200);
    const stale = structuredClone(d);
    stale.spec.replicas = 4;
    const r = await call(s, 'PUT', `${deploys(ns)}/web`, { body: stale });
    expectStatus(r, 409, 'Conflict');
    expect(r.body.message).toBe(
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    );
    delete stale.metadata.resourceVersion;
    const unconditional = await call(s, 'PUT', `${deploys(ns)}/web`, { body: stale });
    expect(unconditional.status, unconditional.text).toBe(200);
    expect(unconditional.body.spec.replicas).toBe(4);
  });

  it('PUT cannot rename, and answers 404 for an absent object', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    expectStatus(await call(s, 'PUT', `${pods(ns)}/a`, { body: pod('b') }), 400, 'BadRequest');
    expectStatus(await call(s, 'PUT', `${pods(ns)}/zz`, { body: pod('zz') }), 404, 'NotFound');
  });

  it('generation moves on spec changes only; a no-op update keeps the resourceVersion', async () => {
    const ns = await freshNamespace();
    const d = await created(deploys(ns), deployment('web'));
    const path = `${deploys(ns)}/web`;
    const labelled = await call(s, 'PATCH', path, {
      body: { metadata: { labels: { tier: 'x' } } },
      headers: MERGE,
    });
    expect(labelled.body.metadata.generation).toBe(1);
    expect(labelled.body.metadata.resourceVersion).not.toBe(d.metadata.resourceVersion);
    const status = await call(s, 'PATCH', `${path}/status`, {
      body: { status: { observedGeneration: 1, replicas: 2 } },
      headers: MERGE,
    });
    expect(status.status, status.text).toBe(200);
    expect(status.body.metadata.generation).toBe(1);
    const scaled = await call(s, 'PATCH', path, { body: { spec: { replicas: 5 } }, headers: MERGE });
    expect(scaled.body.metadata.generation).toBe(2);
    const same = await call(s, 'PUT', path, { body: scaled.body });
    expect(same.status).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(scaled.body.metadata.resourceVersion);
    expect(same.body.metadata.generation).toBe(2);
    const noopPatch = await call(s, 'PATCH', path, { body: { spec: { replicas: 5 } }, headers: MERGE });
    expect(noopPatch.body.metadata.resourceVersion).toBe(scaled.body.metadata.resourceVersion);
  });

  it('/status changes only status; the main resource cannot change status', async () => {
    const ns = await freshNamespace();
    const d = await created(deploys(ns), deployment('web'));
    const path = `${deploys(ns)}/web`;
    const viaStatus = structuredClone(d);
    viaStatus.spec.replicas = 9;
    viaStatus.metadata.labels = { sneaky: 'yes' };
    viaStatus.status = { replicas: 2, observedGeneration: 1 };
    const r = await call(s, 'PUT', `${path}/status`, { body: viaStatus });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toMatchObject({ replicas: 2, observedGeneration: 1 });
    expect(r.body.spec.replicas).toBe(2);
    expect(r.body.metadata.labels).toBeUndefined();
    const viaMain = structuredClone(r.body);
    viaMain.status = { replicas: 7 };
    viaMain.spec.replicas = 3;
    const m = await call(s, 'PUT', path, { body: viaMain });
    expect(m.status, m.text).toBe(200);
    expect(m.body.spec.replicas).toBe(3);
    expect(m.body.status).toMatchObject({ replicas: 2, observedGeneration: 1 });
    const got = await call(s, 'GET', `${path}/status`);
    expect(got.body.kind).toBe('Deployment');
  });

  it('/scale reads an autoscaling/v1 Scale and sets replicas by PUT and PATCH', async () => {
    const ns = await freshNamespace();
    await created(deploys(ns), deployment('web'));
    const path = `${deploys(ns)}/web/scale`;
    const scale = await call(s, 'GET', path);
    expect(scale.status, scale.text).toBe(200);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: ns },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=web' },
    });
    const put = await call(s, 'PUT', path, { body: { ...scale.body, spec: { replicas: 4 } } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec.replicas).toBe(4);
    const patched = await call(s, 'PATCH', path, { body: { spec: { replicas: 1 } }, headers: MERGE });
    expect(patched.body.spec.replicas).toBe(1);
    const d = await call(s, 'GET', `${deploys(ns)}/web`);
    expect(d.body.spec.replicas).toBe(1);
    expect(d.body.metadata.generation).toBe(3);
    const stale = await call(s, 'PUT', path, { body: scale.body });
    expectStatus(stale, 409, 'Conflict');
    expectStatus(await call(s, 'PATCH', path, { body: { spec: { replicas: -1 } }, headers: MERGE }), 422);
    expectStatus(await call(s, 'GET', `${pods(ns)}/web/scale`), 404);
  });
});
