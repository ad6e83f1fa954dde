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

describe.each([
  ['Deployment', 'deployments'],
  ['StatefulSet', 'statefulsets'],
  ['ReplicaSet', 'replicasets'],
])('TestScaleAllResources: %s', (kind, plural) => {
  const base = `/apis/apps/v1/namespaces/default/${plural}`;
  const name = `scale-${plural}`;
  const get = async () => (await call(server, 'GET', `${base}/${name}`)).body;
  const patch = (path: string, manager: string, body: unknown, headers: Record<string, string>, q = '') =>
    call(server, 'PATCH', `${base}/${path}?fieldManager=${manager}${q}`, { body, headers });

  it('apply, scale, conflicts both ways, force, replace, co-own, scale again', async () => {
    // Create by apply: the applier owns the replicas.
    expect((await patch(name, 'apply_test', workload(kind, name), APPLY)).status).toBe(201);
    let obj = await get();
    expect(obj.spec.replicas).toBe(1);
    expect(replicasOwners(obj)).toEqual(['apply_test']);

    // A merge patch of the Scale takes them.
    expect((await patch(`${name}/scale`, 'scale_test', { spec: { replicas: 5 } }, MERGE)).status).toBe(200);
    obj = await get();
    expect(obj.spec.replicas).toBe(5);
    expect(replicasOwners(obj)).toEqual(['scale_test']);

    // Re-applying the original object conflicts with the scaler...
    const again = await patch(name, 'apply_test', workload(kind, name), APPLY);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "scale_test" with subresource "scale" using apps/v1: .spec.replicas',
    );
    // ...and forcing takes them back.
    expect((await patch(name, 'apply_test', workload(kind, name), APPLY, '&force=true')).status).toBe(200);
    obj = await get();
    expect(obj.spec.replicas).toBe(1);
    expect(replicasOwners(obj)).toEqual(['apply_test']);

    // An apply of a Scale with other replicas conflicts with the object's applier.
    const conflict = await patch(`${name}/scale`, 'apply_scale', scaleBody(name, 17), APPLY);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ reason: 'Conflict', code: 409 });
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas',
    );
    expect((await get()).spec.replicas).toBe(1);

    // Forced, only the Scale's applier owns them.
    const forced = await patch(`${name}/scale`, 'apply_scale', scaleBody(name, 17), APPLY, '&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 17 },
    });
    // ScaleREST answers a Scale without managedFields.
    expect(forced.body.metadata.managedFields).toBeUndefined();
    obj = await get();
    expect(obj.spec.replicas).toBe(17);
    expect(replicasOwners(obj)).toEqual(['apply_scale']);
    expect(obj.metadata.managedFields).toContainEqual({
      manager: 'apply_scale',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });

    // A replace of the Scale takes them.
    const put = await call(server, 'PUT', `${base}/${name}/scale?fieldManager=replace_test`, {
      body: scaleBody(name, 7),
    });
    expect(put.status).toBe(200);
    obj = await get();
    expect(obj.spec.replicas).toBe(7);
    expect(replicasOwners(obj)).toEqual(['replace_test']);

    // Applying the same value co-owns them.
    expect((await patch(`${name}/scale`, 'co_owning_test', scaleBody(name, 7), APPLY)).status).toBe(200);
    obj = await get();
    expect(obj.spec.replicas).toBe(7);
    expect(replicasOwners(obj)).toEqual(['co_owning_test', 'replace_test']);

    // Scaling again leaves one owner.
    expect((await patch(`${name}/scale`, 'scale_test', { spec: { replicas: 5 } }, MERGE)).status).toBe(200);
    obj = await get();
    expect(obj.spec.replicas).toBe(5);
    expect(replicasOwners(obj)).toEqual(['scale_test']);
  });
});
