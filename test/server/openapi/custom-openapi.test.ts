/**
 * OpenAPI v3 of custom resources, from a KindTable holding hand-made custom kinds: the
 * documents apiextensions-apiserver's builder.go and openapiv3 controller publish.
 */
import { describe, expect, it } from 'vitest';
import { KindTable } from '../../../src/server/kinds/served/kind-table.js';
import {
  buildOpenApiV3,
  openApiV3GroupDocument,
  servedOpenApiV3,
} from '../../../src/server/openapi/openapi.js';
import { loadApiDescriptions } from '../../../src/server/openapi/openapi-descriptions.js';
import { gadgetKind, widgetKind } from './custom-kinds.js';

type Json = Record<string, any>;

function tableWithWidgets(): KindTable {
  const table = new KindTable();
  table.add(widgetKind('v1', { servedVersions: ['v1', 'v1beta1'] }));
  table.add(widgetKind('v1beta1', { servedVersions: ['v1', 'v1beta1'] }));
  return table;
}

describe('/openapi/v3 with custom resources', () => {
  it('lists apis/<group>/<version> for every served custom group-version, with its hash', () => {
    const table = tableWithWidgets();
    table.add(gadgetKind());
    const { root, documents } = buildOpenApiV3(table.all());
    expect(Object.keys(root.paths)).toEqual(
      expect.arrayContaining([
        'apis/example.com/v1',
        'apis/example.com/v1beta1',
        'apis/tools.example.org/v1beta1',
      ]),
    );
    const doc = documents.get('apis/example.com/v1')!;
    expect(root.paths['apis/example.com/v1']!.serverRelativeURL).toBe(
      `/openapi/v3/apis/example.com/v1?hash=${doc.hash}`,
    );
  });

  it('rebuilds when a kind is added or removed, and the hash follows', () => {
    const table = new KindTable();
    const before = buildOpenApiV3(table.all());
    expect(before.documents.has('apis/example.com/v1')).toBe(false);
    const widget = widgetKind('v1');
    table.add(widget);
    const added = buildOpenApiV3(table.all());
    expect(added).not.toBe(before);
    expect(added.documents.has('apis/example.com/v1')).toBe(true);
    expect(buildOpenApiV3(table.all())).toBe(added);
    table.remove(widget);
    expect(buildOpenApiV3(table.all()).documents.has('apis/example.com/v1')).toBe(false);
  });

  it('changes the document hash when the definition schema changes', () => {
    const a = new KindTable();
    a.add(widgetKind('v1'));
    const b = new KindTable();
    b.add(widgetKind('v1', { schema: { type: 'object', properties: { spec: { type: 'object' } } } }));
    const hashA = buildOpenApiV3(a.all()).documents.get('apis/example.com/v1')!.hash;
    const hashB = buildOpenApiV3(b.all()).documents.get('apis/example.com/v1')!.hash;
    expect(hashA).not.toBe(hashB);
  });

  const doc = openApiV3GroupDocument(tableWithWidgets().all(), 'example.com', 'v1') as unknown as Json;

  it('is the CRD document: its info, the paths of the verbs and subresources', () => {
    expect(doc.info).toEqual({ title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/apis/example.com/v1/namespaces/{namespace}/widgets',
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}',
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale',
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status',
      '/apis/example.com/v1/widgets',
    ]);
    const ids = Object.values(doc.paths).flatMap((item: any) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => item[m].operationId),
    );
    expect(ids.sort()).toEqual([
      'createExampleComV1NamespacedWidget',
      'deleteExampleComV1CollectionNamespacedWidget',
      'deleteExampleComV1NamespacedWidget',
      'listExampleComV1NamespacedWidget',
      'listExampleComV1WidgetForAllNamespaces',
      'patchExampleComV1NamespacedWidget',
      'patchExampleComV1NamespacedWidgetScale',
      'patchExampleComV1NamespacedWidgetStatus',
      'readExampleComV1NamespacedWidget',
      'readExampleComV1NamespacedWidgetScale',
      'readExampleComV1NamespacedWidgetStatus',
      'replaceExampleComV1NamespacedWidget',
      'replaceExampleComV1NamespacedWidgetScale',
      'replaceExampleComV1NamespacedWidgetStatus',
    ]);
    const item = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'];
    expect(item.get.tags).toEqual(['exampleCom_v1']);
    expect(item.get.description).toBe('read the specified Widget');
    expect(item.delete.description).toBe('delete a Widget');
    expect(item.patch['x-kubernetes-group-version-kind']).toEqual({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
    });
    expect(item.get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/com.example.v1.Widget',
    });
  });

  it('takes no strategic merge patch, so kubectl sends a merge patch; it lists fieldValidation', () => {
    const patch = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    // Sorted, as Go writes the content map.
    expect(Object.keys(patch.requestBody.content)).toEqual([
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
    ]);
    expect(patch.parameters.map((p: Json) => p.name)).toContain('fieldValidation');
  });

  it('points /scale at autoscaling/v1 Scale, in the document', () => {
    const scale = doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale'];
    expect(scale.get.description).toBe('read scale of the specified Widget');
    // builder.go tags every route with the custom kind, /scale's too (unlike the built-ins').
    expect(scale.patch['x-kubernetes-group-version-kind']).toEqual({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
    });
    expect(scale.put.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale',
    });
    expect(
      doc.components.schemas['io.k8s.api.autoscaling.v1.Scale']['x-kubernetes-group-version-kind'],
    ).toEqual([{ group: 'autoscaling', kind: 'Scale', version: 'v1' }]);
  });

  it('names the schemas after the reversed group, with the meta types they refer to', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining([
        'com.example.v1.Widget',
        'com.example.v1.WidgetList',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
        'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      ]),
    );
    // Every reference resolves inside the document.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[^"]+/g) ?? [];
    for (const ref of new Set(refs)) expect(names).toContain(ref.slice('#/components/schemas/'.length));
  });

  it('converts the version schema as builder.go does', () => {
    const widget = doc.components.schemas['com.example.v1.Widget'];
    expect(widget['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
    expect(widget.description).toBe('Widget is a thing with a size.');
    expect(Object.keys(widget.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(widget.properties.apiVersion).toEqual({
      description: expect.stringMatching(/^APIVersion defines the versioned schema/),
      type: 'string',
    });
    expect(widget.properties.metadata).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
      description: expect.stringMatching(/^Standard object's metadata/),
    });
    const spec = widget.properties.spec;
    expect(spec.required).toEqual(['size']);
    expect(spec['x-kubernetes-validations']).toEqual([{ rule: 'self.size < 100', message: 'too big' }]);
    expect(spec.properties.color).toEqual({
      description: 'color of the widget.',
      type: 'string',
      default: 'red',
      enum: ['red', 'blue'],
    });
    expect(spec.properties.port).toEqual({
      description: 'port, a number or a name.',
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    });
    expect(spec.properties.note).toEqual({ type: 'string', nullable: true });
    expect(spec.properties.either.oneOf).toEqual([{ required: ['a'] }, { required: ['b'] }]);
    // An embedded resource gets apiVersion, kind and metadata, and requires the first two.
    const template = spec.properties.template;
    expect(Object.keys(template.properties)).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(template.required).toEqual(['kind', 'apiVersion']);
    expect(template.properties.kind.description).toMatch(/^kind is a string value representing the type/);
  });

  it('has the list schema of buildListSchema', () => {
    const list = doc.components.schemas['com.example.v1.WidgetList'];
    expect(list).toEqual({
      description: 'WidgetList is a list of Widget',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { description: expect.any(String), type: 'string' },
        items: {
          description:
            'List of widgets. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md',
          type: 'array',
          items: { $ref: '#/components/schemas/com.example.v1.Widget' },
        },
        kind: { description: expect.any(String), type: 'string' },
        metadata: {
          allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }],
          description: expect.stringMatching(/^Standard list metadata/),
        },
      },
      'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'WidgetList', version: 'v1' }],
    });
  });

  it('publishes a version without a schema as a bare object', () => {
    const table = new KindTable();
    table.add(gadgetKind());
    const gadgets = openApiV3GroupDocument(table.all(), 'tools.example.org', 'v1beta1') as unknown as Json;
    expect(gadgets.components.schemas['org.example.tools.v1beta1.Gadget']).toEqual({
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'tools.example.org', kind: 'Gadget', version: 'v1beta1' }],
    });
    expect(Object.keys(gadgets.paths).sort()).toEqual([
      '/apis/tools.example.org/v1beta1/gadgets',
      '/apis/tools.example.org/v1beta1/gadgets/{name}',
    ]);
    expect(gadgets.paths['/apis/tools.example.org/v1beta1/gadgets'].get.operationId).toBe(
      'listToolsExampleOrgV1beta1Gadget',
    );
  });

  it('carries the upstream descriptions of the meta types when served', async () => {
    const served = await servedOpenApiV3(tableWithWidgets().all());
    const body = JSON.parse(served.documents.get('apis/example.com/v1')!.body) as Json;
    const meta = body.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
    expect(meta.description).toMatch(/^ObjectMeta is metadata/);
    expect(meta.properties.finalizers['x-kubernetes-patch-strategy']).toBe('merge');
    expect(await loadApiDescriptions()).toBeDefined();
  });
});
