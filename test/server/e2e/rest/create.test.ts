/**
 * REST over real HTTP, creates: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { call, pod, startTestServer } from '../../../helpers/server.js';
import { deployment, deploys, expectStatus, pods, restHelpers } from './fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});
const { freshNamespace, created } = restHelpers(() => s);

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
