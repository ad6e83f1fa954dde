/** CRD cases (index.ts): Defaulting and pruning. */

import {
  type Add,
  API_VERSION,
  CRD_NAME,
  CRDS,
  crd,
  install,
  JSON_PATCH,
  LIST_PICK,
  MERGE,
  NS_COLLECTION,
  patch,
  post,
  saved,
  setup,
  widget,
  widgetSchema,
  withRv,
} from './fixture.js';

export function defaultingAndPruningCases(add: Add): void {
  const item = `${NS_COLLECTION}/w1`;
  add('default/on-create', [
    ...install(
      crd({
        schema: widgetSchema({
          color: { type: 'string', default: 'green' },
          size: { type: 'integer', default: 1 },
        }),
      }),
    ),
    post(widget('w1', {})),
  ]);
  add('default/nested-object', [
    ...install(
      crd({
        schema: widgetSchema({
          inner: {
            type: 'object',
            default: {},
            properties: { a: { type: 'string', default: 'x' }, b: { type: 'integer' } },
          },
        }),
      }),
    ),
    post(widget('w1', {})),
  ]);
  add('default/array-items', [
    ...install(
      crd({
        schema: widgetSchema({
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, weight: { type: 'integer', default: 10 } },
            },
          },
        }),
      }),
    ),
    post(widget('w1', { items: [{ name: 'a' }, { name: 'b', weight: 2 }] })),
  ]);
  add('default/spec-missing-not-created', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    post({ apiVersion: API_VERSION, kind: 'Widget', metadata: { name: 'w1' } }),
  ]);
  add('default/nullable-null-kept', [
    ...install(
      crd({ schema: widgetSchema({ color: { type: 'string', nullable: true, default: 'green' } }) }),
    ),
    post(widget('w1', { color: null })),
  ]);
  add('default/null-dropped', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    post(widget('w1', { color: null })),
  ]);
  add('default/on-read-of-stored', [
    ...install(),
    setup(post(widget('w1', {}))),
    {
      request: { path: `${CRDS}/${CRD_NAME}` },
      save: { rv: 'metadata.resourceVersion' },
      compare: false,
    },
    setup(
      patch(`${CRDS}/${CRD_NAME}`, JSON_PATCH, [
        {
          op: 'add',
          path: '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/color/default',
          value: 'purple',
        },
      ]),
    ),
    { waitFor: { path: `${NS_COLLECTION}/w1`, field: 'spec.color', equals: 'purple' } },
    { request: { path: item } },
    { request: { path: NS_COLLECTION }, pick: LIST_PICK },
  ]);
  add('default/on-update', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    saved(post(widget('w1', {}))),
    { request: { method: 'PUT', path: item, body: withRv(widget('w1', { size: 3 })) } },
  ]);
  add('default/on-merge-patch-remove', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    setup(post(widget('w1', { color: 'red' }))),
    patch(item, MERGE, { spec: { color: null } }),
  ]);
  add('prune/unknown-fields', [
    ...install(),
    post({
      ...widget('w1', { size: 1, junk: 'x', nested: { a: 1 } }),
      extra: 1,
      status: { phase: 'x', junk: 2 },
    }),
  ]);
  add('prune/unknown-metadata-fields', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', bogus: 'x' } }),
  ]);
  add('prune/strict', [
    ...install(),
    post(widget('w1', { size: 1, junk: 'x', other: 2 }), { fieldValidation: 'Strict' }),
  ]);
  add('prune/strict-metadata', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', bogus: 'x' } }, { fieldValidation: 'Strict' }),
  ]);
  add('prune/warn', [
    ...install(),
    post({ ...widget('w1', { size: 1, junk: 'x' }), top: true }, { fieldValidation: 'Warn' }),
  ]);
  add('prune/ignore', [
    ...install(),
    post(widget('w1', { size: 1, junk: 'x' }), { fieldValidation: 'Ignore' }),
  ]);
  add('prune/strict-duplicate-field', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: NS_COLLECTION,
        query: { fieldValidation: 'Strict' },
        bodyText: `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":1,"size":2}}`,
      },
    },
  ]);
  add('prune/warn-duplicate-field', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: NS_COLLECTION,
        bodyText: `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":1,"size":2}}`,
      },
    },
  ]);
  add('prune/strict-patch', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, MERGE, { spec: { junk: 1 } }, { fieldValidation: 'Strict' }),
  ]);
  add('prune/preserve-unknown-subtree', [
    ...install(
      crd({
        schema: widgetSchema({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
      }),
    ),
    post(widget('w1', { free: { anything: { goes: [1, 'a'] } }, junk: 1 })),
  ]);
  add('prune/preserve-unknown-root', [
    ...install(crd({ schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } })),
    post({ ...widget('w1', { whatever: 1 }), more: { x: 1 } }),
  ]);
  add('prune/preserve-unknown-with-properties', [
    ...install(
      crd({
        schema: widgetSchema({
          free: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: { n: { type: 'integer' } },
          },
        }),
      }),
    ),
    post(widget('w1', { free: { n: 'x', extra: 1 } })),
  ]);
  add('prune/embedded-resource', [
    ...install(
      crd({
        schema: widgetSchema({
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
          },
        }),
      }),
    ),
    post(
      widget('w1', {
        template: {
          apiVersion: 'v1',
          kind: 'X',
          metadata: { name: 'n', junk: 1, labels: { a: 'b' } },
          spec: { a: 'x', b: 'y' },
        },
      }),
    ),
  ]);
  add('prune/strict-embedded', [
    ...install(
      crd({
        schema: widgetSchema({
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object' } },
          },
        }),
      }),
    ),
    post(
      widget('w1', { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', junk: 1 }, extra: 2 } }),
      { fieldValidation: 'Strict' },
    ),
  ]);
}
