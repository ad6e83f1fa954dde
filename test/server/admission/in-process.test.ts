/**
 * In-process admission hooks (`ServerOptions.admission`): the AdmissionRequest they see on each
 * verb, denials worded as kube-apiserver words a webhook's, patches applied before validation,
 * warnings, dry runs, deletes and subresources.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionAnswer, AdmissionRequest, RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

/** What the hooks do, set per test; every request they saw. */
let mutate: (r: AdmissionRequest) => AdmissionAnswer = () => ({ allowed: true });
let validate: (r: AdmissionRequest) => AdmissionAnswer = () => ({ allowed: true });
const mutated: AdmissionRequest[] = [];
const validated: AdmissionRequest[] = [];

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer({
    admission: {
      mutate: (r) => {
        mutated.push(r);
        return mutate(r);
      },
      validate: async (r) => {
        validated.push(r);
        return validate(r);
      },
    },
  });
  await ensureNamespace(s, 'adm');
});
afterAll(async () => {
  await s?.close();
});

/** Resets the hooks and the record (each test sets what it needs). */
function hooks(m?: typeof mutate, v?: typeof validate): void {
  mutate = m ?? (() => ({ allowed: true }));
  validate = v ?? (() => ({ allowed: true }));
  mutated.length = 0;
  validated.length = 0;
}

const CM = '/api/v1/namespaces/adm/configmaps';
const configMap = (name: string, data: Record<string, string> = { a: '1' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

function deployment(name: string, replicas = 1) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  };
}

