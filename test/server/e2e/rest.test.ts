/**
 * REST and list semantics over real HTTP: what kube-apiserver answers for
 * creates, reads, updates, patches, deletes and lists, including the Status
 * bodies of every error. Watch rules live in watch-protocol.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import type { Store } from '../../../src/server/stores/types.js';
import { STORE_KINDS, settled, useStores } from '../../helpers/etcd.js';
import { type Answer, call, ensureNamespace, pod, startTestServer, watch } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

let nsCounter = 0;
/** A fresh namespace per test, so tests sharing the server never see each other's objects. */
async function freshNamespace(server: RunningServer = s): Promise<string> {
  const ns = `t${++nsCounter}`;
  await ensureNamespace(server, ns);
  return ns;
}

const pods = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const deploys = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };

function deployment(name: string, extra: { labels?: Record<string, string>; replicas?: number } = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: extra.labels },
    spec: {
      replicas: extra.replicas ?? 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.27' },
            { name: 'sidecar', image: 'busybox:1.36' },
          ],
        },
      },
    },
  };
}

function expectStatus(r: Answer, code: number, reason?: string): void {
  expect(r.status, r.text).toBe(code);
  expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
  if (reason) expect(r.body.reason).toBe(reason);
}

async function created(path: string, body: unknown): Promise<any> {
  const r = await call(s, 'POST', path, { body });
  expect(r.status, r.text).toBe(201);
  // Over etcd the watch cache follows a moment later: cache reads after this must see the object.
  await settled(s);
  return r.body;
}

async function stats(server: RunningServer): Promise<any> {
  return (await call(server, 'GET', '/debug/watchmark/stats')).body;
}

