/** CRD cases (index.ts): Custom objects: the verbs. */

import {
  type Add,
  API_VERSION,
  APPLY,
  crd,
  GROUP,
  install,
  JSON_PATCH,
  LIST_PICK,
  MERGE,
  METADATA_LIST,
  NS_COLLECTION,
  patch,
  post,
  setup,
  TABLE,
  TABLE_PICK,
  widget,
  widgetSchema,
} from './fixture.js';

export function objectCases(add: Add): void {
  const item = `${NS_COLLECTION}/w1`;
  const columns = [
    { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'the colour' },
    { name: 'Tags', type: 'string', jsonPath: '.spec.tags', priority: 1 },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ];
  add('object/create', [...install(), post(widget('w1', { size: 3, color: 'red' }))]);
  add('object/create-dry-run', [
    ...install(),
    post(widget('w1'), { dryRun: 'All' }),
    { request: { path: item } },
  ]);
  add('object/create-twice', [...install(), setup(post(widget('w1'))), post(widget('w1'))]);
  add('object/create-generate-name', [
    ...install(),
    post({ apiVersion: API_VERSION, kind: 'Widget', metadata: { generateName: 'w-' }, spec: { size: 1 } }),
  ]);
  add('object/create-no-name', [...install(), post({ apiVersion: API_VERSION, kind: 'Widget', spec: {} })]);
  add('object/create-bad-name', [...install(), post(widget('Bad_Name'))]);
  add('object/create-kind-mismatch', [...install(), post({ ...widget('w1'), kind: 'Gadget' })]);
  add('object/create-version-mismatch', [...install(), post({ ...widget('w1'), apiVersion: `${GROUP}/v9` })]);
  add('object/create-no-kind', [...install(), post({ apiVersion: API_VERSION, metadata: { name: 'w1' } })]);
  add('object/create-namespace-mismatch', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', namespace: 'other' } }),
  ]);
  add('object/create-yaml', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: NS_COLLECTION,
        headers: { 'content-type': 'application/yaml' },
        bodyText: `apiVersion: ${API_VERSION}\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 2\n`,
      },
    },
  ]);
  add('object/create-broken-json', [
    ...install(),
    { request: { method: 'POST', path: NS_COLLECTION, bodyText: '{"apiVersion": "x", ' } },
  ]);
  add('object/get', [...install(), setup(post(widget('w1'))), { request: { path: item } }]);
  add('object/get-missing', [...install(), { request: { path: `${NS_COLLECTION}/nope` } }]);
  add('object/get-unknown-resource', [
    ...install(),
    { request: { path: `/apis/${GROUP}/v1/namespaces/$ns/gadgets` } },
  ]);
  add('object/get-yaml', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: item, headers: { accept: 'application/yaml' } } },
  ]);
  add('object/list', [
    ...install(),
    setup(post(widget('w1'))),
    setup(post(widget('w2'))),
    { request: { path: NS_COLLECTION }, pick: LIST_PICK },
  ]);
  add('object/list-all-namespaces-by-label', [
    ...install(),
    setup(post({ ...widget('w1'), metadata: { name: 'w1', labels: { pick: 'me' } } })),
    setup(post(widget('w2'))),
    { request: { path: `/apis/${GROUP}/v1/widgets`, query: { labelSelector: 'pick=me' } }, pick: LIST_PICK },
  ]);
  add('object/list-field-selector-name', [
    ...install(),
    setup(post(widget('w1'))),
    setup(post(widget('w2'))),
    { request: { path: NS_COLLECTION, query: { fieldSelector: 'metadata.name=w2' } }, pick: LIST_PICK },
  ]);
  add('object/list-field-selector-unknown', [
    ...install(),
    { request: { path: NS_COLLECTION, query: { fieldSelector: 'spec.color=red' } } },
  ]);
  add('object/list-selectable-field', [
    ...install(crd({ selectableFields: [{ jsonPath: '.spec.color' }] })),
    setup(post(widget('w1', { color: 'red' }))),
    setup(post(widget('w2', { color: 'blue' }))),
    { request: { path: NS_COLLECTION, query: { fieldSelector: 'spec.color=blue' } }, pick: LIST_PICK },
  ]);
  add('object/list-limit-continue', [
    ...install(),
    setup(post(widget('w1'))),
    setup(post(widget('w2'))),
    setup(post(widget('w3'))),
    {
      request: { path: NS_COLLECTION, query: { limit: 2 } },
      save: { next: 'metadata.continue' },
      pick: LIST_PICK,
    },
    { request: { path: NS_COLLECTION, query: { limit: 2, continue: '$next' } }, pick: LIST_PICK },
  ]);
  add('object/list-metadata', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: NS_COLLECTION, headers: { accept: METADATA_LIST } }, pick: LIST_PICK },
  ]);
  add('object/table-default-columns', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: NS_COLLECTION, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/table-printer-columns', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3, color: 'red', tags: ['a', 'b'] }))),
    setup(post(widget('w2', {}))),
    { request: { path: NS_COLLECTION, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/table-printer-columns-get', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3, color: 'red', tags: ['a', 'b'] }))),
    {
      request: { path: item, headers: { accept: TABLE }, query: { includeObject: 'None' } },
      pick: TABLE_PICK,
    },
  ]);
  add('object/table-printer-columns-metadata-object', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3 }))),
    {
      request: { path: NS_COLLECTION, headers: { accept: TABLE }, query: { includeObject: 'Object' } },
      pick: TABLE_PICK,
    },
  ]);
  add('object/table-column-kinds', [
    ...install(
      crd({
        schema: widgetSchema({
          ratio: { type: 'number' },
          on: { type: 'boolean' },
          nested: { type: 'object', properties: { x: { type: 'string' } } },
        }),
        columns: [
          { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
          { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
          { name: 'Nested', type: 'string', jsonPath: '.spec.nested' },
          { name: 'Size', type: 'string', jsonPath: '.spec.size' },
          { name: 'When', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      }),
    ),
    setup(post(widget('w1', { ratio: 1.5, on: true, nested: { x: 'y' }, size: 4 }))),
    { request: { path: NS_COLLECTION, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/update', [
    ...install(),
    { ...setup(post(widget('w1'))), save: { rv: 'metadata.resourceVersion' } },
    {
      request: {
        method: 'PUT',
        path: item,
        body: { ...widget('w1', { size: 2 }), metadata: { name: 'w1', resourceVersion: '$rv' } },
      },
    },
  ]);
  add('object/update-no-rv', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'PUT', path: item, body: widget('w1', { size: 2 }) } },
  ]);
  add('object/update-stale-rv', [
    ...install(),
    { ...setup(post(widget('w1'))), save: { rv: 'metadata.resourceVersion' } },
    setup(patch(item, MERGE, { spec: { size: 2 } })),
    {
      request: {
        method: 'PUT',
        path: item,
        body: { ...widget('w1', { size: 3 }), metadata: { name: 'w1', resourceVersion: '$rv' } },
      },
    },
  ]);
  add('object/update-missing-creates', [
    ...install(),
    { request: { method: 'PUT', path: item, body: widget('w1') } },
  ]);
  add('object/update-name-mismatch', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'PUT', path: item, body: widget('w2') } },
  ]);
  add('object/patch-merge', [
    ...install(),
    setup(post(widget('w1', { size: 1, color: 'red' }))),
    patch(item, MERGE, { spec: { color: null, size: 5 } }),
  ]);
  add('object/patch-json', [
    ...install(),
    setup(post(widget('w1', { size: 1, tags: ['a'] }))),
    patch(item, JSON_PATCH, [
      { op: 'add', path: '/spec/tags/-', value: 'b' },
      { op: 'replace', path: '/spec/size', value: 9 },
    ]),
  ]);
  add('object/patch-json-test-fails', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, JSON_PATCH, [{ op: 'test', path: '/spec/size', value: 2 }]),
  ]);
  add('object/patch-strategic-415', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, { 'content-type': 'application/strategic-merge-patch+json' }, { spec: { size: 2 } }),
  ]);
  add('object/patch-missing', [...install(), patch(item, MERGE, { spec: { size: 2 } })]);
  add('object/patch-invalid-result', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, MERGE, { spec: { size: 'big' } }),
  ]);
  add('object/patch-change-kind', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, MERGE, { kind: 'Gadget' }),
  ]);
  add('object/apply-create', [
    ...install(),
    patch(item, APPLY, widget('w1', { size: 2, tags: ['x'] }), { fieldManager: 'me' }),
  ]);
  add('object/apply-no-field-manager', [...install(), patch(item, APPLY, widget('w1'))]);
  add('object/apply-conflict', [
    ...install(),
    setup(patch(item, APPLY, widget('w1', { size: 2 }), { fieldManager: 'one' })),
    patch(item, APPLY, widget('w1', { size: 3 }), { fieldManager: 'two' }),
  ]);
  add('object/apply-force', [
    ...install(),
    setup(patch(item, APPLY, widget('w1', { size: 2 }), { fieldManager: 'one' })),
    patch(item, APPLY, widget('w1', { size: 3 }), { fieldManager: 'two', force: 'true' }),
  ]);
  add('object/apply-list-map', [
    ...install(
      crd({
        schema: widgetSchema({
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, port: { type: 'integer' } },
            },
          },
        }),
      }),
    ),
    setup(patch(item, APPLY, widget('w1', { ports: [{ name: 'a', port: 1 }] }), { fieldManager: 'one' })),
    patch(item, APPLY, widget('w1', { ports: [{ name: 'b', port: 2 }] }), { fieldManager: 'two' }),
  ]);
  add('object/apply-invalid', [
    ...install(),
    patch(item, APPLY, widget('w1', { size: 'big' }), { fieldManager: 'me' }),
  ]);
  add('object/delete', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'DELETE', path: item } },
    { request: { path: item } },
  ]);
  add('object/delete-missing', [...install(), { request: { method: 'DELETE', path: item } }]);
  add('object/delete-dry-run', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'DELETE', path: item, query: { dryRun: 'All' } } },
    { request: { path: item } },
  ]);
  add('object/delete-precondition', [
    ...install(),
    setup(post(widget('w1'))),
    {
      request: {
        method: 'DELETE',
        path: item,
        body: { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } },
      },
    },
  ]);
  add('object/delete-with-finalizer', [
    ...install(),
    setup(post({ ...widget('w1'), metadata: { name: 'w1', finalizers: ['example.com/hold'] } })),
    { request: { method: 'DELETE', path: item } },
    patch(item, JSON_PATCH, [{ op: 'remove', path: '/metadata/finalizers' }]),
    { request: { path: item } },
  ]);
  add('object/delete-collection', [
    ...install(),
    setup(post({ ...widget('w1'), metadata: { name: 'w1', labels: { x: 'y' } } })),
    setup(post(widget('w2'))),
    { request: { method: 'DELETE', path: NS_COLLECTION, query: { labelSelector: 'x=y' } } },
    { request: { path: NS_COLLECTION }, pick: LIST_PICK },
  ]);
  add('object/watch', [
    ...install(),
    {
      watch: {
        path: NS_COLLECTION,
        until: { events: 3 },
        during: [
          post(widget('w1')),
          patch(item, MERGE, { spec: { size: 7 } }),
          { request: { method: 'DELETE', path: item } },
        ],
      },
    },
  ]);
  add('object/watch-initial-events', [
    ...install(),
    setup(post(widget('w1'))),
    {
      watch: {
        path: NS_COLLECTION,
        query: {
          sendInitialEvents: 'true',
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: 'true',
        },
        until: { initialEventsEnd: true },
      },
    },
  ]);
  add('object/watch-field-selector', [
    ...install(crd({ selectableFields: [{ jsonPath: '.spec.color' }] })),
    {
      watch: {
        path: NS_COLLECTION,
        query: { fieldSelector: 'spec.color=red' },
        until: { events: 2 },
        during: [
          post(widget('w1', { color: 'blue' })),
          post(widget('w2', { color: 'red' })),
          patch(item, MERGE, { spec: { color: 'red' } }),
        ],
      },
    },
  ]);
  add('object/cluster-scoped-create', [
    ...install(crd({ scope: 'Cluster' })),
    post(widget('w1'), undefined, `/apis/${GROUP}/v1/widgets`),
  ]);
  add('object/cluster-scoped-namespace-path', [
    ...install(crd({ scope: 'Cluster' })),
    post(widget('w1'), undefined, NS_COLLECTION),
  ]);
  add('object/cluster-scoped-list', [
    ...install(crd({ scope: 'Cluster' })),
    setup(post(widget('w1'), undefined, `/apis/${GROUP}/v1/widgets`)),
    { request: { path: `/apis/${GROUP}/v1/widgets` }, pick: LIST_PICK },
    { request: { path: `/apis/${GROUP}/v1/widgets`, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/cluster-scoped-with-namespace', [
    ...install(crd({ scope: 'Cluster' })),
    post(
      { ...widget('w1'), metadata: { name: 'w1', namespace: '$ns' } },
      undefined,
      `/apis/${GROUP}/v1/widgets`,
    ),
  ]);
  add('object/namespaced-without-namespace', [
    ...install(),
    post(widget('w1'), undefined, `/apis/${GROUP}/v1/widgets`),
  ]);
  add('object/namespace-missing', [
    ...install(),
    post(widget('w1'), undefined, `/apis/${GROUP}/v1/namespaces/nothere$n/widgets`),
  ]);
  add('object/kubectl-get', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3, color: 'red' }))),
    { kubectl: ['get', `widgets.${GROUP}`, '-n', '$ns'] },
  ]);
}
