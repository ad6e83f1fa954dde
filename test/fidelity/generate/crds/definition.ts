/** CRD cases (index.ts): The CustomResourceDefinition API itself. */

import {
  type Add,
  APPROVAL_PICK,
  CRD_NAME,
  CRDS,
  crd,
  GROUP,
  install,
  JSON_PATCH,
  MERGE,
  NS_COLLECTION,
  patch,
  post,
  setup,
  TABLE,
  widget,
  widgetSchema,
} from './fixture.js';

export function definitionCases(add: Add): void {
  const item = `${CRDS}/${CRD_NAME}`;
  add('definition/create', [{ request: { method: 'POST', path: CRDS, body: crd() } }]);
  add('definition/create-dry-run', [
    { request: { method: 'POST', path: CRDS, query: { dryRun: 'All' }, body: crd() } },
    { request: { path: item } },
  ]);
  add('definition/create-twice', [...install(), { request: { method: 'POST', path: CRDS, body: crd() } }]);
  // The established definition: conditions and accepted names.
  add('definition/get-established', [...install(), { request: { path: item } }]);
  add('definition/get-established-names', [
    ...install(),
    {
      request: { path: item },
      pick: ['status.acceptedNames', 'status.storedVersions', 'metadata.generation'],
    },
  ]);
  add('definition/get-established-condition-words', [
    ...install(),
    {
      request: { path: item },
      pick: [
        'status.conditions.0.type',
        'status.conditions.0.status',
        'status.conditions.0.reason',
        'status.conditions.0.message',
        'status.conditions.1.type',
        'status.conditions.1.status',
        'status.conditions.1.reason',
        'status.conditions.1.message',
        'status.conditions.2',
      ],
    },
  ]);
  add('definition/list-by-name', [
    ...install(),
    {
      request: { path: CRDS, query: { fieldSelector: `metadata.name=${CRD_NAME}` } },
      pick: ['kind', 'apiVersion', 'items.0.metadata.name', 'items.0.spec'],
    },
  ]);
  add('definition/get-missing', [{ request: { path: `${CRDS}/nothings.g$n.example.com` } }]);
  add('definition/table', [...install(), { request: { path: item, headers: { accept: TABLE } } }]);
  add('definition/update-add-version', [
    ...install(),
    {
      request: { path: item },
      save: { rv: 'metadata.resourceVersion' },
      compare: false,
    },
    {
      request: {
        method: 'PUT',
        path: item,
        body: (() => {
          const c = crd({
            versions: [
              { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: widgetSchema() } },
              { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: widgetSchema() } },
            ],
          });
          (c.metadata as Record<string, unknown>).resourceVersion = '$rv';
          return c;
        })(),
      },
      pick: ['metadata.generation', 'spec', 'status.storedVersions'],
    },
  ]);
  add('definition/update-scope-immutable', [
    ...install(),
    patch(item, MERGE, { spec: { scope: 'Cluster' } }),
  ]);
  add('definition/patch-labels', [
    ...install(),
    {
      ...patch(item, MERGE, { metadata: { labels: { a: 'b' } } }),
      pick: ['metadata.labels', 'metadata.generation'],
    },
  ]);
  add('definition/patch-change-group', [
    ...install(),
    patch(item, MERGE, { spec: { group: 'other$n.example.com' } }),
  ]);
  add('definition/patch-remove-stored-version', [
    ...install(),
    patch(item, JSON_PATCH, [{ op: 'replace', path: '/spec/versions/0/name', value: 'v2' }]),
  ]);
  add('definition/delete', [
    ...install(),
    {
      request: { method: 'DELETE', path: item },
      pick: ['kind', 'metadata.deletionTimestamp', 'metadata.finalizers', 'status.conditions.2'],
    },
    { waitFor: { path: item, field: 'status', absent: true } },
    { request: { path: item } },
  ]);
  add('definition/delete-removes-objects', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'DELETE', path: item }, compare: false },
    { waitFor: { path: item, field: 'status', absent: true } },
    // The group's discovery goes when its storage does: only then is the path unserved.
    { waitFor: { path: `/apis/${GROUP}/v1`, field: 'kind', absent: true } },
    { request: { path: `${NS_COLLECTION}/w1` } },
  ]);
  add('definition/status-put-ignored-spec', [
    ...install(),
    { request: { path: item }, save: { rv: 'metadata.resourceVersion' }, compare: false },
    {
      ...patch(`${item}/status`, MERGE, { spec: { scope: 'Cluster' } }),
      pick: ['spec.scope', 'metadata.generation'],
    },
  ]);
  add('definition/create-yaml', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        headers: { 'content-type': 'application/yaml' },
        bodyText: [
          'apiVersion: apiextensions.k8s.io/v1',
          'kind: CustomResourceDefinition',
          'metadata: {name: gizmos.g$n.example.com}',
          'spec:',
          '  group: g$n.example.com',
          '  scope: Namespaced',
          '  names: {plural: gizmos, kind: Gizmo}',
          '  versions:',
          '  - name: v1',
          '    served: true',
          '    storage: true',
          '    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}',
          '',
        ].join('\n'),
      },
      pick: ['spec', 'status.acceptedNames'],
    },
  ]);
  add('definition/defaults-filled', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: crd({ names: { plural: 'widgets', kind: 'Widget' } }),
      },
      pick: ['spec'],
    },
  ]);
  add('definition/names-conflict-kind', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: crd({ name: `gadgets.${GROUP}`, names: { plural: 'gadgets', kind: 'Widget' } }),
      },
      compare: false,
    },
    {
      waitFor: {
        // Until NamesAccepted is decided: which conflict it names is compared below.
        path: `${CRDS}/gadgets.${GROUP}`,
        field: 'status.conditions.0.status',
        equals: 'False',
      },
    },
    {
      request: { path: `${CRDS}/gadgets.${GROUP}` },
      pick: [
        'status.conditions.0.type',
        'status.conditions.0.status',
        'status.conditions.0.reason',
        'status.conditions.0.message',
        'status.conditions.1.type',
        'status.conditions.1.status',
        'status.conditions.1.reason',
        'status.conditions.1.message',
        'status.acceptedNames',
      ],
    },
  ]);
  add('definition/short-names-categories', [
    ...install(
      crd({ names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd$n'], categories: ['all$n'] } }),
    ),
    { request: { path: `/apis/${GROUP}/v1` } },
  ]);
  add('definition/protected-group-unapproved', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: crd({ group: 'g$n.k8s.io' }),
      },
    },
  ]);
  add('definition/protected-group-approved', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: (() => {
          const c = crd({ group: 'g$n.k8s.io' });
          (c.metadata as Record<string, unknown>).annotations = {
            'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111',
          };
          return c;
        })(),
      },
      compare: false,
    },
    // The approval controller and the names controller race: wait for all three conditions
    // and compare each by its type.
    { waitFor: { path: `${CRDS}/widgets.g$n.k8s.io`, field: 'status.conditions.length', equals: 3 } },
    { request: { path: `${CRDS}/widgets.g$n.k8s.io` }, pick: APPROVAL_PICK },
  ]);
  add('definition/protected-group-unapproved-annotation', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: (() => {
          const c = crd({ group: 'g$n.k8s.io' });
          (c.metadata as Record<string, unknown>).annotations = {
            'api-approved.kubernetes.io': 'unapproved, experimental',
          };
          return c;
        })(),
      },
      pick: ['status'],
    },
    { waitFor: { path: `${CRDS}/widgets.g$n.k8s.io`, field: 'status.conditions.length', equals: 3 } },
    { request: { path: `${CRDS}/widgets.g$n.k8s.io` }, pick: APPROVAL_PICK },
  ]);
}