describe('create', () => {
  it('answers 201 with server-set metadata and generation 1 for workloads and pods', async () => {
    const ns = await freshNamespace();
    const before = Date.now();
    const d = await created(deploys(ns), deployment('web'));
    expect(d.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(d.metadata.creationTimestamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(d.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(d.metadata.generation).toBe(1);
    expect(d.metadata.namespace).toBe(ns);
    expect(d.kind).toBe('Deployment');
    expect(d.apiVersion).toBe('apps/v1');
    const p = await created(pods(ns), pod('p'));
    // Pods carry a generation since 1.34 (PodObservedGenerationTracking).
    expect(p.metadata.generation).toBe(1);
    expect(Number(p.metadata.resourceVersion)).toBeGreaterThan(Number(d.metadata.resourceVersion));
  });

  it('fills in a name from generateName', async () => {
    const ns = await freshNamespace();
    const body = pod('');
    body.metadata = { generateName: 'worker-' } as never;
    const p = await created(pods(ns), body);
    expect(p.metadata.name).toMatch(/^worker-[a-z0-9]{5}$/);
    expect(p.metadata.generateName).toBe('worker-');
    expect((await call(s, 'GET', `${pods(ns)}/${p.metadata.name}`)).status).toBe(200);
  });

  it("applies kube's defaults", async () => {
    const ns = await freshNamespace();
    const d = await created(deploys(ns), deployment('web'));
    expect(d.spec).toMatchObject({
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    const p = await created(pods(ns), pod('p'));
    expect(p.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    });
    expect(p.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
    });
  });

  it('requires the namespace to exist', async () => {
    const r = await call(s, 'POST', pods('nowhere'), { body: pod('p') });
    expectStatus(r, 404, 'NotFound');
    expect(r.body.message).toBe('namespaces "nowhere" not found');
  });

  it('answers 409 AlreadyExists for a taken name', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('p'));
    const r = await call(s, 'POST', pods(ns), { body: pod('p') });
    expectStatus(r, 409, 'AlreadyExists');
    expect(r.body.message).toBe('pods "p" already exists');
    expect(r.body.details).toMatchObject({ name: 'p', kind: 'pods' });
  });

  it('answers 422 Invalid with causes for a missing name or an invalid object', async () => {
    const ns = await freshNamespace();
    const noName = await call(s, 'POST', pods(ns), { body: pod('') });
    expectStatus(noName, 422, 'Invalid');
    expect(noName.body.message).toContain('metadata.name: Required value');
    expect(noName.body.details.causes).toContainEqual(
      expect.objectContaining({ reason: 'FieldValueRequired', field: 'metadata.name' }),
    );
    const bad = deployment('web');
    bad.spec.template.metadata.labels = { app: 'other' };
    const mismatch = await call(s, 'POST', deploys(ns), { body: bad });
    expectStatus(mismatch, 422, 'Invalid');
    expect(mismatch.body.message).toMatch(/^Deployment\.apps "web" is invalid: /);
    expect(mismatch.body.details).toMatchObject({ name: 'web', group: 'apps', kind: 'Deployment' });
    expect(mismatch.body.details.causes.map((c: { field: string }) => c.field)).toContain(
      'spec.template.metadata.labels',
    );
  });

  it('answers 400 for a body that is not JSON, or a namespace that differs from the URL', async () => {
    const ns = await freshNamespace();
    expectStatus(await call(s, 'POST', pods(ns), { body: '{"kind": "Pod", ' }), 400, 'BadRequest');
    expectStatus(await call(s, 'POST', pods(ns), { body: '[1,2]' }), 400, 'BadRequest');
    const r = await call(s, 'POST', pods(ns), { body: pod('p', { namespace: 'elsewhere' }) });
    expectStatus(r, 400, 'BadRequest');
    expect(r.body.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('dryRun=All validates and answers but writes nothing', async () => {
    const ns = await freshNamespace();
    const before = await s.store.currentRevision();
    const r = await call(s, 'POST', `${pods(ns)}?dryRun=All`, { body: pod('ghost') });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.uid).toBeTruthy();
    expect((await call(s, 'GET', `${pods(ns)}/ghost`)).status).toBe(404);
    expect(await s.store.currentRevision()).toBe(before);
    // create.go answers invalid CreateOptions with a 422 naming every bad option, the dryRun list whole.
    const some = await call(s, 'POST', `${pods(ns)}?dryRun=All&dryRun=Some&fieldManager=%01`, {
      body: pod('x'),
    });
    expectStatus(some, 422, 'Invalid');
    expect(some.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "\\x01": invalid character U+0001 (at position 0), dryRun: Unsupported value: ["All","Some"]: supported values: "All"]',
    );
    expect(some.body.details).toEqual({
      group: 'meta.k8s.io',
      kind: 'CreateOptions',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "\\x01": invalid character U+0001 (at position 0)',
          field: 'fieldManager',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: ["All","Some"]: supported values: "All"',
          field: 'dryRun',
        },
      ],
    });
  });

  it('fieldValidation=Strict refuses an unknown top-level field; the default warns and drops it', async () => {
    const ns = await freshNamespace();
    const body = { ...pod('p'), bogus: 1 };
    const r = await call(s, 'POST', `${pods(ns)}?fieldValidation=Strict`, { body });
    expectStatus(r, 400, 'BadRequest');
    expect(r.body.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "bogus"',
    );
    const warned = await call(s, 'POST', pods(ns), { body });
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toBe('299 - "unknown field \\"bogus\\""');
    expect(warned.body.bogus).toBeUndefined();
  });
});

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

