/**
 * CustomResourceDefinitions for tests: a plain one of a given spec schema, and a way to create
 * one and wait until it is served. The `Widget` most tests install is in widget.ts.
 */
import type { RunningServer } from '../../src/server/index.js';
import { call } from './server.js';
import { waitUntil } from './wait.js';

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
