/**
 * Field ownership through the `scale` subresource: updates, merge patches and server-side apply
 * of an autoscaling/v1 Scale, as kube-apiserver keeps them (apimachinery managedfields
 * scalehandler.go; the scenario of kubernetes test/integration/apiserver/apply/scale_test.go
 * `TestScaleAllResources` and `TestScaleUpdateOnlyStatus`, run here step by step for every
 * scalable built-in kind and for a custom kind), plus the handler's two conversions on their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';
import { APPLY, MERGE, replicasOwners, scaleBody, workload } from './scale-ownership-fixture.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('other scale writes', () => {
  const base = '/apis/apps/v1/namespaces/default/deployments';

  it('TestScaleUpdateOnlyStatus: a Scale patch that changes only its status moves nothing', async () => {
    const name = 'scale-status-only';
    const created = await call(server, 'PATCH', `${base}/${name}?fieldManager=apply_test`, {
      body: workload('Deployment', name),
      headers: APPLY,
    });
    expect(created.status).toBe(201);
    const r = await call(server, 'PATCH', `${base}/${name}/scale?fieldManager=scale_test`, {
      body: { status: { replicas: 42 } },
      headers: MERGE,
    });
    expect(r.status).toBe(200);
    const obj = (await call(server, 'GET', `${base}/${name}`)).body;
    expect(obj.spec.replicas).toBe(1);
    expect(replicasOwners(obj)).toEqual(['apply_test']);
    expect(obj.metadata.managedFields.map((e: any) => e.manager)).toEqual(['apply_test']);
  });

  it('an apply of a Scale to a missing object is a 404, and its dry run changes nothing', async () => {
    const missing = await call(server, 'PATCH', `${base}/nowhere/scale?fieldManager=a`, {
      body: scaleBody('nowhere', 2),
      headers: APPLY,
    });
    expect(missing.status).toBe(404);
    const name = 'scale-dry-run';
    await call(server, 'PATCH', `${base}/${name}?fieldManager=apply_test`, {
      body: workload('Deployment', name),
      headers: APPLY,
    });
    const before = (await call(server, 'GET', `${base}/${name}`)).body;
    const dry = await call(server, 'PATCH', `${base}/${name}/scale?fieldManager=a&force=true&dryRun=All`, {
      body: scaleBody(name, 9),
      headers: APPLY,
    });
    expect(dry.status).toBe(200);
    expect(dry.body.spec.replicas).toBe(9);
    expect((await call(server, 'GET', `${base}/${name}`)).body).toEqual(before);
  });

  it('refuses a configuration that is not an autoscaling/v1 Scale, and a negative count', async () => {
    const name = 'scale-refusals';
    await call(server, 'PATCH', `${base}/${name}?fieldManager=apply_test`, {
      body: workload('Deployment', name),
      headers: APPLY,
    });
    const wrong = await call(server, 'PATCH', `${base}/${name}/scale?fieldManager=a`, {
      body: workload('Deployment', name),
      headers: APPLY,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('invalid object type: apps/v1, Kind=Deployment');
    // The type is checked before any field is (versioncheck.go is the chain's outermost step),
    // on the main resource too.
    const cm = await call(server, 'PATCH', `/api/v1/namespaces/default/configmaps/${name}?fieldManager=a`, {
      body: workload('Deployment', name),
      headers: APPLY,
    });
    expect(cm.status).toBe(400);
    expect(cm.body.message).toBe('invalid object type: apps/v1, Kind=Deployment');
    const negative = await call(server, 'PATCH', `${base}/${name}/scale?fieldManager=a&force=true`, {
      body: scaleBody(name, -1),
      headers: APPLY,
    });
    expect(negative.status).toBe(422);
    expect(negative.body.message).toBe(
      'Scale.autoscaling "scale-refusals" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(negative.body.details).toEqual({
      name: 'scale-refusals',
      group: 'autoscaling',
      kind: 'Scale',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: -1: must be greater than or equal to 0',
          field: 'spec.replicas',
        },
      ],
    });
    expect((await call(server, 'GET', `${base}/${name}`)).body.spec.replicas).toBe(1);
  });

  it('a uid in the Scale is a precondition', async () => {
    const name = 'scale-uid';
    await call(server, 'PATCH', `${base}/${name}?fieldManager=apply_test`, {
      body: workload('Deployment', name),
      headers: APPLY,
    });
    const obj = (await call(server, 'GET', `${base}/${name}`)).body;
    const body = { ...scaleBody(name, 3), metadata: { name, namespace: 'default', uid: 'not-the-uid' } };
    const r = await call(server, 'PUT', `${base}/${name}/scale`, { body });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      `Operation cannot be fulfilled on deployments/scale.apps "${name}": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${obj.metadata.uid}`,
    );
  });
});
