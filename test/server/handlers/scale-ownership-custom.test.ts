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
import { APPLY, MERGE, scaleBody } from './scale-ownership-fixture.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
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
