/**
 * The strategies' update policy, data on each kind (`allowCreateOnUpdate`,
 * `allowUnconditionalUpdate`), as pkg/registry/<group>/<kind>/strategy.go of kube-apiserver v1.37
 * answers it, and what a PUT does with it (registry/store.go `Update`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_RESOURCE_DEFINITIONS } from '../../../src/server/crd/serve/crd-kind.js';
import type { RunningServer } from '../../../src/server/index.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { installCrd } from '../../helpers/crds.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { widgetCrd } from '../../helpers/widget.js';

describe('the update policy of every built-in kind', () => {
  // [AllowCreateOnUpdate, AllowUnconditionalUpdate] of each strategy.go; every other kind is [false, true].
  const KUBE: Record<string, [boolean, boolean]> = {
    Service: [true, true],
    Event: [true, true],
    Endpoints: [true, true],
    LimitRange: [true, true],
    Lease: [true, false],
    ValidatingWebhookConfiguration: [false, false],
    MutatingWebhookConfiguration: [false, false],
    ValidatingAdmissionPolicy: [false, false],
    ValidatingAdmissionPolicyBinding: [false, false],
    MutatingAdmissionPolicy: [false, false],
    MutatingAdmissionPolicyBinding: [false, false],
    APIService: [false, false],
    ClusterTrustBundle: [false, false],
    PodCertificateRequest: [false, false],
    PodDisruptionBudget: [false, false],
    ClusterRoleBinding: [true, true],
    ClusterRole: [true, true],
    RoleBinding: [true, true],
    Role: [true, true],
    CSIDriver: [false, false],
    CSINode: [false, false],
    CSIStorageCapacity: [false, false],
    RuntimeClass: [true, false],
    StorageVersionMigration: [false, false],
    VolumeAttachment: [false, false],
    DeviceTaintRule: [false, false],
    CustomResourceDefinition: [false, false],
  };
  it.each([...REGISTRY, CUSTOM_RESOURCE_DEFINITIONS].map((k) => [k.kind, k] as const))('%s', (kind, k) => {
    const [createOnUpdate, unconditional] = KUBE[kind] ?? [false, true];
    expect(k.allowCreateOnUpdate ?? false).toBe(createOnUpdate);
    expect(k.allowUnconditionalUpdate ?? true).toBe(unconditional);
  });
});

describe('a PUT', () => {
  let s: RunningServer;
  const NS = 'policy';
  const leases = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`;
  const lease = (name: string, holder: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: { holderIdentity: holder },
  });
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
  });
  afterAll(() => s.close());

  it('creates a missing Lease (201), and then refuses to replace it without a resourceVersion (422)', async () => {
    const created = await call(s, 'PUT', `${leases}/l1`, { body: lease('l1', 'a') });
    expect(created.status).toBe(201);
    expect(created.body.metadata.uid).toBeTruthy();
    expect(created.body.metadata.managedFields[0].operation).toBe('Update');

    const unconditional = await call(s, 'PUT', `${leases}/l1`, { body: lease('l1', 'b') });
    expect(unconditional.status).toBe(422);
    expect(unconditional.body.message).toBe(
      'leases.coordination.k8s.io "l1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    );
    expect(unconditional.body.details).toEqual({
      name: 'l1',
      group: 'coordination.k8s.io',
      kind: 'leases',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ],
    });

    const body = {
      ...lease('l1', 'b'),
      metadata: { name: 'l1', resourceVersion: created.body.metadata.resourceVersion },
    };
    const replaced = await call(s, 'PUT', `${leases}/l1`, { body });
    expect(replaced.status).toBe(200);
    expect(replaced.body.spec.holderIdentity).toBe('b');
  });

  it('ignores the resourceVersion a creating PUT carries', async () => {
    const body = { ...lease('l2', 'a'), metadata: { name: 'l2', resourceVersion: '12345' } };
    const created = await call(s, 'PUT', `${leases}/l2`, { body });
    expect(created.status).toBe(201);
    expect(created.body.metadata.resourceVersion).not.toBe('12345');
  });

  it('creates a missing Service with its cluster IP allocated, and a missing Event', async () => {
    const service = await call(s, 'PUT', `/api/v1/namespaces/${NS}/services/web`, {
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } },
    });
    expect(service.status).toBe(201);
    expect(service.body.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const event = await call(s, 'PUT', `/api/v1/namespaces/${NS}/events/e1`, {
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'e1' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
        reason: 'Test',
      },
    });
    expect(event.status).toBe(201);
  });

  it('of a missing ConfigMap is a 404, and a dry-run create on update stores nothing', async () => {
    const missing = await call(s, 'PUT', `/api/v1/namespaces/${NS}/configmaps/none`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'none' } },
    });
    expect(missing.status).toBe(404);
    const dry = await call(s, 'PUT', `${leases}/dry?dryRun=All`, { body: lease('dry', 'a') });
    expect(dry.status).toBe(201);
    expect((await call(s, 'GET', `${leases}/dry`)).status).toBe(404);
  });

  it('of a webhook configuration or a custom resource without a resourceVersion is a 422', async () => {
    const path = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'm' },
    };
    expect((await call(s, 'POST', path, { body: config })).status).toBe(201);
    const refused = await call(s, 'PUT', `${path}/m`, {
      body: { ...config, metadata: { name: 'm', labels: { a: 'b' } } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      'mutatingwebhookconfigurations.admissionregistration.k8s.io "m" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    );

    await installCrd(s, widgetCrd());
    const widgets = `/apis/example.com/v1/namespaces/${NS}/widgets`;
    const widget = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 1 },
    };
    expect((await call(s, 'POST', widgets, { body: widget })).status).toBe(201);
    expect((await call(s, 'PUT', `${widgets}/w`, { body: widget })).status).toBe(422);
    // AllowCreateOnUpdate is false for custom resources.
    expect(
      (await call(s, 'PUT', `${widgets}/w2`, { body: { ...widget, metadata: { name: 'w2' } } })).status,
    ).toBe(404);
  }, 30_000);
});
