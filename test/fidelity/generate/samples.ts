/**
 * One valid object of every built-in kind both servers serve, the smallest a
 * user would write, and where it lives. The generators derive every verb,
 * subresource and invalid variant from these and from the reference's OpenAPI.
 * `$ns` and `$n` are filled per case (runner.ts).
 */

export interface KindSample {
  kind: string;
  apiVersion: string;
  /** The collection path (`$ns` for namespaced kinds). */
  collection: string;
  namespaced: boolean;
  /** The OpenAPI v3 document (`api/v1`, `apis/apps/v1`). */
  openapi: string;
  /** The schema's name in that document. */
  schema: string;
  subresources: Array<'status' | 'scale'>;
  /** A valid object named `name`. */
  object(name: string): Record<string, unknown>;
  /** A change a user would make on update (a path and a new value). */
  change: { path: string[]; value: unknown };
}

const podSpec = () => ({ containers: [{ name: 'app', image: 'nginx:1.27' }] });
const template = (app: string) => ({ metadata: { labels: { app } }, spec: podSpec() });

const webhook = () => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://webhook.example.com/check' },
  rules: [
    { operations: ['CREATE'], apiGroups: ['example.org'], apiVersions: ['v1'], resources: ['gadgets'] },
  ],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  failurePolicy: 'Ignore',
});

function core(kind: string, plural: string, namespaced: boolean) {
  return {
    kind,
    apiVersion: 'v1',
    collection: namespaced ? `/api/v1/namespaces/$ns/${plural}` : `/api/v1/${plural}`,
    namespaced,
    openapi: 'api/v1',
    schema: `io.k8s.api.core.v1.${kind}`,
  };
}

function grouped(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  pkg: string,
) {
  return {
    kind,
    apiVersion: `${group}/${version}`,
    collection: namespaced
      ? `/apis/${group}/${version}/namespaces/$ns/${plural}`
      : `/apis/${group}/${version}/${plural}`,
    namespaced,
    openapi: `apis/${group}/${version}`,
    schema: `io.k8s.api.${pkg}.${version}.${kind}`,
  };
}

const meta = (name: string, labels?: Record<string, string>) => ({ name, ...(labels ? { labels } : {}) });

export const SAMPLES: KindSample[] = [
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
export function sampleName(sample: KindSample, base: string): string {
  return sample.namespaced ? base : `fc-$n-${base}`;
}