describe('delete', () => {
  it('answers the deleted object', async () => {
    const ns = await freshNamespace();
    const p = await created(pods(ns), pod('a'));
    const r = await call(s, 'DELETE', `${pods(ns)}/a`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Pod', metadata: { name: 'a', uid: p.metadata.uid } });
    expect((await call(s, 'GET', `${pods(ns)}/a`)).status).toBe(404);
    expectStatus(await call(s, 'DELETE', `${pods(ns)}/a`), 404, 'NotFound');
  });

  it('with finalizers marks the object, which goes when the last finalizer is removed', async () => {
    const ns = await freshNamespace();
    const body = pod('held');
    (body.metadata as Record<string, unknown>).finalizers = ['example.com/a', 'example.com/b'];
    const p = await created(pods(ns), body);
    const w = await watch(s, `${pods(ns)}?watch=1&resourceVersion=${p.metadata.resourceVersion}`);
    try {
      const r = await call(s, 'DELETE', `${pods(ns)}/held`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
      const marked = await w.next();
      expect(marked.type).toBe('MODIFIED');
      expect(marked.object.metadata?.deletionTimestamp).toBeTruthy();
      // Still there, and a second delete changes nothing.
      const again = await call(s, 'DELETE', `${pods(ns)}/held`);
      expect(again.body.metadata.resourceVersion).toBe(r.body.metadata.resourceVersion);
      const oneLeft = await call(s, 'PATCH', `${pods(ns)}/held`, {
        body: [{ op: 'remove', path: '/metadata/finalizers/0' }],
        headers: JSON_PATCH,
      });
      expect(oneLeft.status, oneLeft.text).toBe(200);
      expect(oneLeft.body.metadata.finalizers).toEqual(['example.com/b']);
      expect((await w.next()).type).toBe('MODIFIED');
      const gone = await call(s, 'PATCH', `${pods(ns)}/held`, {
        body: { metadata: { finalizers: null } },
        headers: MERGE,
      });
      expect(gone.status, gone.text).toBe(200);
      const deleted = await w.next();
      expect(deleted.type).toBe('DELETED');
      expect(deleted.object.metadata?.name).toBe('held');
      expect((await call(s, 'GET', `${pods(ns)}/held`)).status).toBe(404);
    } finally {
      w.close();
    }
  });

  it('propagationPolicy Foreground and Orphan add their finalizers', async () => {
    const ns = await freshNamespace();
    await created(deploys(ns), deployment('fg'));
    await created(deploys(ns), deployment('orph'));
    const fg = await call(s, 'DELETE', `${deploys(ns)}/fg?propagationPolicy=Foreground`);
    expect(fg.status, fg.text).toBe(200);
    expect(fg.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(fg.body.metadata.deletionTimestamp).toBeTruthy();
    const orphan = await call(s, 'DELETE', `${deploys(ns)}/orph`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' },
    });
    expect(orphan.status, orphan.text).toBe(200);
    expect(orphan.body.metadata.finalizers).toEqual(['orphan']);
    // delete.go answers invalid DeleteOptions (`ValidateDeleteOptions`) with a 422.
    const sideways = await call(s, 'DELETE', `${deploys(ns)}/orph?propagationPolicy=Sideways&dryRun=Some`);
    expectStatus(sideways, 422, 'Invalid');
    expect(sideways.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: ["Some"]: supported values: "All"]',
    );
    // A body's options stand alone: the query's are not read (delete.go `DeleteResource`).
    const both = await call(s, 'DELETE', `${deploys(ns)}/orph?propagationPolicy=Sideways`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Orphan' },
    });
    expectStatus(both, 422, 'Invalid');
    expect(both.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
  });

  it('a body that is not DeleteOptions is a 400 before anything is deleted, dry run or not', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('kept'));
    // delete.go decodes the body with the meta scheme: another kind is not registered there (the
    // kube-apiserver 1.37 answer, probed), and a body's options stand alone, so the query's
    // dryRun would not have held the deletion back.
    const object = await call(s, 'DELETE', `${pods(ns)}/kept?dryRun=All`, { body: pod('kept') });
    expectStatus(object, 400, 'BadRequest');
    expect(object.body.message).toBe(
      'no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"',
    );
    const noVersion = await call(s, 'DELETE', pods(ns), { body: { kind: 'Pod' } });
    expect(noVersion.body.message).toBe(
      'no kind "Pod" is registered for version "meta.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"',
    );
    const options = await call(s, 'DELETE', `${pods(ns)}/kept`, {
      body: { apiVersion: 'x/y', kind: 'CreateOptions' },
    });
    expectStatus(options, 400, 'BadRequest');
    expect(options.body.message).toBe(
      'converting (v1.CreateOptions) to (v1.DeleteOptions): unknown conversion',
    );
    expect((await call(s, 'GET', `${pods(ns)}/kept`)).status).toBe(200);
  });

  it('a precondition that does not hold is a 409', async () => {
    const ns = await freshNamespace();
    const p = await created(pods(ns), pod('a'));
    const uid = await call(s, 'DELETE', `${pods(ns)}/a`, { body: { preconditions: { uid: 'not-the-uid' } } });
    // rest.BeforeDelete names the object by its kind, in the message and the details.
    expectStatus(uid, 409, 'Conflict');
    expect(uid.body.message).toBe(
      `Operation cannot be fulfilled on Pod "a": the UID in the precondition (not-the-uid) does not match the UID in record (${p.metadata.uid}). The object might have been deleted and then recreated`,
    );
    expect(uid.body.details).toEqual({ name: 'a', kind: 'Pod' });
    const rv = await call(s, 'DELETE', `${pods(ns)}/a`, {
      body: { preconditions: { resourceVersion: '1' } },
    });
    expectStatus(rv, 409, 'Conflict');
    expect(rv.body.message).toBe(
      `Operation cannot be fulfilled on Pod "a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${p.metadata.resourceVersion}). The object might have been modified`,
    );
    const ok = await call(s, 'DELETE', `${pods(ns)}/a`, {
      body: { preconditions: { uid: p.metadata.uid, resourceVersion: p.metadata.resourceVersion } },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('deletes a collection by label selector', async () => {
    const ns = await freshNamespace();
    for (const [name, app] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
    ])
      await created(pods(ns), pod(name, { labels: { app } }));
    const r = await call(s, 'DELETE', `${pods(ns)}?labelSelector=app%3Da`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.kind).toBe('PodList');
    expect(r.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['a1', 'a2']);
    const left = await call(s, 'GET', pods(ns));
    expect(left.body.items.map((i: any) => i.metadata.name)).toEqual(['b1']);
  });

  it('deleting a namespace removes its content, then the namespace; a terminating one refuses new content', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    await created(deploys(ns), deployment('web'));
    const held = pod('held');
    (held.metadata as Record<string, unknown>).finalizers = ['example.com/hold'];
    await created(pods(ns), held);
    const w = await watch(s, `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D${ns}`);
    try {
      expect((await w.next()).type).toBe('ADDED');
      const r = await call(s, 'DELETE', `/api/v1/namespaces/${ns}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.status.phase).toBe('Terminating');
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
      const refused = await call(s, 'POST', pods(ns), { body: pod('late') });
      expectStatus(refused, 403, 'Forbidden');
      expect(refused.body.message).toBe(
        `pods "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      );
      // The held pod keeps the namespace Terminating until its finalizer goes.
      await waitUntil(
        async () => (await call(s, 'GET', pods(ns))).body.items.length === 1,
        `one pod left in ${ns}`,
        5000,
        20,
      );
      const stillHeld = await call(s, 'GET', `${pods(ns)}/held`);
      expect(stillHeld.body.metadata.deletionTimestamp).toBeTruthy();
      expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(200);
      await call(s, 'PATCH', `${pods(ns)}/held`, {
        body: { metadata: { finalizers: null } },
        headers: MERGE,
      });
      await w.until((e) => e.type === 'DELETED', 5000);
      expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(404);
      expect((await call(s, 'GET', deploys(ns))).body.items).toEqual([]);
      expect((await call(s, 'GET', pods(ns))).body.items).toEqual([]);
    } finally {
      w.close();
    }
  });
});

/**
 * The list rules run against every store (memory, and a real etcd when
 * available): the store answers consistent, exact and continue reads itself,
 * so these are the rules an etcd-backed server must keep too.
 */
describe.each(STORE_KINDS)('list: resourceVersion semantics (%s store)', (kind) => {
  const stores = useStores(kind);
  let shared: RunningServer;
  let store: Store;
  beforeAll(async () => {
    shared = s;
    store = stores.newStore();
    s = await startTestServer({ store });
  });
  afterAll(async () => {
    await s.close();
    await store.close();
    s = shared;
  });

  const names = (r: Answer) => r.body.items.map((i: any) => i.metadata.name);

  it('unset is a consistent read, "0" serves the cache, N is not older than N', async () => {
    const ns = await freshNamespace();
    const a = await created(pods(ns), pod('a'));
    const b = await created(pods(ns), pod('b'));
    const before = await stats(s);
    const consistent = await call(s, 'GET', pods(ns));
    expect(consistent.body).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
    expect(names(consistent)).toEqual(['a', 'b']);
    // The store's revision at the read: at least the last write's.
    expect(Number(consistent.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(b.metadata.resourceVersion),
    );
    const cached = await call(s, 'GET', `${pods(ns)}?resourceVersion=0`);
    expect(names(cached)).toEqual(['a', 'b']);
    const notOlder = await call(s, 'GET', `${pods(ns)}?resourceVersion=${a.metadata.resourceVersion}`);
    expect(names(notOlder)).toEqual(['a', 'b']);
    expect(Number(notOlder.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(a.metadata.resourceVersion),
    );
    const explicit = await call(
      s,
      'GET',
      `${pods(ns)}?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`,
    );
    expect(names(explicit)).toEqual(['a', 'b']);
    const explicitZero = await call(
      s,
      'GET',
      `${pods(ns)}?resourceVersion=0&resourceVersionMatch=NotOlderThan`,
    );
    expect(names(explicitZero)).toEqual(['a', 'b']);
    const after = await stats(s);
    expect(after.lists.consistent - before.lists.consistent).toBe(1);
    expect(after.lists.cache - before.lists.cache).toBe(2);
    expect(after.lists.notOlderThan - before.lists.notOlderThan).toBe(2);
  });

  it('N newer than the server has is a 504 after waiting', async () => {
    const ns = await freshNamespace();
    const r = await call(s, 'GET', `${pods(ns)}?resourceVersion=99999999`);
    expectStatus(r, 504, 'Timeout');
    expect(r.body.details.causes).toEqual([
      { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
    ]);
  });

  it('a limit with N, or resourceVersionMatch=Exact, reads exactly N; 410 once compacted', async () => {
    const ns = await freshNamespace();
    const a = await created(pods(ns), pod('a'));
    await created(pods(ns), pod('b'));
    await call(s, 'PATCH', `${pods(ns)}/a`, { body: { metadata: { labels: { v: '2' } } }, headers: MERGE });
    const rv = a.metadata.resourceVersion;
    const exact = await call(s, 'GET', `${pods(ns)}?limit=10&resourceVersion=${rv}`);
    expect(exact.status, exact.text).toBe(200);
    expect(names(exact)).toEqual(['a']);
    expect(exact.body.metadata.resourceVersion).toBe(rv);
    expect(exact.body.items[0].metadata.labels).toBeUndefined();
    const matched = await call(s, 'GET', `${pods(ns)}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(names(matched)).toEqual(['a']);
    const compact = await call(s, 'POST', '/debug/watchmark/compact');
    expect(compact.status).toBe(200);
    const gone = await call(s, 'GET', `${pods(ns)}?limit=10&resourceVersion=${rv}`);
    expectStatus(gone, 410, 'Expired');
    expect(gone.body.message).toMatch(new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`));
    expectStatus(
      await call(s, 'GET', `${pods(ns)}?resourceVersion=${rv}&resourceVersionMatch=Exact`),
      410,
      'Expired',
    );
    // RV "0" with a limit still serves the cache.
    expect(names(await call(s, 'GET', `${pods(ns)}?limit=10&resourceVersion=0`))).toEqual(['a', 'b']);
  });

  it('refuses the invalid combinations: 422 for ListOptions validation, 400 for the rest', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    await created(pods(ns), pod('b'));
    const page = await call(s, 'GET', `${pods(ns)}?limit=1`);
    const token = encodeURIComponent(page.body.metadata.continue);
    // validation.go `ValidateListOptions`: every error at once, a 422.
    const invalid = [
      'resourceVersionMatch=NotOlderThan',
      'resourceVersionMatch=Exact',
      `resourceVersionMatch=NotOlderThan&resourceVersion=0&continue=${token}`,
      'resourceVersion=0&resourceVersionMatch=Exact',
      'resourceVersion=1&resourceVersionMatch=Newest',
      'sendInitialEvents=true',
    ];
    for (const q of invalid) expectStatus(await call(s, 'GET', `${pods(ns)}?${q}`), 422, 'Invalid');
    const bad = [
      `continue=${token}&resourceVersion=5`,
      'resourceVersion=abc',
      'resourceVersion=-1',
      'limit=ten',
      'limit=1.5',
      'continue=garbage',
    ];
    for (const q of bad) expectStatus(await call(s, 'GET', `${pods(ns)}?${q}`), 400, 'BadRequest');
    const rv = await call(s, 'GET', `${pods(ns)}?resourceVersion=abc`);
    expect(rv.body.message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
    // RV "0" beside continue is what client-go's pager sends: allowed.
    expect((await call(s, 'GET', `${pods(ns)}?limit=1&resourceVersion=0&continue=${token}`)).status).toBe(
      200,
    );
  });

  it('limit + continue returns every item exactly once, with and without a label selector', async () => {
    const ns = await freshNamespace();
    const all: string[] = [];
    for (let i = 0; i < 23; i++) {
      const name = `p${String(i).padStart(2, '0')}`;
      all.push(name);
      await created(pods(ns), pod(name, { labels: { parity: i % 2 === 0 ? 'even' : 'odd' } }));
    }
    for (const [selector, expected] of [
      ['', all],
      ['parity=even', all.filter((_, i) => i % 2 === 0)],
      ['parity=odd', all.filter((_, i) => i % 2 === 1)],
    ] as const) {
      for (const rv of ['', '0']) {
        for (const limit of [1, 4, 7, 100]) {
          const seen: string[] = [];
          let token: string | undefined;
          let listRV: string | undefined;
          let pages = 0;
          do {
            const q = new URLSearchParams({ limit: String(limit) });
            if (selector) q.set('labelSelector', selector);
            if (token) q.set('continue', token);
            else if (rv) q.set('resourceVersion', rv);
            const r = await call(s, 'GET', `${pods(ns)}?${q}`);
            expect(r.status, r.text).toBe(200);
            // resourceVersion "0" is served from the cache, which ignores the limit (cacher.go).
            if (rv === '0') expect(r.body.items.length).toBe(expected.length);
            else expect(r.body.items.length).toBeLessThanOrEqual(limit);
            listRV ??= r.body.metadata.resourceVersion;
            expect(r.body.metadata.resourceVersion).toBe(listRV);
            seen.push(...names(r));
            token = r.body.metadata.continue || undefined;
            if (token && !selector) {
              expect(r.body.metadata.remainingItemCount).toBe(expected.length - seen.length);
            }
            if (!token) expect(r.body.metadata.remainingItemCount).toBeUndefined();
            expect(++pages).toBeLessThan(50);
          } while (token);
          expect(seen, `selector=${selector} rv=${rv} limit=${limit}`).toEqual([...expected]);
        }
      }
    }
  });

  it('a continue token keeps its snapshot: writes after the first page do not show', async () => {
    const ns = await freshNamespace();
    for (const n of ['a', 'b', 'c']) await created(pods(ns), pod(n));
    const first = await call(s, 'GET', `${pods(ns)}?limit=2`);
    await created(pods(ns), pod('d'));
    await call(s, 'DELETE', `${pods(ns)}/c`);
    const second = await call(s, 'GET', `${pods(ns)}?limit=2&continue=${first.body.metadata.continue}`);
    expect(second.status, second.text).toBe(200);
    expect(second.body.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    expect(second.body.metadata.continue).toBeUndefined();
  });

  it('an expired continue token is a 410, a garbage one a 400', async () => {
    const ns = await freshNamespace();
    for (const n of ['a', 'b', 'c']) await created(pods(ns), pod(n));
    const first = await call(s, 'GET', `${pods(ns)}?limit=1`);
    const token = first.body.metadata.continue;
    expect(token).toBeTruthy();
    await call(s, 'PATCH', `${pods(ns)}/b`, { body: { metadata: { labels: { x: 'y' } } }, headers: MERGE });
    await call(s, 'POST', '/debug/watchmark/compact');
    const expired = await call(s, 'GET', `${pods(ns)}?limit=1&continue=${token}`);
    expectStatus(expired, 410, 'Expired');
    expect(expired.body.message).toContain('continue parameter is too old');
    for (const garbage of ['garbage', '%%%', Buffer.from('{"v":"x"}').toString('base64url'), 'e30']) {
      const r = await call(s, 'GET', `${pods(ns)}?limit=1&continue=${encodeURIComponent(garbage)}`);
      expectStatus(r, 400, 'BadRequest');
    }
  });

  it('lists every namespace at /api/v1/pods, with selectors', async () => {
    const ns1 = await freshNamespace();
    const ns2 = await freshNamespace();
    await created(pods(ns1), pod('x', { labels: { cross: 'yes' } }));
    await created(pods(ns2), pod('x', { labels: { cross: 'yes' } }));
    await created(pods(ns2), pod('y'));
    const r = await call(s, 'GET', '/api/v1/pods?labelSelector=cross%3Dyes');
    expect(r.status, r.text).toBe(200);
    expect(r.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual([
      `${ns1}/x`,
      `${ns2}/x`,
    ]);
    // Pages across namespaces, in namespace/name order.
    const seen: string[] = [];
    let token = '';
    do {
      const page = await call(s, 'GET', `/api/v1/pods?limit=1&labelSelector=cross%3Dyes${token}`);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`));
      token = page.body.metadata.continue ? `&continue=${page.body.metadata.continue}` : '';
    } while (token);
    expect(seen).toEqual([`${ns1}/x`, `${ns2}/x`]);
    const byField = await call(s, 'GET', `/api/v1/pods?fieldSelector=metadata.namespace%3D${ns2}`);
    expect(byField.body.items).toHaveLength(2);
    expectStatus(await call(s, 'GET', '/api/v1/pods?fieldSelector=spec.bogus%3Dx'), 400, 'BadRequest');
    expectStatus(await call(s, 'GET', '/api/v1/pods?labelSelector=a%20in%20(b'), 400, 'BadRequest');
  });
});

describe('errors and non-resource paths', () => {
  it('answers 404 with a Status under a served API, as go-restful does, for an unknown version or kind', async () => {
    for (const path of [
      '/api/v2/pods',
      '/apis/apps/v9/deployments',
      '/api/v1/namespaces/default/widgets',
      '/api/v1/namespaces/default/pods/a/logs/extra',
    ]) {
      expectStatus(await call(s, 'GET', path), 404, 'NotFound');
    }
  });

  it("answers Go's plain 404 page where no API is served (an unknown group, an unknown path)", async () => {
    // The fidelity cases routing/unknown-group-resource and routing/unknown-top-level show the reference's.
    for (const path of ['/apis/nope.example.com/v1/things', '/apis/nope.example.com', '/nothing/here']) {
      const r = await call(s, 'GET', path);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(r.text).toBe('404 page not found\n');
    }
  });

  it('answers 405 for a method the path does not take', async () => {
    const ns = await freshNamespace();
    expectStatus(await call(s, 'POST', `${pods(ns)}/a`, { body: pod('a') }), 405, 'MethodNotAllowed');
    expectStatus(await call(s, 'PUT', pods(ns), { body: pod('a') }), 405, 'MethodNotAllowed');
    expectStatus(await call(s, 'POST', '/version', { body: {} }), 405, 'MethodNotAllowed');
    // From the router, as kube-apiserver's serviceErrorHandler answers it: no resource named.
    const r = await call(s, 'POST', `${pods(ns)}/a`, { body: pod('a') });
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      details: {},
      code: 405,
    });
  });

  it('a name under the all-namespaces path of a namespaced kind matches no route', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/pods/a'],
      ['DELETE', '/api/v1/pods/a'],
      ['GET', '/api/v1/pods/a/status'],
      ['GET', '/apis/apps/v1/deployments/d'],
    ] as const) {
      const r = await call(s, method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.message).toBe('the server could not find the requested resource');
      expect(r.body.details).toEqual({});
    }
  });

  it('watch=1 on one object is a plain GET (kubernetes/kubernetes#89755); /watch/ paths watch it', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('one'));
    const got = await call(s, 'GET', `${pods(ns)}/one?watch=1`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.kind).toBe('Pod');
    expect(got.body.metadata.name).toBe('one');
  });

  it('serves only reads on /watch/ paths and on the all-namespaces path of a namespaced kind', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    expectStatus(await call(s, 'POST', '/api/v1/pods', { body: pod('b') }), 405, 'MethodNotAllowed');
    expectStatus(await call(s, 'DELETE', '/api/v1/pods'), 405, 'MethodNotAllowed');
    expectStatus(
      await call(s, 'POST', `/api/v1/watch/namespaces/${ns}/pods`, { body: pod('c') }),
      405,
      'MethodNotAllowed',
    );
    expectStatus(await call(s, 'DELETE', `/api/v1/watch/namespaces/${ns}/pods/a`), 405, 'MethodNotAllowed');
    expect((await call(s, 'GET', pods(ns))).body.items.map((i: any) => i.metadata.name)).toEqual(['a']);
    // watch=1 on a subresource is a plain read.
    const status = await call(s, 'GET', `${pods(ns)}/a/status?watch=1`);
    expect(status.status, status.text).toBe(200);
    expect(status.body.kind).toBe('Pod');
  });

  it('answers 400, not 500, for bodies nested deeper than the server can process', async () => {
    const ns = await freshNamespace();
    const deep = (d: number) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${'['.repeat(d)}${']'.repeat(d)}}`;
    for (const depth of [1_000, 5_000, 100_000]) {
      const r = await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { body: deep(depth) });
      expectStatus(r, 400, 'BadRequest');
      expect(r.body.message).toContain('nested too deeply');
    }
    for (const yaml of [`x: ${'['.repeat(50_000)}`, `${'- '.repeat(50_000)}1`]) {
      const r = await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
        body: yaml,
        headers: { 'content-type': 'application/yaml' },
      });
      expectStatus(r, 400, 'BadRequest');
    }
    await created(pods(ns), pod('p'));
    const path = `/spec/x${'/a'.repeat(600)}`;
    const patch = await call(s, 'PATCH', `${pods(ns)}/p`, {
      body: [
        { op: 'add', path: '/spec/x', value: JSON.parse(`${'{"a":'.repeat(600)}1${'}'.repeat(600)}`) },
        { op: 'replace', path, value: JSON.parse(`${'['.repeat(600)}${']'.repeat(600)}`) },
      ],
      headers: JSON_PATCH,
    });
    expectStatus(patch, 400, 'BadRequest');
    expect((await call(s, 'GET', '/healthz')).status).toBe(200);
  });

  it('answers 413 for a body over 3 MiB', async () => {
    const ns = await freshNamespace();
    const big = pod('big');
    (big.metadata as Record<string, unknown>).annotations = { blob: 'x'.repeat(3 * 1024 * 1024 + 10) };
    expectStatus(await call(s, 'POST', pods(ns), { body: big }), 413, 'RequestEntityTooLarge');
    expect((await call(s, 'GET', '/healthz')).status).toBe(200);
  });

  it('serves Prometheus metrics with watchmark_ figures', async () => {
    const r = await call(s, 'GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.text).toMatch(/^# HELP watchmark_/m);
    expect(r.text).toMatch(/^watchmark_lists_total\{mode="consistent"\} \d+$/m);
  });
});

describe('stats', () => {
  it('count lists by mode and the objects they returned', async () => {
    const server = await startTestServer();
    try {
      await ensureNamespace(server, 'st');
      for (const n of ['a', 'b', 'c']) {
        expect((await call(server, 'POST', pods('st'), { body: pod(n) })).status).toBe(201);
      }
      const before = await stats(server);
      await call(server, 'GET', pods('st'));
      await call(server, 'GET', `${pods('st')}?resourceVersion=0`);
      await call(server, 'GET', `${pods('st')}?resourceVersion=0&limit=2`);
      const page = await call(server, 'GET', `${pods('st')}?limit=2`);
      await call(server, 'GET', `${pods('st')}?limit=2&continue=${page.body.metadata.continue}`);
      await call(
        server,
        'GET',
        `${pods('st')}?limit=5&resourceVersion=${page.body.metadata.resourceVersion}`,
      );
      const after = await stats(server);
      const delta = (k: string) => [
        after.lists[k] - before.lists[k],
        after.listObjects[k] - before.listObjects[k],
      ];
      expect(delta('consistent')).toEqual([2, 5]);
      expect(delta('cache')).toEqual([2, 6]); // rv=0 ignores the limit: 3 + 3
      expect(delta('continue')).toEqual([1, 1]);
      expect(delta('exact')).toEqual([1, 3]);
      expect(after.writes).toBe(before.writes);
      expect(after.requests).toBeGreaterThan(before.requests);
      await call(server, 'GET', `${pods('st')}/nope`);
      const errors = await stats(server);
      expect(errors.requestErrors).toBe(after.requestErrors + 1);
      // A pod's DELETE is two writes, as kube-apiserver makes it: the deletionTimestamp mark
      // (grace 0), then the removal.
      await call(server, 'DELETE', `${pods('st')}/a`);
      expect((await stats(server)).writes).toBe(after.writes + 2);
    } finally {
      await server.close();
    }
  });
});

describe('TLS server with authentication', () => {
  let secure: RunningServer;
  beforeAll(async () => {
    secure = await startServer({ compactionInterval: 0 });
  });
  afterAll(async () => {
    await secure?.close();
  });

  it('answers 401 with a Status for a missing or wrong token', async () => {
    expect(secure.url).toMatch(/^https:/);
    expect(secure.token).toBeTruthy();
    for (const token of ['', 'wrong']) {
      for (const path of ['/api/v1/pods', '/apis', '/metrics', '/debug/watchmark/stats']) {
        const r = await call(secure, 'GET', path, { token });
        expectStatus(r, 401, 'Unauthorized');
      }
    }
    const ok = await call(secure, 'GET', '/api/v1/pods');
    expect(ok.status, ok.text).toBe(200);
  });

  it('serves /healthz and /version without a token', async () => {
    const health = await call(secure, 'GET', '/healthz', { token: '' });
    expect([health.status, health.text]).toEqual([200, 'ok']);
    const version = await call(secure, 'GET', '/version', { token: '' });
    expect(version.status).toBe(200);
    expect(version.body.gitVersion).toMatch(/^v1\./);
  });
});
