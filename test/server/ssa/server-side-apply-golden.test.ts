/**
 * Goldens from Kubernetes' own tests, replayed over HTTP: kubernetes/kubernetes
 * test/integration/apiserver/apply/apply_test.go (TestApplyManagedFields,
 * TestApplyRemovesEmptyManagedFields, TestApplyRemoveContainerPort,
 * TestApplyFailsWithVersionMismatch, TestApplyConvertsManagedFieldsVersion,
 * TestClearManagedFieldsWithMergePatch and ...WithStrategicMergePatch), each with the requests
 * and the expected answer of the upstream test. The server runs on a manual clock where upstream
 * sleeps a second. The last case (kubectl run, kubectl expose) has no upstream test: its entries
 * are those real clusters print for the same commands, and follow from create.go's order (field
 * manager after decoding and defaulting, before mutating admission and the REST storage).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

const clock = new ManualClock(Date.parse('2024-05-01T10:00:00Z'));
let server: RunningServer;
beforeAll(async () => {
  // The ServiceAccount plugin on, as kube-apiserver runs it: its additions are no manager's.
  server = await startTestServer({ clock, disableAdmissionPlugins: [] });
});
afterAll(async () => {
  await server.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const patch = (path: string, type: string, body: unknown, manager?: string) =>
  call(server, 'PATCH', manager ? `${path}?fieldManager=${manager}` : path, {
    body,
    headers: { 'content-type': `application/${type}` },
  });

function testCm(name: string) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', labels: { 'test-label': 'test' } },
    data: { key: 'value' },
  };
}

function nginx(ports: boolean) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'deployment', labels: { app: 'nginx' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:latest',
              ...(ports ? { ports: [{ containerPort: 80, protocol: 'TCP' }] } : {}),
            },
          ],
        },
      },
    },
  };
}

it('TestApplyManagedFields: the managedFields API as upstream fixes it', async () => {
  expect((await patch(`${CM}/test-cm`, 'apply-patch+yaml', testCm('test-cm'), 'apply_test')).status).toBe(
    201,
  );
  await patch(`${CM}/test-cm`, 'merge-patch+json', { data: { 'new-key': 'value' } }, 'updater');
  clock.advance(1000);
  await patch(`${CM}/test-cm`, 'merge-patch+json', { data: { key: 'new value' } }, 'updater');
  const got = await call(server, 'GET', `${CM}/test-cm`);
  const m = got.body.metadata;
  expect(got.body).toEqual({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: 'test-cm',
      namespace: 'default',
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
      labels: { 'test-label': 'test' },
      managedFields: [
        {
          manager: 'apply_test',
          operation: 'Apply',
          apiVersion: 'v1',
          time: '2024-05-01T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
        },
        {
          manager: 'updater',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2024-05-01T10:00:01Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:key': {}, 'f:new-key': {} } },
        },
      ],
    },
    data: { key: 'new value', 'new-key': 'value' },
  });
  // Each entry's keys in Go's field order (ManagedFieldsEntry).
  for (const e of m.managedFields) {
    expect(Object.keys(e)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  }
});

it('TestApplyRemovesEmptyManagedFields: no empty managers', async () => {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'empty-cm', namespace: 'default' } };
  expect((await patch(`${CM}/empty-cm`, 'apply-patch+yaml', obj, 'apply_test')).status).toBe(201);
  expect((await patch(`${CM}/empty-cm`, 'apply-patch+yaml', obj, 'apply_test')).status).toBe(200);
  const got = await call(server, 'GET', `${CM}/empty-cm`);
  expect(got.body.metadata.managedFields).toBeUndefined();
});

it('TestApplyRemoveContainerPort: a port no longer applied goes', async () => {
  expect((await patch(`${DEPLOY}/deployment`, 'apply-patch+yaml', nginx(true), 'apply_test')).status).toBe(
    201,
  );
  const r = await patch(`${DEPLOY}/deployment`, 'apply-patch+yaml', nginx(false), 'apply_test');
  expect(r.status).toBe(200);
  expect(r.body.spec.template.spec.containers[0].ports).toBeUndefined();
});

it('TestApplyFailsWithVersionMismatch: 400', async () => {
  const r = await patch(
    `${DEPLOY}/deployment`,
    'apply-patch+yaml',
    { ...nginx(false), apiVersion: 'extensions/v1beta', spec: { ...nginx(false).spec, replicas: 100 } },
    'apply_test',
  );
  expect(r.status).toBe(400);
});

it('TestApplyConvertsManagedFieldsVersion: an applier keeps one entry, at the version applied', async () => {
  const created = await call(server, 'POST', DEPLOY, {
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'converted',
        labels: { app: 'nginx' },
        managedFields: [
          {
            manager: 'sidecar_controller',
            operation: 'Apply',
            apiVersion: 'extensions/v1beta1',
            fieldsV1: {
              'f:metadata': { 'f:labels': { 'f:sidecar_version': {} } },
              'f:spec': {
                'f:template': {
                  'f: spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {} } } },
                },
              },
            },
          },
        ],
      },
      spec: {
        selector: { matchLabels: { app: 'nginx' } },
        template: {
          metadata: { labels: { app: 'nginx' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
        },
      },
    },
  });
  expect(created.status, created.text).toBe(201);
  const r = await patch(
    `${DEPLOY}/converted`,
    'apply-patch+yaml',
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'converted', labels: { sidecar_version: 'release' } },
      spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'sidecar:latest' }] } } },
    },
    'sidecar_controller',
  );
  expect(r.status, r.text).toBe(200);
  const managed = r.body.metadata.managedFields;
  expect(managed).toHaveLength(2);
  const actual = managed.find((e: any) => e.manager === 'sidecar_controller' && e.apiVersion === 'apps/v1');
  expect(actual).toEqual({
    manager: 'sidecar_controller',
    operation: 'Apply',
    apiVersion: 'apps/v1',
    time: actual.time,
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:labels': { 'f:sidecar_version': {} } },
      'f:spec': {
        'f:template': {
          'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    },
  });
});

it('TestClearManagedFieldsWithMergePatch and ...WithStrategicMergePatch: [{}] clears them', async () => {
  for (const type of ['merge-patch+json', 'strategic-merge-patch+json']) {
    const name = `clear-${type.split('+')[0]}`;
    await patch(`${CM}/${name}`, 'apply-patch+yaml', testCm(name), 'apply_test');
    const r = await patch(`${CM}/${name}`, type, { metadata: { managedFields: [{}] } });
    expect(r.status).toBe(200);
    const got = await call(server, 'GET', `${CM}/${name}`);
    expect(got.body.metadata.managedFields ?? []).toHaveLength(0);
  }
});

it('kubectl run and kubectl expose: the creator owns what it sent and its defaults, not what admission and allocation add', async () => {
  // The bodies kubectl 1.30 sends; the entries as kube-apiserver records them (create.go runs the
  // field manager after decoding and defaulting, before mutating admission and the REST storage).
  const account = { metadata: { name: 'default' } };
  expect(
    (await call(server, 'POST', '/api/v1/namespaces/default/serviceaccounts', { body: account })).status,
  ).toBe(201);
  const pod = await call(server, 'POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-run', {
    body: {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'nginx', creationTimestamp: null, labels: { run: 'nginx' } },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx', resources: {} }],
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
      },
      status: {},
    },
  });
  expect(pod.status).toBe(201);
  expect(pod.body.spec.serviceAccountName).toBe('default');
  expect(pod.body.spec.containers[0].volumeMounts[0].mountPath).toBe(
    '/var/run/secrets/kubernetes.io/serviceaccount',
  );
  expect(pod.body.metadata.managedFields[0].fieldsV1).toEqual({
    'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
    'f:spec': {
      'f:containers': {
        'k:{"name":"nginx"}': {
          '.': {},
          'f:image': {},
          'f:imagePullPolicy': {},
          'f:name': {},
          'f:resources': {},
          'f:terminationMessagePath': {},
          'f:terminationMessagePolicy': {},
        },
      },
      'f:dnsPolicy': {},
      'f:enableServiceLinks': {},
      'f:restartPolicy': {},
      'f:schedulerName': {},
      'f:securityContext': {},
      'f:terminationGracePeriodSeconds': {},
    },
  });
  const svc = await call(server, 'POST', '/api/v1/namespaces/default/services?fieldManager=kubectl-expose', {
    body: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'nginx', creationTimestamp: null, labels: { run: 'nginx' } },
      spec: { ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }], selector: { run: 'nginx' } },
      status: { loadBalancer: {} },
    },
  });
  expect(svc.status).toBe(201);
  expect(svc.body.spec.ipFamilies).toEqual(['IPv4']);
  expect(svc.body.metadata.managedFields[0].fieldsV1).toEqual({
    'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
    'f:spec': {
      'f:internalTrafficPolicy': {},
      'f:ports': {
        '.': {},
        'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} },
      },
      'f:selector': {},
      'f:sessionAffinity': {},
      'f:type': {},
    },
  });
});
