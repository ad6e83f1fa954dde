/**
 * One valid object of every built-in kind both servers serve, the smallest a
 * user would write, and where it lives. The generators derive every verb,
 * subresource and invalid variant from these and from the reference's OpenAPI.
 * `$ns` and `$n` are filled per case (runner.ts).
 */

import { accessSamples } from './samples/access.js';
import { apiserverSamples } from './samples/apiserver.js';
import { batchSamples } from './samples/batch.js';
import { certificatesSamples } from './samples/certificates.js';
import { coreMoreSamples } from './samples/core-more.js';
import { discoverySamples } from './samples/discovery.js';
import { core, grouped, type KindSample, meta, podSpec, template, webhook } from './samples/kit.js';
import { multiVersionSamples } from './samples/multiversion.js';
import { networkingSamples } from './samples/networking.js';
import { policySamples } from './samples/policy.js';
import { resourceSamples } from './samples/resource.js';
import { virtualSamples } from './samples/virtual.js';
import { volumeSamples } from './samples/volume.js';

export type { KindSample } from './samples/kit.js';

/** The samples of the kinds served from the start; the later groups' are in samples/. */
const FIRST_SAMPLES: KindSample[] = [
  {
    ...core('ConfigMap', 'configmaps', true),
    subresources: [],
    object: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name), data: { key: 'value' } }),
    change: { path: ['data', 'key'], value: 'changed' },
  },
  {
    ...core('Secret', 'secrets', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(name),
      type: 'Opaque',
      stringData: { password: 's3cret' },
    }),
    change: { path: ['data', 'other'], value: 'b3RoZXI=' },
  },
  {
    ...core('Pod', 'pods', true),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta(name, { app: 'web' }),
      spec: podSpec(),
    }),
    change: { path: ['spec', 'containers', '0', 'image'], value: 'nginx:1.28' },
  },
  {
    ...core('Service', 'services', true),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(name),
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    }),
    change: { path: ['spec', 'selector', 'app'], value: 'api' },
  },
  {
    ...core('Event', 'events', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta(name),
      involvedObject: { kind: 'Pod', name: 'web', namespace: '$ns', apiVersion: 'v1' },
      reason: 'Started',
      message: 'Started container app',
      type: 'Normal',
      source: { component: 'kubelet' },
    }),
    change: { path: ['message'], value: 'Restarted container app' },
  },
  {
    ...core('PodTemplate', 'podtemplates', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: meta(name),
      template: template('pt'),
    }),
    change: { path: ['template', 'spec', 'containers', '0', 'image'], value: 'nginx:1.28' },
  },
  {
    ...core('ServiceAccount', 'serviceaccounts', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: meta(name),
      imagePullSecrets: [{ name: 'registry' }],
    }),
    change: { path: ['automountServiceAccountToken'], value: false },
  },
  {
    ...core('Node', 'nodes', false),
    subresources: ['status'],
    object: (name) => ({ apiVersion: 'v1', kind: 'Node', metadata: meta(name, { zone: 'a' }) }),
    change: { path: ['spec', 'unschedulable'], value: true },
  },
  {
    ...core('Namespace', 'namespaces', false),
    subresources: ['status'],
    object: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: meta(name, { team: 'a' }) }),
    change: { path: ['metadata', 'labels', 'team'], value: 'b' },
  },
  {
    ...grouped('apps', 'v1', 'Deployment', 'deployments', true, 'apps'),
    subresources: ['status', 'scale'],
    object: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(name),
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') },
    }),
    change: { path: ['spec', 'replicas'], value: 3 },
  },
  {
    ...grouped('apps', 'v1', 'ReplicaSet', 'replicasets', true, 'apps'),
    subresources: ['status', 'scale'],
    object: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta(name),
      spec: { replicas: 1, selector: { matchLabels: { app: 'rs' } }, template: template('rs') },
    }),
    change: { path: ['spec', 'replicas'], value: 2 },
  },
  {
    ...grouped('apps', 'v1', 'StatefulSet', 'statefulsets', true, 'apps'),
    subresources: ['status', 'scale'],
    object: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta(name),
      spec: {
        serviceName: 'db',
        replicas: 1,
        selector: { matchLabels: { app: 'db' } },
        template: template('db'),
      },
    }),
    change: { path: ['spec', 'replicas'], value: 2 },
  },
  {
    ...grouped('apps', 'v1', 'DaemonSet', 'daemonsets', true, 'apps'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: meta(name),
      spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') },
    }),
    change: { path: ['spec', 'template', 'spec', 'containers', '0', 'image'], value: 'nginx:1.28' },
  },
  {
    ...grouped('coordination.k8s.io', 'v1', 'Lease', 'leases', true, 'coordination'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: meta(name),
      spec: { holderIdentity: 'node-a', leaseDurationSeconds: 40 },
    }),
    change: { path: ['spec', 'holderIdentity'], value: 'node-b' },
  },
  {
    ...grouped(
      'admissionregistration.k8s.io',
      'v1',
      'ValidatingWebhookConfiguration',
      'validatingwebhookconfigurations',
      false,
      'admissionregistration',
    ),
    subresources: [],
    object: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: meta(name),
      webhooks: [webhook()],
    }),
    change: { path: ['webhooks', '0', 'timeoutSeconds'], value: 7 },
  },
  {
    ...grouped(
      'admissionregistration.k8s.io',
      'v1',
      'MutatingWebhookConfiguration',
      'mutatingwebhookconfigurations',
      false,
      'admissionregistration',
    ),
    subresources: [],
    object: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: meta(name),
      webhooks: [{ ...webhook(), reinvocationPolicy: 'Never' }],
    }),
    change: { path: ['webhooks', '0', 'timeoutSeconds'], value: 7 },
  },
];

/** The object's name in a case: cluster-scoped names carry the case's suffix. */
/** Every sample: the first kinds', then each later group's (samples/<area>.ts). */
export const SAMPLES: KindSample[] = [
  ...FIRST_SAMPLES,
  ...coreMoreSamples,
  ...volumeSamples,
  ...batchSamples,
  ...accessSamples,
  ...networkingSamples,
  ...certificatesSamples,
  ...policySamples,
  ...virtualSamples,
  ...apiserverSamples,
  ...discoverySamples,
  ...multiVersionSamples,
  ...resourceSamples,
];

export function sampleName(sample: KindSample, base: string): string {
  if (sample.namespaced) return base;
  const name = `fc-$n-${base}`;
  return sample.clusterName?.(name) ?? name;
}
