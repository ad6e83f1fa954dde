/**
 * Field ownership through the `scale` subresource: updates, merge patches and server-side apply
 * of an autoscaling/v1 Scale, as kube-apiserver keeps them (apimachinery managedfields
 * scalehandler.go; the scenario of kubernetes test/integration/apiserver/apply/scale_test.go
 * `TestScaleAllResources` and `TestScaleUpdateOnlyStatus`, run here step by step for every
 * scalable built-in kind and for a custom kind), plus the handler's two conversions on their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toParentEntries, toSubresourceEntries } from '../../../src/server/handlers/scale-ownership.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const MERGE = { 'content-type': 'application/merge-patch+json' };

function workload(kind: string, name: string) {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name },
    spec: {
      replicas: 1,
      ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
      },
    },
  };
}

const scaleBody = (name: string, replicas: number) => ({
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  metadata: { name, namespace: 'default' },
  spec: { replicas },
});

/** The managers whose entry owns the replicas path (scale_test.go `assertReplicasOwnership`). */
function replicasOwners(obj: any, path: string[] = ['spec', 'replicas']): string[] {
  const owners: string[] = [];
  for (const e of obj.metadata.managedFields ?? []) {
    let node = e.fieldsV1;
    for (const part of path) node = node?.[`f:${part}`];
    if (node !== undefined) owners.push(e.manager);
  }
  return owners.sort();
}

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

describe('a custom kind with a scale subresource', () => {
  const CRD = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'pools.scale.example.com' },
    spec: {
      group: 'scale.example.com',
      scope: 'Namespaced',
      names: { plural: 'pools', singular: 'pool', kind: 'Pool', listKind: 'PoolList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { size: { type: 'integer' }, image: { type: 'string' } },
                },
                status: { type: 'object', properties: { size: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  };
  const base = '/apis/scale.example.com/v1/namespaces/default/pools';

  beforeAll(async () => {
    const r = await call(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: CRD,
    });
    expect(r.status).toBe(201);
    for (let i = 0; i < 200; i++) {
      const d = await call(server, 'GET', '/apis/scale.example.com/v1');
      if (d.status === 200) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error('pools never served');
  });

  const pool = (name: string, size?: number) => ({
    apiVersion: 'scale.example.com/v1',
    kind: 'Pool',
    metadata: { name },
    spec: { image: 'x', ...(size === undefined ? {} : { size }) },
  });

  // kube-apiserver 1.37 cannot apply a custom resource's Scale: the scale scope's field manager
  // converts with the custom resource's converter, which refuses autoscaling/v1
  // (customresource_handler.go scopeWithFieldManager; conversion/converter.go). Conflicts are
  // found first; a merge that would change the Scale, or a first apply, is a reasonless 500 (named
  // by the configuration's namespace/name).
  it("apply conflicts on the specReplicasPath; a forced apply that changes the Scale is the converter's 500", async () => {
    expect(
      (await call(server, 'PATCH', `${base}/p1?fieldManager=owner`, { body: pool('p1', 2), headers: APPLY }))
        .status,
    ).toBe(201);
    const conflict = await call(server, 'PATCH', `${base}/p1/scale?fieldManager=hpa`, {
      body: scaleBody('p1', 4),
      headers: APPLY,
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "owner": .spec.replicas');
    const forced = await call(server, 'PATCH', `${base}/p1/scale?fieldManager=hpa&force=true`, {
      body: scaleBody('p1', 4),
      headers: APPLY,
    });
    expect([forced.status, forced.body]).toEqual([
      500,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'failed to convert new object (default/p1; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1',
        code: 500,
      },
    ]);
    const obj = (await call(server, 'GET', `${base}/p1`)).body;
    expect(obj.spec.size).toBe(2);
    expect(obj.metadata.managedFields.map((e: any) => e.manager)).toEqual(['owner']);
  });

  it('a scale update of an object whose replicas nobody owns records nothing (skipnonapplied.go)', async () => {
    // p2 has no spec.size: GET /scale is ScaleREST.Get's 500, but a write starts from a Scale
    // whose replicas are invalidSpecReplicas (etcd.go scaleUpdatedObjectInfo), and must set them.
    await call(server, 'PATCH', `${base}/p2?fieldManager=owner`, { body: pool('p2'), headers: APPLY });
    const get = await call(server, 'GET', `${base}/p2/scale`);
    expect([get.status, get.body.message]).toEqual([
      500,
      'Internal error occurred: the spec replicas field ".spec.size" does not exist',
    ]);
    const unset = await call(server, 'PATCH', `${base}/p2/scale?fieldManager=scaler`, {
      body: { metadata: { labels: { a: 'b' } } },
      headers: MERGE,
    });
    expect([unset.status, unset.body.reason, unset.body.message]).toEqual([
      400,
      'BadRequest',
      'the spec replicas field ".spec.size" cannot be empty',
    ]);
    const r = await call(server, 'PATCH', `${base}/p2/scale?fieldManager=scaler`, {
      body: { spec: { replicas: 3 } },
      headers: MERGE,
    });
    expect(r.status).toBe(200);
    expect(r.body.spec).toEqual({ replicas: 3 });
    const obj = (await call(server, 'GET', `${base}/p2`)).body;
    expect(obj.spec.size).toBe(3);
    expect(obj.metadata.managedFields.map((e: any) => e.manager)).toEqual(['owner']);
    // An apply on a Scale with no managers first gives what it holds to `before-first-apply`
    // (skipnonapplied.go `Apply`), through the custom resource converter: the 500, dry run or not.
    for (const query of ['', '&dryRun=All']) {
      const applied = await call(server, 'PATCH', `${base}/p2/scale?fieldManager=hpa${query}`, {
        body: scaleBody('p2', 3),
        headers: APPLY,
      });
      expect([applied.status, applied.body.message]).toEqual([
        500,
        'failed to create manager for existing fields: failed to convert live object (/; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1',
      ]);
    }
    const after = (await call(server, 'GET', `${base}/p2`)).body;
    expect(after.metadata.resourceVersion).toBe(obj.metadata.resourceVersion);
  });

  it('a PUT of a Scale without replicas sets 0 (the Go zero value), as kube-apiserver does', async () => {
    await call(server, 'PATCH', `${base}/p3?fieldManager=owner`, { body: pool('p3'), headers: APPLY });
    const r = await call(server, 'PUT', `${base}/p3/scale`, {
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'p3', namespace: 'default' },
        spec: {},
      },
    });
    expect([r.status, r.body.spec]).toEqual([200, {}]);
    expect((await call(server, 'GET', `${base}/p3`)).body.spec.size).toBe(0);
  });
});