describe('in-process admission hooks', () => {
  it('see a create as kube-apiserver sends it to a webhook', async () => {
    hooks();
    const r = await call(s, 'POST', `${CM}?fieldManager=tester`, { body: configMap('seen') });
    expect(r.status, r.text).toBe(201);
    expect(mutated).toHaveLength(1);
    const req = mutated[0]!;
    expect(req.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(req).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'seen',
      namespace: 'adm',
      operation: 'CREATE',
      userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester' },
    });
    expect(req.subResource).toBeUndefined();
    // Before the registry's BeforeCreate: no uid or creationTimestamp yet.
    expect(req.object?.metadata?.uid).toBeUndefined();
    expect(req.object?.data).toEqual({ a: '1' });
    // Validating admission sees the object about to be stored.
    expect(validated).toHaveLength(1);
    expect(validated[0]!.object?.metadata?.uid).toBe(r.body.metadata.uid);
    expect(validated[0]!.operation).toBe('CREATE');
  });

  it('a denial is the hook status, prefixed as a webhook denial, and nothing is stored', async () => {
    hooks(undefined, () => ({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: 'configmaps named bad are not allowed' },
    }));
    const r = await call(s, 'POST', CM, { body: configMap('bad') });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'admission webhook "validate.in-process.watchmark" denied the request: configmaps named bad are not allowed',
      reason: 'Forbidden',
      code: 403,
    });
    expect((await call(s, 'GET', `${CM}/bad`)).status).toBe(404);
  });

  it('a denial without a code is a 400, without a message says so', async () => {
    hooks(() => ({ allowed: false }));
    const r = await call(s, 'POST', CM, { body: configMap('nocode') });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'admission webhook "mutate.in-process.watchmark" denied the request without explanation',
    );
    expect(validated).toHaveLength(0);
  });

  it('a patch is applied, seen by validation and validating admission, and stored', async () => {
    hooks(() => ({
      allowed: true,
      patch: [{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }],
    }));
    const r = await call(s, 'POST', CM, { body: configMap('stamped') });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.labels).toEqual({ stamped: 'yes' });
    expect(validated[0]!.object?.metadata?.labels).toEqual({ stamped: 'yes' });
    expect((await call(s, 'GET', `${CM}/stamped`)).body.metadata.labels).toEqual({ stamped: 'yes' });
  });

  it('a mutation that breaks the object is refused by validation, as after a webhook', async () => {
    hooks((r) =>
      r.kind.kind === 'Deployment'
        ? { allowed: true, patch: [{ op: 'replace', path: '/spec/replicas', value: -1 }] }
        : { allowed: true },
    );
    const r = await call(s, 'POST', '/apis/apps/v1/namespaces/adm/deployments', {
      body: deployment('broken'),
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(validated).toHaveLength(0);
    expect((await call(s, 'GET', '/apis/apps/v1/namespaces/adm/deployments/broken')).status).toBe(404);
  });

  it("a custom resource's mutation is pruned, defaulted and checked against its schema", async () => {
    hooks();
    await installCrd(s, widgetCrd());
    const widgets = '/apis/example.com/v1/namespaces/adm/widgets';
    hooks((r) =>
      r.kind.kind === 'Widget'
        ? { allowed: true, patch: [{ op: 'replace', path: '/spec', value: { size: 0, unknown: true } }] }
        : { allowed: true },
    );
    const refused = await call(s, 'POST', widgets, { body: widget('small', { size: 2 }) });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toBe(
      'Widget.example.com "small" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
    );
    hooks((r) =>
      r.kind.kind === 'Widget'
        ? { allowed: true, patch: [{ op: 'replace', path: '/spec', value: { size: 3, unknown: true } }] }
        : { allowed: true },
    );
    const stored = await call(s, 'POST', widgets, { body: widget('big', { size: 2 }) });
    expect(stored.status, stored.text).toBe(201);
    // Pruned (no `unknown`) and defaulted (`color`), as a webhook's patch would be.
    expect(stored.body.spec).toEqual({ size: 3, color: 'red' });
    expect(validated[0]!.object?.spec).toEqual({ size: 3, color: 'red' });
  });

  it('a patch that does not apply is an internal error', async () => {
    hooks(() => ({ allowed: true, patch: [{ op: 'remove', path: '/spec/nothing' }] }));
    const r = await call(s, 'POST', CM, { body: configMap('unpatchable') });
    expect(r.status).toBe(500);
    expect(r.body.reason).toBe('InternalError');
    expect(r.body.message).toMatch(/^Internal error occurred: /);
  });

  it('a hook that throws fails the write as a webhook that cannot be called (failurePolicy Fail)', async () => {
    hooks(() => {
      throw new Error('hook exploded');
    });
    const r = await call(s, 'POST', CM, { body: configMap('thrown') });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: failed calling webhook "mutate.in-process.watchmark": hook exploded',
    );
  });

  it('a dry run calls the hooks with dryRun true and stores nothing', async () => {
    hooks();
    const r = await call(s, 'POST', `${CM}?dryRun=All`, { body: configMap('dry') });
    expect(r.status, r.text).toBe(201);
    expect(mutated[0]!.dryRun).toBe(true);
    expect(mutated[0]!.options).toMatchObject({ kind: 'CreateOptions', dryRun: ['All'] });
    expect(validated[0]!.dryRun).toBe(true);
    expect((await call(s, 'GET', `${CM}/dry`)).status).toBe(404);
  });

  it('an update and a patch carry the old object', async () => {
    hooks();
    expect((await call(s, 'POST', CM, { body: configMap('updated') })).status).toBe(201);
    hooks();
    const put = await call(s, 'PUT', `${CM}/updated`, { body: configMap('updated', { a: '2' }) });
    expect(put.status, put.text).toBe(200);
    expect(mutated[0]).toMatchObject({
      operation: 'UPDATE',
      name: 'updated',
      options: { kind: 'UpdateOptions' },
    });
    expect(mutated[0]!.oldObject?.data).toEqual({ a: '1' });
    expect(mutated[0]!.object?.data).toEqual({ a: '2' });
    hooks();
    const patch = await call(s, 'PATCH', `${CM}/updated`, {
      body: { data: { a: '3' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patch.status, patch.text).toBe(200);
    expect(validated[0]).toMatchObject({
      operation: 'UPDATE',
      object: { data: { a: '3' } },
      oldObject: { data: { a: '2' } },
    });
  });

  it('server-side apply is admitted: a create, then an update', async () => {
    hooks();
    const body = JSON.stringify(configMap('applied'));
    const headers = { 'content-type': 'application/apply-patch+yaml' };
    const created = await call(s, 'PATCH', `${CM}/applied?fieldManager=me`, { body, headers });
    expect(created.status, created.text).toBe(201);
    expect(mutated.map((r) => r.operation)).toEqual(['CREATE']);
    hooks(undefined, () => ({ allowed: false, status: { message: 'frozen' } }));
    const refused = await call(s, 'PATCH', `${CM}/applied?fieldManager=me`, {
      body: JSON.stringify(configMap('applied', { a: 'changed' })),
      headers,
    });
    expect(refused.status).toBe(400);
    expect(validated[0]!.operation).toBe('UPDATE');
    expect((await call(s, 'GET', `${CM}/applied`)).body.data).toEqual({ a: '1' });
  });

  it('a delete runs both with the old object and no object; a denial keeps the object', async () => {
    hooks();
    expect((await call(s, 'POST', CM, { body: configMap('kept') })).status).toBe(201);
    hooks(undefined, (r) =>
      r.operation === 'DELETE'
        ? { allowed: false, status: { code: 403, message: 'keep it' } }
        : { allowed: true },
    );
    const r = await call(s, 'DELETE', `${CM}/kept?propagationPolicy=Background`);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'admission webhook "validate.in-process.watchmark" denied the request: keep it',
    );
    expect(mutated[0]).toMatchObject({ operation: 'DELETE', name: 'kept', object: null });
    expect(validated[0]).toMatchObject({
      operation: 'DELETE',
      object: null,
      oldObject: { metadata: { name: 'kept' } },
      options: { kind: 'DeleteOptions', propagationPolicy: 'Background' },
    });
    expect((await call(s, 'GET', `${CM}/kept`)).status).toBe(200);
  });

  it('a patch on a delete is an internal error, as upstream', async () => {
    hooks((r) =>
      r.operation === 'DELETE'
        ? { allowed: true, patch: [{ op: 'add', path: '/x', value: 1 }] }
        : { allowed: true },
    );
    expect((await call(s, 'POST', CM, { body: configMap('delpatch') })).status).toBe(201);
    const r = await call(s, 'DELETE', `${CM}/delpatch`);
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: admission webhook "mutate.in-process.watchmark" attempted to modify the object, which is not supported for this operation',
    );
  });

  it('the status subresource is admitted with subResource status', async () => {
    hooks();
    const path = '/apis/apps/v1/namespaces/adm/deployments';
    expect((await call(s, 'POST', path, { body: deployment('withstatus') })).status).toBe(201);
    hooks();
    const r = await call(s, 'PATCH', `${path}/withstatus/status`, {
      body: { status: { observedGeneration: 1 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(r.status, r.text).toBe(200);
    expect(mutated[0]).toMatchObject({
      operation: 'UPDATE',
      subResource: 'status',
      requestSubResource: 'status',
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    });
  });

  it('the scale subresource is admitted with Scale objects, and a Scale patch applies', async () => {
    hooks();
    const path = '/apis/apps/v1/namespaces/adm/deployments';
    expect((await call(s, 'POST', path, { body: deployment('scaled') })).status).toBe(201);
    hooks((r) =>
      r.subResource === 'scale'
        ? { allowed: true, patch: [{ op: 'replace', path: '/spec/replicas', value: 5 }] }
        : { allowed: true },
    );
    const r = await call(s, 'PATCH', `${path}/scaled/scale`, {
      body: { spec: { replicas: 3 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.replicas).toBe(5);
    expect(mutated[0]).toMatchObject({
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      object: { kind: 'Scale', spec: { replicas: 3 } },
      oldObject: { kind: 'Scale', spec: { replicas: 1 } },
    });
    expect(validated[0]).toMatchObject({ object: { kind: 'Scale', spec: { replicas: 5 } } });
    expect((await call(s, 'GET', `${path}/scaled`)).body.spec.replicas).toBe(5);
  });

  it('warnings go to Warning headers', async () => {
    hooks(
      () => ({ allowed: true, warnings: ['label app is missing'] }),
      () => ({ allowed: true, warnings: ['second look'] }),
    );
    const r = await call(s, 'POST', CM, { body: configMap('warned') });
    expect(r.status).toBe(201);
    expect(r.headers.warning).toBe('299 - "label app is missing", 299 - "second look"');
  });

  it('a create by generateName shows no name yet', async () => {
    hooks();
    const r = await call(s, 'POST', CM, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } },
    });
    expect(r.status, r.text).toBe(201);
    expect(mutated[0]!.name).toBeUndefined();
    expect(mutated[0]!.object?.metadata?.name).toBeUndefined();
    expect(validated[0]!.object?.metadata?.name).toBe(r.body.metadata.name);
  });
});
