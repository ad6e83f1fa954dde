/**
 * What an update may change in a Pod's spec (pkg/apis/core/validation/validation.go
 * `ValidatePodUpdate`): images, a lowered activeDeadlineSeconds, added tolerations; not the node,
 * not the containers' number, not anything else.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../../../../src/server/index.js';
import { call, startTestServer } from '../../../../helpers/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const PODS = '/api/v1/namespaces/default/pods';
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };

async function pod(name: string) {
  const r = await call(server, 'POST', PODS, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: {
        activeDeadlineSeconds: 100,
        containers: [{ name: 'c', image: 'nginx:1.27' }],
        tolerations: [{ key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' }],
      },
    },
  });
  expect(r.status, r.text).toBe(201);
}

const patch = (name: string, ops: unknown[]) =>
  call(server, 'PATCH', `${PODS}/${name}`, { body: ops, headers: JSON_PATCH });

it('allows a new image, a lower deadline and an added toleration', async () => {
  await pod('ok');
  const r = await patch('ok', [
    { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.28' },
    { op: 'replace', path: '/spec/activeDeadlineSeconds', value: 50 },
    { op: 'add', path: '/spec/tolerations/-', value: { key: 'k', operator: 'Exists', effect: 'NoSchedule' } },
  ]);
  expect(r.status, r.text).toBe(200);
  expect(r.body.spec.containers[0].image).toBe('nginx:1.28');
});

it('refuses a node set by update, naming the updatable fields', async () => {
  await pod('node');
  const r = await patch('node', [{ op: 'add', path: '/spec/nodeName', value: 'node-a' }]);
  expect(r.status).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(r.body.details.causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
  expect(r.body.message).toContain(
    'Pod "node" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
  );
  expect((await call(server, 'GET', `${PODS}/node`)).body.spec.nodeName).toBeUndefined();
});

it('refuses another container, a higher deadline, and a changed toleration', async () => {
  await pod('more');
  const added = await patch('more', [
    { op: 'add', path: '/spec/containers/-', value: { name: 'd', image: 'x' } },
  ]);
  expect(added.status).toBe(422);
  expect(added.body.message).toBe(
    'Pod "more" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers',
  );
  const higher = await patch('more', [{ op: 'replace', path: '/spec/activeDeadlineSeconds', value: 200 }]);
  expect(higher.status).toBe(422);
  expect(higher.body.message).toBe(
    'Pod "more" is invalid: spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
  );
  // (Removing the admission-added not-ready/unreachable ones would not do: admission adds them back.)
  const removed = await patch('more', [{ op: 'replace', path: '/spec/tolerations/0/value', value: 'b' }]);
  expect(removed.status).toBe(422);
  expect(removed.body.message).toBe(
    'Pod "more" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
  );
});

it('compares resource quantities by amount, as Semantic.DeepEqual: 1e3 for a stored 1k is no change', async () => {
  const r = await call(server, 'POST', PODS, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'q' },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '1000' } } }] },
    },
  });
  expect(r.status, r.text).toBe(201);
  expect(r.body.spec.containers[0].resources.requests.cpu).toBe('1k');
  const same = await patch('q', [
    { op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '1e3' },
  ]);
  expect(same.status, same.text).toBe(200);
  const more = await patch('q', [
    { op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '2' },
  ]);
  expect(more.status).toBe(422);
});
