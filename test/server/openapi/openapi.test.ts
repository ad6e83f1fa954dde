import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import type { ResourceKind } from '../../../src/server/kinds/types.js';
import {
  buildOpenApiV3,
  type OpenApiV3GroupDocument,
  openApiV2Response,
  openApiV3GroupDocument,
  openApiV3Key,
  servedOpenApiV3,
} from '../../../src/server/openapi/openapi.js';
import { loadApiDescriptions } from '../../../src/server/openapi/openapi-descriptions.js';
import { componentSchemas, type OpenApiSchema } from '../../../src/server/openapi/openapi-schemas.js';
import { KINDS } from '../fixtures/kinds.js';

/**
 * What kubectl 1.29+ checks before trusting server-side field validation: some PATCH operation
 * tagged with the kind's GVK lists `fieldValidation` as a query parameter.
 */
function supportsFieldValidation(
  doc: OpenApiV3GroupDocument,
  gvk: { group: string; version: string; kind: string },
) {
  return Object.values(doc.paths).some((item) => {
    const patch = item.patch;
    if (!patch) return false;
    const g = patch['x-kubernetes-group-version-kind'];
    if (g?.group !== gvk.group || g.version !== gvk.version || g.kind !== gvk.kind) return false;
    return (patch.parameters ?? []).some((p) => p.name === 'fieldValidation' && p.in === 'query');
  });
}

describe('/openapi/v3 root', () => {
  const { root, documents } = buildOpenApiV3(KINDS);

  it('lists every group-version, group and server web service with a serverRelativeURL carrying the document hash', () => {
    // Sorted, as Go writes the map; a document per web service as kube-apiserver registers them.
    expect(Object.keys(root.paths)).toEqual([
      '.well-known/openid-configuration',
      'api',
      'api/v1',
      'apis',
      'apis/apps',
      'apis/apps/v1',
      'apis/coordination.k8s.io',
      'apis/coordination.k8s.io/v1',
      'openid/v1/jwks',
      'version',
    ]);
    for (const [key, { serverRelativeURL }] of Object.entries(root.paths)) {
      const doc = documents.get(key)!;
      const expected = createHash('sha512').update(doc.body).digest('hex').toUpperCase();
      expect(doc.hash).toBe(expected);
      expect(serverRelativeURL).toBe(`/openapi/v3/${key}?hash=${expected}`);
    }
  });

  it('serves bodies that are the group documents', () => {
    const apps = JSON.parse(documents.get('apis/apps/v1')!.body);
    expect(apps).toEqual(openApiV3GroupDocument(KINDS, 'apps', 'v1'));
  });

  it('changes the hash when the document changes', () => {
    const other = buildOpenApiV3(KINDS.filter((k) => k.kind !== 'Pod'));
    expect(other.documents.get('api/v1')!.hash).not.toBe(documents.get('api/v1')!.hash);
    expect(other.documents.get('apis/apps/v1')!.hash).toBe(documents.get('apis/apps/v1')!.hash);
  });

  it('keys core as api/<v> and groups as apis/<g>/<v>', () => {
    expect(openApiV3Key('', 'v1')).toBe('api/v1');
    expect(openApiV3Key('coordination.k8s.io', 'v1')).toBe('apis/coordination.k8s.io/v1');
  });
});

