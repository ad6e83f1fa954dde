/** CRD cases (index.ts): The status and scale subresources. */

import {
  type Add,
  API_VERSION,
  APPLY,
  crd,
  GROUP,
  install,
  MERGE,
  NS_COLLECTION,
  patch,
  post,
  saved,
  setup,
  widget,
  withRv,
} from './fixture.js';

export function subresourceCases(add: Add): void {
  const item = `${NS_COLLECTION}/w1`;
  const withStatus = () => crd({ subresources: { status: {} } });
  const withScale = () =>
    crd({
      subresources: {
        status: {},
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.selector',
        },
      },
    });
  add('status/create-drops-status', [
    ...install(withStatus()),
    post({ ...widget('w1'), status: { phase: 'Ready' } }),
  ]);
  add('status/get', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    { request: { path: `${item}/status` } },
  ]);
  add('status/get-missing-subresource', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: `${item}/status` } },
  ]);
  add('status/patch', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    patch(`${item}/status`, MERGE, { status: { phase: 'Ready' }, spec: { size: 9 } }),
  ]);
  add('status/put', [
    ...install(withStatus()),
    saved(post(widget('w1'))),
    {
      request: {
        method: 'PUT',
        path: `${item}/status`,
        body: withRv({ ...widget('w1', { size: 4 }), status: { phase: 'Done', replicas: 1 } }),
      },
    },
  ]);
  add('status/main-put-ignores-status', [
    ...install(withStatus()),
    saved(post(widget('w1'))),
    {
      request: {
        method: 'PUT',
        path: item,
        body: withRv({ ...widget('w1', { size: 2 }), status: { phase: 'x' } }),
      },
    },
  ]);
  add('status/generation', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    setup(patch(item, MERGE, { spec: { size: 2 } })),
    setup(patch(`${item}/status`, MERGE, { status: { phase: 'A' } })),
    setup(patch(item, MERGE, { metadata: { labels: { a: 'b' } } })),
    { request: { path: item } },
  ]);
  add('status/generation-without-subresource', [
    ...install(),
    setup(post(widget('w1'))),
    setup(patch(item, MERGE, { status: { phase: 'A' } })),
    { request: { path: item } },
  ]);
  add('status/invalid', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    patch(`${item}/status`, MERGE, { status: { replicas: 'many' } }),
  ]);
  add('status/apply', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    patch(
      `${item}/status`,
      APPLY,
      { apiVersion: API_VERSION, kind: 'Widget', metadata: { name: 'w1' }, status: { phase: 'P' } },
      { fieldManager: 'ctl' },
    ),
  ]);
  add('scale/get', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    setup(patch(`${item}/status`, MERGE, { status: { replicas: 2, selector: 'app=w' } })),
    { request: { path: `${item}/scale` } },
  ]);
  add('scale/get-unset', [
    ...install(withScale()),
    setup(post(widget('w1', {}))),
    { request: { path: `${item}/scale` } },
  ]);
  add('scale/put', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    {
      request: {
        method: 'PUT',
        path: `${item}/scale`,
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'w1', namespace: '$ns' },
          spec: { replicas: 5 },
        },
      },
    },
    { request: { path: item } },
  ]);
  add('scale/patch', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    patch(`${item}/scale`, MERGE, { spec: { replicas: 7 } }),
  ]);
  add('scale/put-negative', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    {
      request: {
        method: 'PUT',
        path: `${item}/scale`,
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'w1', namespace: '$ns' },
          spec: { replicas: -1 },
        },
      },
    },
  ]);
  add('scale/missing-subresource', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    { request: { path: `${item}/scale` } },
  ]);
  add('scale/missing-object', [...install(withScale()), { request: { path: `${item}/scale` } }]);
  add('scale/kubectl-scale', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    { kubectl: ['scale', `widgets.${GROUP}/w1`, '-n', '$ns', '--replicas=4'] },
    { request: { path: item }, pick: ['spec', 'metadata.generation'] },
  ]);
}