describe('ToSubresource and ToParent', () => {
  const mappings = new Map<string, string | null>([
    ['apps/v1', 'spec.replicas'],
    ['apps/v1beta2', 'spec.replicas'],
  ]);
  const entry = (manager: string, operation: string, apiVersion: string, fieldsV1: unknown, extra = {}) => ({
    manager,
    operation,
    apiVersion,
    fieldsType: 'FieldsV1',
    fieldsV1,
    ...extra,
  });
  const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
  const SELECTOR = { 'f:spec': { 'f:selector': {} } };

  it('ToSubresource keeps the owners of the replicas, at autoscaling/v1, and skips unknown versions', () => {
    const out = toSubresourceEntries(
      [
        entry('a', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }),
        entry('b', 'Apply', 'apps/v1', SELECTOR),
        entry('c', 'Update', 'apps/v10', REPLICAS),
        entry('d', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' }),
      ],
      mappings,
    );
    expect(out).toEqual([
      entry('a', 'Apply', 'autoscaling/v1', REPLICAS),
      entry('d', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale' }),
    ]);
  });

  it('ToParent: a new scale owner steals the replicas; an entry at an unknown version is dropped', () => {
    const parent = [
      entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }),
      entry('old', 'Update', 'extensions/v1beta1', SELECTOR),
    ];
    const scale = [entry('scale', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale' })];
    expect(toParentEntries(parent, scale, mappings, 'apps/v1')).toEqual([
      entry('test', 'Apply', 'apps/v1', SELECTOR),
      entry('scale', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' }),
    ]);
  });

  it('ToParent: an applier still in the Scale keeps its entry whole, with its time', () => {
    const parent = [
      entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }, {}),
    ];
    (parent[0] as Record<string, unknown>).time = '2026-01-01T00:00:00Z';
    const scale = [entry('test', 'Apply', 'autoscaling/v1', REPLICAS)];
    expect(toParentEntries(parent, scale, mappings, 'apps/v1')).toEqual(parent);
  });

  it('ToParent: an Update owner is keyed by its apiVersion, so its Scale form comes back as a second entry', () => {
    // scalehandler.go compares identifiers, and an Update's holds its apiVersion: apps/v1 in the
    // parent, autoscaling/v1 in the Scale. The parent entry loses the replicas and the Scale's
    // comes back beside it, at apps/v1 and without a time.
    const parent = [
      {
        ...entry('creator', 'Update', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } }),
        time: '2026-01-01T00:00:00Z',
      },
    ];
    const scale = toSubresourceEntries(parent, mappings);
    expect(toParentEntries(parent, scale, mappings, 'apps/v1')).toEqual([
      entry('creator', 'Update', 'apps/v1', REPLICAS),
      { ...entry('creator', 'Update', 'apps/v1', SELECTOR), time: '2026-01-01T00:00:00Z' },
    ]);
  });
});