describe('/openapi/v3 group documents', () => {
  it('has a PATCH op with fieldValidation for every kind (what apply needs)', () => {
    const gvks = [
      ...KINDS.map((k: ResourceKind) => ({ group: k.group, version: k.version, kind: k.kind })),
      { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    ];
    const docs = [
      openApiV3GroupDocument(KINDS, '', 'v1'),
      openApiV3GroupDocument(KINDS, 'apps', 'v1'),
      openApiV3GroupDocument(KINDS, 'coordination.k8s.io', 'v1'),
    ];
    for (const gvk of gvks)
      expect(
        docs.some((d) => supportsFieldValidation(d, gvk)),
        gvk.kind,
      ).toBe(true);
  });

  it('is an OpenAPI 3.0.0 document with components.schemas', () => {
    const doc = openApiV3GroupDocument(KINDS, 'apps', 'v1');
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: '1.37' });
    expect(doc.components.schemas['io.k8s.api.apps.v1.Deployment']).toBeDefined();
  });

  it('has the namespaced paths and operations of the real document', () => {
    const doc = openApiV3GroupDocument(KINDS, 'apps', 'v1');
    const base = '/apis/apps/v1/namespaces/{namespace}/deployments';
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/apis/apps/v1/',
        base,
        `${base}/{name}`,
        `${base}/{name}/scale`,
        `${base}/{name}/status`,
        '/apis/apps/v1/deployments',
        '/apis/apps/v1/watch/deployments',
        '/apis/apps/v1/watch/namespaces/{namespace}/deployments',
        '/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}',
      ].sort(),
    );
    const ids = (path: string) =>
      Object.fromEntries(
        Object.entries(doc.paths[path]!)
          .filter(([m]) => m !== 'parameters')
          .map(([m, op]) => [m, (op as { operationId: string }).operationId]),
      );
    expect(ids(base)).toEqual({
      get: 'listAppsV1NamespacedDeployment',
      post: 'createAppsV1NamespacedDeployment',
      delete: 'deleteAppsV1CollectionNamespacedDeployment',
    });
    expect(ids(`${base}/{name}`)).toEqual({
      get: 'readAppsV1NamespacedDeployment',
      put: 'replaceAppsV1NamespacedDeployment',
      delete: 'deleteAppsV1NamespacedDeployment',
      patch: 'patchAppsV1NamespacedDeployment',
    });
    expect(ids('/apis/apps/v1/deployments')).toEqual({ get: 'listAppsV1DeploymentForAllNamespaces' });
    expect(doc.paths[`${base}/{name}/scale`]!.patch!['x-kubernetes-group-version-kind']).toEqual({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    expect(doc.paths[`${base}/{name}`]!.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual([
      'path:name',
      'path:namespace',
      'query:pretty',
    ]);
    const patch = doc.paths[`${base}/{name}`]!.patch!;
    expect(patch['x-kubernetes-action']).toBe('patch');
    expect(Object.keys(patch.requestBody!.content)).toContain('application/strategic-merge-patch+json');
    expect(patch.parameters!.map((p) => p.name)).toEqual([
      'dryRun',
      'fieldManager',
      'fieldValidation',
      'force',
    ]);
    const list = doc.paths[base]!.get!;
    expect(list.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['watch', 'allowWatchBookmarks', 'sendInitialEvents', 'labelSelector', 'limit']),
    );
  });

  it('has cluster-scoped paths without a namespace', () => {
    const doc = openApiV3GroupDocument(KINDS, '', 'v1');
    const item = doc.paths['/api/v1/namespaces/{name}']!;
    expect(item.patch!.operationId).toBe('patchCoreV1Namespace');
    expect(item.parameters!.map((p) => p.name)).toEqual(['name', 'pretty']);
    expect(doc.paths['/api/v1/namespaces/{name}/status']!.put!.operationId).toBe(
      'replaceCoreV1NamespaceStatus',
    );
    expect(doc.paths['/api/v1/namespaces/{namespace}/pods/{name}']!.get!.operationId).toBe(
      'readCoreV1NamespacedPod',
    );
    expect(doc.paths['/api/v1/pods']!.get!.operationId).toBe('listCoreV1PodForAllNamespaces');
    // The core document holds only core kinds.
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/apis/'))).toBe(false);
  });

  it('names dotted groups like the real document', () => {
    const doc = openApiV3GroupDocument(KINDS, 'coordination.k8s.io', 'v1');
    const item = doc.paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}']!;
    expect(item.patch!.operationId).toBe('patchCoordinationV1NamespacedLease');
    expect(item.patch!.tags).toEqual(['coordination_v1']);
  });
});

/**
 * What kubectl's `PatchMetaFromOpenAPIV3` does with a document: start at the component tagged
 * with the GVK, follow `properties` (and array `items`, `allOf[0]`, `$ref`) along `path`, and
 * read the last property's patch extensions.
 */
