/**
 * A real server with a CustomResourceDefinition: `/openapi/v3` and discovery follow the
 * definition as it is established and deleted, the documents are cached by their hash as
 * kube-openapi's handler3 serves them, and CRD bodies are type-checked against the
 * CustomResourceDefinition type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { call, startTestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';
import { widgetCrd } from '../../helpers/widget.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
  await installCrd(server, widgetCrd());
});
afterAll(async () => {
  await server?.close();
});

async function v3Root(): Promise<Record<string, { serverRelativeURL: string }>> {
  const root = await call(server, 'GET', '/openapi/v3');
  expect(root.status).toBe(200);
  return root.body.paths;
}

describe('/openapi/v3 of a served definition', () => {
  it('lists the custom group-version and serves its document', async () => {
    const paths = await v3Root();
    const url = paths['apis/example.com/v1']!.serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await call(server, 'GET', url);
    expect(doc.status).toBe(200);
    expect(doc.headers.etag).toBe(`"${url.split('hash=')[1]}"`);
    expect(doc.headers['cache-control']).toBe('public, immutable');
    const widget = doc.body.components.schemas['com.example.v1.Widget'];
    expect(widget['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
    expect(widget.properties.spec.properties.size).toEqual({
      description: 'How big.',
      type: 'integer',
      minimum: 1,
    });
    expect(widget['x-kubernetes-selectable-fields']).toEqual([{ fieldPath: 'spec.color' }]);
    expect(doc.body.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale']).toBeDefined();
  });

  it('redirects a stale hash to the current document, and answers 304 to its ETag', async () => {
    const url = (await v3Root())['apis/example.com/v1']!.serverRelativeURL;
    const stale = await call(server, 'GET', '/openapi/v3/apis/example.com/v1?hash=0123');
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(url);
    const etag = (await call(server, 'GET', url)).headers.etag as string;
    const again = await call(server, 'GET', url, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('serves /openapi/v2 with the custom kind, an ETag and a 304 for it', async () => {
    const v2 = await call(server, 'GET', '/openapi/v2', { headers: { Accept: 'application/json' } });
    expect(v2.status).toBe(200);
    expect(v2.body.definitions['com.example.v1.Widget'].properties.spec.properties.size.description).toBe(
      'How big.',
    );
    const etag = v2.headers.etag as string;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const again = await call(server, 'GET', '/openapi/v2', {
      headers: { Accept: 'application/json', 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect((await call(server, 'GET', '/openapi/v2', { headers: { Accept: 'text/html' } })).status).toBe(406);
  });

  it('has the CustomResourceDefinition type, recursive JSONSchemaProps included', async () => {
    const url = (await v3Root())['apis/apiextensions.k8s.io/v1']!.serverRelativeURL;
    const { body } = await call(server, 'GET', url);
    const name = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
    expect(
      body.components.schemas[`${name}.CustomResourceDefinition`]['x-kubernetes-group-version-kind'],
    ).toEqual([{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' }]);
    const props = body.components.schemas[`${name}.JSONSchemaProps`];
    expect(props.properties.properties.additionalProperties).toEqual({
      $ref: `#/components/schemas/${name}.JSONSchemaProps`,
    });
    expect(props.properties['x-kubernetes-preserve-unknown-fields'].description).toMatch(
      /^x-kubernetes-preserve-unknown-fields stops/,
    );
    expect(body.components.schemas[`${name}.JSON`].type).toBeUndefined();
  });
});

describe('discovery of a served definition', () => {
  it('lists the resource with its subresources and storage version hash', async () => {
    const list = await call(server, 'GET', '/apis/example.com/v1');
    expect(list.status).toBe(200);
    expect(list.body.resources.map((r: any) => r.name)).toEqual([
      'widgets',
      'widgets/status',
      'widgets/scale',
    ]);
    expect(list.body.resources[0]).toMatchObject({
      kind: 'Widget',
      singularName: 'widget',
      shortNames: ['wg'],
      categories: ['all'],
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      storageVersionHash: expect.stringMatching(/^[A-Za-z0-9+/]{11}=$/),
    });
    const group = await call(server, 'GET', '/apis/example.com');
    expect(group.body.preferredVersion).toEqual({ groupVersion: 'example.com/v1', version: 'v1' });
    const aggregated = await call(server, 'GET', '/apis', { headers: { Accept: AGGREGATED } });
    const item = aggregated.body.items.find((i: any) => i.metadata.name === 'example.com');
    expect(item.versions[0].resources[0].subresources.map((s: any) => s.subresource)).toEqual([
      'status',
      'scale',
    ]);
  });
});

describe('CustomResourceDefinition bodies', () => {
  it('warns of unknown fields, and refuses them under Strict, as the typed decoder does', async () => {
    const crd = widgetCrd({ group: 'typos.example.com' });
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.propertes = {};
    const warned = await call(server, 'POST', CRDS, { body: crd });
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toContain(
      'unknown field \\"spec.versions[0].schema.openAPIV3Schema.properties.spec.propertes\\"',
    );
    const strict = widgetCrd({ group: 'strict.example.com' });
    strict.spec.colour = 'red';
    const refused = await call(server, 'POST', `${CRDS}?fieldValidation=Strict`, { body: strict });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.colour"',
    );
  });
});

describe('a definition deleted', () => {
  it('leaves /openapi/v3 and discovery', async () => {
    await installCrd(server, widgetCrd({ group: 'gone.example.com' }));
    expect(Object.keys(await v3Root())).toContain('apis/gone.example.com/v1');
    expect((await call(server, 'DELETE', `${CRDS}/widgets.gone.example.com`)).status).toBe(200);
    await waitUntil(async () => !('apis/gone.example.com/v1' in (await v3Root())), 'the document to go');
    expect((await call(server, 'GET', '/apis/gone.example.com/v1')).status).toBe(404);
  });
});
