/**
 * Field sets recorded under an older schema are brought in line with the current one before
 * each update and apply (structured-merge-diff typed/reconcile_schema.go
 * `ReconcileFieldSetWithSchema`): on hand-built schemas, then over HTTP with a CRD whose list
 * changes from `set` to `atomic` between two applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import type { FieldsV1 } from '../../../src/server/ssa/fields-v1.js';
import { SCALAR, UNTYPED } from '../../../src/server/ssa/merge-schema.js';
import { reconcileFieldsV1 } from '../../../src/server/ssa/reconcile.js';
import { installCrd } from '../../helpers/crds.js';
import { call, startTestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';
import { atomicList, mapList, mapOf, setList, struct } from './schema-fixture.js';

const S = SCALAR;
const SCHEMA = struct({
  spec: struct({
    items: atomicList(),
    labels: mapOf(S, true),
    selector: struct({ app: S }, { atomic: true }),
    keyed: mapList(['name'], struct({ name: S, tags: atomicList(), extra: setList() })),
    open: UNTYPED,
    granular: setList(),
  }),
});

describe('reconcileFieldsV1', () => {
  it('collapses what a manager owns inside an atomic list or map into the list or map', () => {
    expect(reconcileFieldsV1({ 'f:spec': { 'f:items': { 'v:"a"': {}, 'v:"b"': {} } } }, SCHEMA)).toEqual({
      'f:spec': { 'f:items': {} },
    });
    expect(
      reconcileFieldsV1({ 'f:spec': { 'f:labels': { '.': {}, 'f:x': {} }, 'f:other': {} } }, SCHEMA),
    ).toEqual({ 'f:spec': { 'f:labels': {}, 'f:other': {} } });
    expect(reconcileFieldsV1({ 'f:spec': { 'f:selector': { 'f:app': {} } } }, SCHEMA)).toEqual({
      'f:spec': { 'f:selector': {} },
    });
  });

  it('reaches atomic lists inside keyed list items, and leaves the rest of the item', () => {
    const raw = {
      'f:spec': {
        'f:keyed': {
          'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:tags': { 'v:"t"': {} }, 'f:extra': { 'v:"e"': {} } },
        },
      },
    };
    expect(reconcileFieldsV1(raw, SCHEMA)).toEqual({
      'f:spec': {
        'f:keyed': { 'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:tags': {}, 'f:extra': { 'v:"e"': {} } } },
      },
    });
    // The input is not changed.
    expect(raw['f:spec']['f:keyed']['k:{"name":"a"}']['f:tags']).toEqual({ 'v:"t"': {} });
  });

  it('changes nothing where sets already agree, under untyped or unknown fields, or for granular types', () => {
    for (const raw of <FieldsV1[]>[
      { 'f:spec': { 'f:items': {}, 'f:labels': {} } },
      { 'f:spec': { 'f:open': { 'f:a': { 'f:b': {} } } } },
      { 'f:spec': { 'f:unknown': { 'f:a': {} } } },
      { 'f:spec': { 'f:granular': { 'v:"x"': {} } } },
      { 'f:metadata': { 'f:labels': { 'f:a': {} } } },
    ]) {
      expect(reconcileFieldsV1(raw, SCHEMA)).toBeUndefined();
    }
  });
});

describe('a CRD whose list changes from set to atomic', () => {
  let server: RunningServer;
  const crd = (listType: 'set' | 'atomic') => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gates.reconcile.example.com' },
    spec: {
      group: 'reconcile.example.com',
      scope: 'Namespaced',
      names: { plural: 'gates', singular: 'gate', kind: 'Gate', listKind: 'GateList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    ports: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-list-type': listType },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
  const GATES = '/apis/reconcile.example.com/v1/namespaces/default/gates';
  const gate = (ports: number[]) => ({
    apiVersion: 'reconcile.example.com/v1',
    kind: 'Gate',
    metadata: { name: 'g' },
    spec: { ports },
  });
  const apply = (manager: string, body: unknown) =>
    call(server, 'PATCH', `${GATES}/g?fieldManager=${manager}`, {
      body,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });

  beforeAll(async () => {
    server = await startTestServer();
    await installCrd(server, crd('set'));
  });
  afterAll(async () => {
    await server.close();
  });

  it('items owned under the set become the atomic list, and a later apply conflicts with their owner', async () => {
    expect((await apply('a', gate([1]))).status).toBe(201);
    const b = await apply('b', gate([2]));
    expect(b.status).toBe(200);
    expect(b.body.spec.ports).toEqual([1, 2]);
    const entries = (obj: any) =>
      Object.fromEntries(obj.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1]));
    expect(entries(b.body)).toEqual({
      a: { 'f:spec': { 'f:ports': { 'v:1': {} } } },
      b: { 'f:spec': { 'f:ports': { 'v:2': {} } } },
    });

    // The author makes the list atomic.
    const current = (
      await call(
        server,
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gates.reconcile.example.com',
      )
    ).body;
    const next = crd('atomic');
    const put = await call(
      server,
      'PUT',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gates.reconcile.example.com',
      {
        body: { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } },
      },
    );
    expect(put.status).toBe(200);
    await waitUntil(async () => {
      const doc = await call(server, 'GET', '/openapi/v3/apis/reconcile.example.com/v1');
      return JSON.stringify(doc.body).includes('"x-kubernetes-list-type":"atomic"');
    }, 'the atomic schema to be served');

    // b now applies another list: the list is one leaf, which a owns too, with another value.
    const conflict = await apply('b', gate([3]));
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.ports');

    // b re-applying what is there co-owns the leaf: both entries are reconciled into it.
    const same = await apply('b', gate([1, 2]));
    expect(same.status).toBe(200);
    expect(entries(same.body)).toEqual({
      a: { 'f:spec': { 'f:ports': {} } },
      b: { 'f:spec': { 'f:ports': {} } },
    });
  });
});