function patchMetaAt(doc: OpenApiV3GroupDocument, kind: string, path: string[]) {
  const schemas = doc.components.schemas;
  const resolve = (s: OpenApiSchema): OpenApiSchema => {
    const inner = s.allOf?.[0] ?? s;
    if (!inner.$ref) return inner;
    const target = schemas[inner.$ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`unresolved ${inner.$ref}`);
    return target;
  };
  let schema = Object.values(schemas).find((s) =>
    s['x-kubernetes-group-version-kind']?.some((g) => g.kind === kind),
  )!;
  let property: OpenApiSchema = schema;
  for (const field of path) {
    property = schema.properties?.[field] as OpenApiSchema;
    if (!property) throw new Error(`unable to find api field "${field}"`);
    schema = resolve(property.items ?? property);
  }
  return {
    mergeKey: property['x-kubernetes-patch-merge-key'],
    strategy: property['x-kubernetes-patch-strategy'],
  };
}

describe('/openapi/v3 components.schemas', () => {
  const apps = openApiV3GroupDocument(KINDS, 'apps', 'v1');
  const core = openApiV3GroupDocument(KINDS, '', 'v1');

  it('tags each kind schema (and Scale, for /scale) with its GVK, under the upstream names', () => {
    const tagged = (doc: OpenApiV3GroupDocument) =>
      Object.entries(doc.components.schemas)
        .filter(([, s]) => s['x-kubernetes-group-version-kind'])
        .map(([name, s]) => [name, s['x-kubernetes-group-version-kind']]);
    const appsTags = Object.fromEntries(tagged(apps));
    const gvk = (group: string, kind: string) => [{ group, kind, version: 'v1' }];
    expect(appsTags['io.k8s.api.apps.v1.Deployment']).toEqual(gvk('apps', 'Deployment'));
    expect(appsTags['io.k8s.api.apps.v1.DeploymentList']).toEqual(gvk('apps', 'DeploymentList'));
    expect(appsTags['io.k8s.api.autoscaling.v1.Scale']).toEqual(gvk('autoscaling', 'Scale'));
    // The meta types every group registers name the core group-version and the document's own.
    expect(appsTags['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']).toEqual([
      ...gvk('', 'DeleteOptions'),
      ...gvk('apps', 'DeleteOptions'),
    ]);
    const coreTags = Object.fromEntries(tagged(core));
    expect(coreTags['io.k8s.api.core.v1.Pod']).toEqual(gvk('', 'Pod'));
    expect(coreTags['io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent']).toEqual(gvk('', 'WatchEvent'));
  });

  it('resolves every $ref inside the same document', () => {
    for (const doc of [apps, core, openApiV3GroupDocument(KINDS, 'coordination.k8s.io', 'v1')]) {
      const refs = JSON.stringify(doc.components).match(/"\$ref":"[^"]+"/g) ?? [];
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
        expect(doc.components.schemas, name).toHaveProperty([name]);
      }
    }
  });

  it('carries the merge keys and strategies the server patches with', () => {
    const containers = ['spec', 'template', 'spec', 'containers'];
    expect(patchMetaAt(apps, 'Deployment', containers)).toEqual({ mergeKey: 'name', strategy: 'merge' });
    expect(patchMetaAt(apps, 'Deployment', [...containers, 'env'])).toEqual({
      mergeKey: 'name',
      strategy: 'merge',
    });
    expect(patchMetaAt(apps, 'Deployment', [...containers, 'ports'])).toEqual({
      mergeKey: 'containerPort',
      strategy: 'merge',
    });
    expect(patchMetaAt(apps, 'Deployment', ['spec', 'template', 'spec', 'volumes'])).toEqual({
      mergeKey: 'name',
      strategy: 'merge,retainKeys',
    });
    // A struct with a strategy keeps its $ref in allOf, as OpenAPI 3.0 ignores $ref siblings.
    expect(apps.components.schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties!.strategy).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }],
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
    expect(patchMetaAt(apps, 'Deployment', ['metadata', 'finalizers'])).toEqual({
      mergeKey: undefined,
      strategy: 'merge',
    });
    expect(patchMetaAt(core, 'Pod', ['spec', 'tolerations'])).toEqual({
      mergeKey: undefined,
      strategy: undefined,
    });
    expect(patchMetaAt(core, 'Pod', ['status', 'conditions'])).toEqual({
      mergeKey: 'type',
      strategy: 'merge',
    });
  });

  it('describes maps, lists and the special scalars like the real document', () => {
    const s = core.components.schemas;
    expect(s['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties!.labels).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(s['io.k8s.api.core.v1.Container'].properties!.args).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
    expect(s['io.k8s.api.core.v1.Container'].required).toEqual(['name']);
    expect(s['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toEqual({ type: 'string', format: 'date-time' });
    expect(s['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
      type: 'string',
      format: 'int-or-string',
    });
    expect(s['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({ type: 'string' });
  });

  it('builds for every served kind without conflicting patch strategies', () => {
    const { documents } = buildOpenApiV3(REGISTRY);
    for (const doc of documents.values()) {
      // The group-version documents; the OIDC ones have no schemas.
      if (!/^(?:api|apis\/[^/]+)\/v/.test(doc.key)) continue;
      const body = JSON.parse(doc.body) as OpenApiV3GroupDocument;
      expect(Object.keys(body.components.schemas).length, doc.key).toBeGreaterThan(0);
    }
  });

  it('leaves out kinds it has no types for (kubectl then uses its compiled-in ones)', () => {
    const custom = { ...KINDS[0], group: 'example.com', kind: 'Widget', plural: 'widgets', subresources: [] };
    expect(componentSchemas([custom])).toEqual({});
  });
});

describe('/openapi/v3 descriptions (kubectl explain)', async () => {
  const descriptions = await loadApiDescriptions();
  const apps = openApiV3GroupDocument(KINDS, 'apps', 'v1', descriptions);
  const schemas = apps.components.schemas;

  it('puts the upstream description on each type and field', () => {
    expect(schemas['io.k8s.api.apps.v1.Deployment'].description).toBe(
      'Deployment enables declarative updates for Pods and ReplicaSets.',
    );
    expect(schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties!.replicas).toEqual({
      type: 'integer',
      format: 'int32',
      description:
        'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
    });
  });

  it('wraps a described $ref in allOf, beside the patch extensions, as upstream', () => {
    const spec = schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties!;
    expect(spec.strategy).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }],
      description: 'The deployment strategy to use to replace existing pods with new ones.',
      'x-kubernetes-patch-strategy': 'retainKeys',
      // The reference's default for a struct field (openapi-extras.generated.ts).
      default: {},
    });
    expect(spec.selector.allOf).toEqual([
      { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' },
    ]);
    expect(spec.selector.$ref).toBeUndefined();
    // The merge keys kubectl computes apply's patch from are where they were.
    expect(patchMetaAt(apps, 'Deployment', ['spec', 'template', 'spec', 'containers'])).toEqual({
      mergeKey: 'name',
      strategy: 'merge',
    });
  });

  it('serves the described documents, loading the descriptions once', async () => {
    expect(await loadApiDescriptions()).toBe(descriptions);
    const { documents } = await servedOpenApiV3(KINDS);
    expect(JSON.parse(documents.get('apis/apps/v1')!.body)).toEqual(apps);
    expect(await servedOpenApiV3(KINDS)).toBe(await servedOpenApiV3(KINDS));
  });
});

describe('/openapi/v2', () => {
  /** The answer, which must be a 200. */
  async function served(accept: string | undefined) {
    const answer = await openApiV2Response(KINDS, accept);
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    return answer;
  }

  it("is the Swagger 2.0 document, as JSON or as kubectl's protobuf, with parseable MIME types", async () => {
    const json = await served('application/json');
    expect(json.contentType).toBe('application/json');
    const doc = JSON.parse(json.body.toString());
    expect(doc.swagger).toBe('2.0');
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']).toBeDefined();
    const proto = await served('application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    expect(proto.contentType).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(proto.body.length).toBeGreaterThan(0);
    for (const answer of [json, proto]) expect(answer.contentType).toMatch(/^[\w.+-]+\/[\w.+-]+$/);
  });

  it('negotiates as handler.go: any type is JSON, q-values ordered, nothing acceptable is a 406', async () => {
    expect((await served(undefined)).contentType).toBe('application/json');
    expect((await served('*/*')).contentType).toBe('application/json');
    expect(
      (await served('application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf'))
        .contentType,
    ).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect((await openApiV2Response(KINDS, 'text/html')).status).toBe(406);
  });

  it('carries the upper-case hex SHA-512 of its body as the ETag', async () => {
    const json = await served('application/json');
    expect(json.etag).toBe(createHash('sha512').update(json.body).digest('hex').toUpperCase());
  });
});
