/**
 * `/openapi/v2` with custom resources: apiextensions-apiserver's v2 schema rules
 * (ToStructuralOpenAPIV2, PruneDefaults, no embedded metadata under preserve-unknown-fields)
 * and the gnostic protobuf form kubectl reads.
 */
import { describe, expect, it } from 'vitest';
import { KindTable } from '../../../src/server/kinds/served/kind-table.js';
import { customKindSchema } from '../../../src/server/openapi/custom-schema.js';
import { openApiV2Response } from '../../../src/server/openapi/openapi.js';
import { widgetKind } from './custom-kinds.js';

type Json = Record<string, any>;
const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

async function v2(kinds: KindTable): Promise<Json> {
  const answer = await openApiV2Response(kinds.all(), 'application/json');
  return JSON.parse(answer.body.toString());
}

/** The top-level fields of a protobuf message: field number → the length-delimited payloads. */
function fields(bytes: Buffer): Map<number, Buffer[]> {
  const out = new Map<number, Buffer[]>();
  let i = 0;
  const varint = () => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[i++]!;
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return n;
    }
  };
  while (i < bytes.length) {
    const tag = varint();
    const [field, wire] = [Math.floor(tag / 8), tag % 8];
    if (wire === 2) {
      const len = varint();
      out.set(field, [...(out.get(field) ?? []), bytes.subarray(i, i + len)]);
      i += len;
    } else if (wire === 0) varint();
    else if (wire === 1) i += 8;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

describe('/openapi/v2 with custom resources', () => {
  const table = new KindTable();
  table.add(widgetKind('v1'));

  it('converts the schema with the v2 rules', async () => {
    const doc = await v2(table);
    const widget = doc.definitions['com.example.v1.Widget'];
    expect(widget['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
    expect(widget.properties.metadata).toEqual({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      description: expect.stringMatching(/^Standard object's metadata/),
    });
    const spec = widget.properties.spec.properties;
    // No junctors: int-or-string's unfolded anyOf and oneOf are gone.
    expect(spec.port).toEqual({
      description: 'port, a number or a name.',
      'x-kubernetes-int-or-string': true,
    });
    expect(spec.either.oneOf).toBeUndefined();
    // Nullable: untyped. Defaults pruned.
    expect(spec.note).toEqual({});
    expect(spec.color).toEqual({
      description: 'color of the widget.',
      type: 'string',
      enum: ['red', 'blue'],
    });
    // Preserve-unknown-fields: no type, no properties, and no embedded apiVersion/kind/metadata.
    expect(spec.template).toEqual({
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(doc.definitions['com.example.v1.WidgetList'].properties.items.items).toEqual({
      $ref: '#/definitions/com.example.v1.Widget',
    });
  });

  it('drops a nullable property from required, and publishes a root preserving unknown fields as a bare object', async () => {
    const kinds = new KindTable();
    kinds.add(
      widgetKind('v1', {
        schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              required: ['a', 'b'],
              properties: { a: { type: 'string', nullable: true }, b: { type: 'string' } },
            },
          },
        },
      }),
    );
    expect((await v2(kinds)).definitions['com.example.v1.Widget'].properties.spec.required).toEqual(['b']);
    const open = new KindTable();
    open.add(widgetKind('v1', { schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }));
    expect((await v2(open)).definitions['com.example.v1.Widget']).toEqual({
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'Widget', version: 'v1' }],
    });
  });

  it('has the paths as v2 operations: consumes, produces, a body parameter', async () => {
    const doc = await v2(table);
    const patch = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patch.consumes).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(patch.produces).toEqual(['application/json', 'application/yaml']);
    // The body (meta/v1 Patch) is shared in the top-level table; fieldValidation stays inline (kubectl reads it).
    const body = patch.parameters[0].$ref.replace('#/parameters/', '');
    expect(body).toMatch(/^body-[\w-]{8}$/);
    expect(doc.parameters[body]).toEqual({
      name: 'body',
      in: 'body',
      required: true,
      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
    expect(patch.parameters.map((p: Json) => p.name)).toContain('fieldValidation');
    const read = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].get;
    expect(read.responses['200'].schema).toEqual({ $ref: '#/definitions/com.example.v1.Widget' });
    // Built-in kinds are there too.
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']).toBeDefined();
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments']).toBeDefined();
  });

  it('encodes gnostic openapi_v2.Document for kubectl: swagger, info, paths, one NamedSchema per definition', async () => {
    const doc = await v2(table);
    const proto = await openApiV2Response(table.all(), PROTOBUF);
    const top = fields(proto.body);
    expect(top.get(1)![0]!.toString()).toBe('2.0');
    expect(fields(top.get(2)![0]!).get(1)![0]!.toString()).toBe('Kubernetes');
    expect(fields(top.get(8)![0]!).get(2)!.length).toBe(Object.keys(doc.paths).length);
    const named = fields(top.get(9)![0]!).get(1)!;
    expect(named.map((n) => fields(n).get(1)![0]!.toString())).toEqual(Object.keys(doc.definitions));
    // The shared parameters (ParameterDefinitions) and the BearerToken scheme.
    const parameters = fields(top.get(10)![0]!).get(1)!;
    expect(parameters.map((n) => fields(n).get(1)![0]!.toString())).toEqual(Object.keys(doc.parameters));
    expect(top.get(13)![0]!.toString()).toContain('BearerToken');
    // Built once per kind table.
    expect((await openApiV2Response(table.all(), PROTOBUF)).body).toBe(proto.body);
  });
});

describe('the int-or-string, preserve-unknown-fields and embedded cases of builder_test.go', () => {
  // apiextensions-apiserver pkg/controller/openapi/builder/builder_test.go, "with extensions".
  const intOrString = [{ type: 'integer' }, { type: 'string' }];
  const schema = {
    type: 'object',
    properties: {
      'int-or-string-1': { 'x-kubernetes-int-or-string': true, anyOf: intOrString },
      'int-or-string-2': {
        'x-kubernetes-int-or-string': true,
        allOf: [{ anyOf: intOrString }, { anyOf: [{ minimum: 42 }] }],
      },
      'int-or-string-3': {
        'x-kubernetes-int-or-string': true,
        anyOf: intOrString,
        allOf: [{ anyOf: [{ minimum: 42 }] }],
      },
      'int-or-string-4': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42 }] },
      'int-or-string-5': {
        'x-kubernetes-int-or-string': true,
        anyOf: [{ minimum: 42 }],
        allOf: [{ minimum: 42 }],
      },
      'int-or-string-6': { 'x-kubernetes-int-or-string': true },
      'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
      'embedded-object': {
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
        type: 'object',
      },
    },
  };
  const input = {
    group: 'bar.k8s.io',
    version: 'v1',
    kind: 'Foo',
    openAPIV3Schema: schema,
    selectableFields: [],
  };

  it('v2: every junctor gone, the embedded object untyped and without metadata', () => {
    const v2 = customKindSchema(input, 'v2') as Json;
    const names = Object.keys(schema.properties);
    for (const name of names.filter((n) => n.startsWith('int-or-string'))) {
      expect(v2.properties[name]).toEqual({ 'x-kubernetes-int-or-string': true });
    }
    expect(v2.properties['preserve-unknown-fields']).toEqual({
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(v2.properties['embedded-object']).toEqual({
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(v2['x-kubernetes-group-version-kind']).toEqual([
      { group: 'bar.k8s.io', kind: 'Foo', version: 'v1' },
    ]);
  });

  it('v3: Unfold adds the int-or-string anyOf only where neither pattern is there', () => {
    const p = (customKindSchema(input, 'v3') as Json).properties;
    expect(p['int-or-string-1'].anyOf).toEqual(intOrString);
    expect(p['int-or-string-1'].allOf).toBeUndefined();
    expect(p['int-or-string-2'].allOf).toEqual([{ anyOf: intOrString }, { anyOf: [{ minimum: 42 }] }]);
    expect(p['int-or-string-3'].allOf).toEqual([{ anyOf: [{ minimum: 42 }] }]);
    expect(p['int-or-string-4']).toMatchObject({ anyOf: [{ minimum: 42 }], allOf: [{ anyOf: intOrString }] });
    expect(p['int-or-string-5']).toMatchObject({
      anyOf: [{ minimum: 42 }],
      allOf: [{ anyOf: intOrString }, { minimum: 42 }],
    });
    expect(p['int-or-string-6'].anyOf).toEqual(intOrString);
    // v3 keeps the embedded object's type and gives it apiVersion, kind and metadata.
    expect(p['embedded-object']).toMatchObject({ type: 'object', required: ['kind', 'apiVersion'] });
    expect(Object.keys(p['embedded-object'].properties)).toEqual(['apiVersion', 'kind', 'metadata']);
  });
});
