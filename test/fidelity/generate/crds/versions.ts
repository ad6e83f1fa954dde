/** CRD cases (index.ts): Versions and discovery. */

import {
  type Add,
  crd,
  GROUP,
  install,
  LIST_PICK,
  NS_COLLECTION,
  post,
  setup,
  widget,
  widgetSchema,
} from './fixture.js';

export function versionCases(add: Add): void {
  const twoVersions = (v2: Record<string, unknown> = {}) =>
    crd({
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: widgetSchema() } },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: widgetSchema() }, ...v2 },
      ],
    });
  add('versions/read-through-other', [
    ...install(twoVersions()),
    setup(post(widget('w1'))),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets/w1` } },
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` }, pick: LIST_PICK },
  ]);
  add('versions/create-through-non-storage', [
    ...install(twoVersions()),
    post(
      { ...widget('w1'), apiVersion: `${GROUP}/v2` },
      undefined,
      `/apis/${GROUP}/v2/namespaces/$ns/widgets`,
    ),
    { request: { path: `${NS_COLLECTION}/w1` } },
  ]);
  add('versions/not-served', [
    ...install(twoVersions({ served: false })),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` } },
  ]);
  add('versions/deprecated-warning', [
    ...install(twoVersions({ deprecated: true, deprecationWarning: 'v2 is going away' })),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` }, pick: LIST_PICK },
  ]);
  add('versions/deprecated-default-warning', [
    ...install(twoVersions({ deprecated: true })),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` }, pick: LIST_PICK },
  ]);
  add('versions/each-its-schema', [
    ...install(twoVersions({ schema: { openAPIV3Schema: widgetSchema({ size: { type: 'string' } }) } })),
    post(
      { ...widget('w1', { size: 'big' }), apiVersion: `${GROUP}/v2` },
      undefined,
      `/apis/${GROUP}/v2/namespaces/$ns/widgets`,
    ),
  ]);
  add('discovery/group-version', [
    ...install(
      crd({
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
      }),
    ),
    { request: { path: `/apis/${GROUP}/v1` } },
  ]);
  add('discovery/group', [...install(twoVersions()), { request: { path: `/apis/${GROUP}` } }]);
  add('discovery/apis-list', [
    ...install(twoVersions()),
    { request: { path: '/apis' }, pick: [`groups[name=${GROUP}]`] },
  ]);
  add('discovery/aggregated', [
    ...install(twoVersions()),
    {
      request: {
        path: '/apis',
        headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
      },
      pick: [`items[metadata.name=${GROUP}]`],
    },
  ]);
  add('discovery/cluster-scoped', [
    ...install(crd({ scope: 'Cluster' })),
    { request: { path: `/apis/${GROUP}/v1` } },
  ]);
  add('discovery/unknown-version', [...install(), { request: { path: `/apis/${GROUP}/v7` } }]);
}
