import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ResourceKind } from '../../src/server/kinds/types.js';
import {
  buildOpenApiV3,
  type OpenApiV3GroupDocument,
  openApiV2Response,
  openApiV3GroupDocument,
  openApiV3Key,
} from '../../src/server/openapi.js';
import { KINDS } from './fixtures/kinds.js';

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
    if (g.group !== gvk.group || g.version !== gvk.version || g.kind !== gvk.kind) return false;
    return (patch.parameters ?? []).some((p) => p.name === 'fieldValidation' && p.in === 'query');
  });
}

describe('/openapi/v3 root', () => {
  const { root, documents } = buildOpenApiV3(KINDS);

  it('lists every group-version with a serverRelativeURL carrying the document hash', () => {
    expect(Object.keys(root.paths)).toEqual(['api/v1', 'apis/apps/v1', 'apis/coordination.k8s.io/v1']);
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

  it('is an OpenAPI 3.0.0 document without components', () => {
    const doc = openApiV3GroupDocument(KINDS, 'apps', 'v1');
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: 'v1.33.1' });
    expect(doc).not.toHaveProperty('components');
  });

  it('has the namespaced paths and operations of the real document', () => {
    const doc = openApiV3GroupDocument(KINDS, 'apps', 'v1');
    const base = '/apis/apps/v1/namespaces/{namespace}/deployments';
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        base,
        `${base}/{name}`,
        `${base}/{name}/scale`,
        `${base}/{name}/status`,
        '/apis/apps/v1/deployments',
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

describe('/openapi/v2', () => {
  it('is 200 with an empty body and a parseable MIME type', () => {
    const answer = openApiV2Response();
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(0);
    expect(answer.contentType).toBe('application/octet-stream');
    expect(answer.contentType).toMatch(/^[\w.+-]+\/[\w.+-]+$/);
  });
});
