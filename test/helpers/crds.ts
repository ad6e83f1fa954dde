/**
 * CustomResourceDefinitions for tests: a small namespaced `Widget` with the features tests
 * reach for (status and scale subresources, printer columns, a selectable field, defaults), and
 * a way to create one and wait until it is served.
 */
import type { RunningServer } from '../../src/server/index.js';
import { call } from './server.js';
import { waitUntil } from './wait.js';

/** `widgets.example.com`: apiVersion example.com/v1, kind Widget. */
export function widgetCrd(overrides: { group?: string; scope?: 'Namespaced' | 'Cluster' } = {}): any {
  const group = overrides.group ?? 'example.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: overrides.scope ?? 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        shortNames: ['wg'],
        categories: ['all'],
      },
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
                  description: 'What the widget should be.',
                  properties: {
                    size: { type: 'integer', minimum: 1, description: 'How big.' },
                    color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red' },
                    replicas: { type: 'integer' },
                  },
                  required: ['size'],
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          selectableFields: [{ jsonPath: '.spec.color' }],
        },
      ],
    },
  };
}

/**
 * A namespaced definition of one served and stored version `v1`, whose schema is an object
 * with `spec` of `specProperties`: for tests that need a kind with a given spec schema and
 * nothing else.
 */
export function plainCrd(
  group: string,
  names: { plural: string; singular: string; kind: string },
  specProperties: Record<string, unknown>,
): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { ...names, listKind: `${names.kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: specProperties } },
            },
          },
        },
      ],
    },
  };
}

/** True when the definition's condition `type` is True. */
export function conditionTrue(crd: any, type: string): boolean {
  return (crd?.status?.conditions ?? []).some((c: any) => c.type === type && c.status === 'True');
}

/** Creates `crd` and waits until it is Established and its storage (or first served) version answers a list. */
export async function installCrd(server: RunningServer, crd: any): Promise<any> {
  const created = await call(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: crd,
  });
  if (created.status !== 201)
    throw new Error(`creating ${crd.metadata.name}: ${created.status} ${created.text}`);
  let established: any;
  await waitUntil(async () => {
    const got = await call(
      server,
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
    );
    established = got.body;
    return conditionTrue(got.body, 'Established');
  }, `${crd.metadata.name} to be Established`);
  const { group, versions, names, scope } = crd.spec;
  const version = versions.find((v: any) => v.served && v.storage) ?? versions.find((v: any) => v.served);
  const path = `/apis/${group}/${version.name}${scope === 'Namespaced' ? '/namespaces/default' : ''}/${names.plural}`;
  await waitUntil(async () => (await call(server, 'GET', path)).status === 200, `${path} to be served`);
  return established;
}
