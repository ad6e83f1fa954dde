/**
 * Realistic objects of every served built-in kind, for test/server/protobuf/all-kinds.test.ts,
 * in the JSON form Go's encoding/json writes for them (so a field without omitempty is present).
 */

import { POD_NAMESPACE, POD_PARTS, template, trickyPod } from './tricky-pod.js';

export { trickyPod };

/** One kind: where it is created, the two names used (JSON, protobuf), and the object. */
export interface Fixture {
  path: string;
  names: [string, string];
  object: (name: string) => any;
  /** Clears what legitimately differs between two creates (allocations, async status). */
  normalize?: (object: any) => void;
}

const NS = POD_NAMESPACE;
const T0 = '2026-01-02T03:04:05Z';

const { labels, selector } = POD_PARTS;

const webhook = () => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://webhook.example.com/validate' },
  rules: [
    {
      operations: ['CREATE'],
      apiGroups: ['example.org'],
      apiVersions: ['v1'],
      resources: ['gadgets'],
      scope: '*',
    },
  ],
  failurePolicy: 'Ignore',
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  sideEffects: 'None',
  timeoutSeconds: 5,
  admissionReviewVersions: ['v1'],
  matchConditions: [{ name: 'not-kube-system', expression: "object.metadata.namespace != 'kube-system'" }],
});

function crd(name: string): any {
  const group = `${name}.example.com`;
  return {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      names: {
        plural: 'gadgets',
        singular: 'gadget',
        kind: 'Gadget',
        listKind: 'GadgetList',
        shortNames: ['gd'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'integer', minimum: 1, maximum: 10 },
                    color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
                    port: { 'x-kubernetes-int-or-string': true },
                    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    extra: { type: 'object', additionalProperties: { type: 'string' } },
                    blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                  'x-kubernetes-validations': [{ rule: 'self.size < 10', message: 'too big' }],
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
          },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
        },
      ],
      conversion: { strategy: 'None' },
    },
    status: { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null },
  };
}

const core = (plural: string) => `/api/v1/namespaces/${NS}/${plural}`;
const apps = (plural: string) => `/apis/apps/v1/namespaces/${NS}/${plural}`;
const workload = (kind: string, spec: Record<string, unknown>) => (name: string) => ({
  kind,
  apiVersion: 'apps/v1',
  metadata: { name, namespace: NS, labels },
  spec: { selector, template: template(), ...spec },
  status: {},
});

/** Every served built-in kind. */
export const FIXTURES: Fixture[] = [
  {
    path: '/api/v1/namespaces',
    names: ['ns-json', 'ns-pb'],
    object: (name) => ({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name, labels },
      spec: {},
      status: {},
    }),
    normalize: (o) => delete o.metadata.labels['kubernetes.io/metadata.name'],
  },
  { path: core('pods'), names: ['pod-json', 'pod-pb'], object: trickyPod },
  {
    path: '/api/v1/nodes',
    names: ['node-json', 'node-pb'],
    object: (name) => ({
      kind: 'Node',
      apiVersion: 'v1',
      metadata: { name, labels: { 'kubernetes.io/os': 'linux' } },
      spec: {
        podCIDR: '10.244.1.0/24',
        podCIDRs: ['10.244.1.0/24'],
        taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule', timeAdded: T0 }],
      },
      status: {
        capacity: { cpu: '4', memory: '16Gi', pods: '110' },
        allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: T0,
            lastTransitionTime: T0,
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
          },
        ],
        addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: 'm',
          systemUUID: 's',
          bootID: 'b',
          kernelVersion: '6.1',
          osImage: 'Linux',
          containerRuntimeVersion: 'containerd://1.7',
          kubeletVersion: 'v1.36.3',
          kubeProxyVersion: '',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      },
    }),
  },
  {
    path: core('configmaps'),
    names: ['cm-json', 'cm-pb'],
    object: (name) => ({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name, namespace: NS, labels },
      data: { 'app.conf': 'port=8080\n' },
      binaryData: { 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') },
    }),
  },
  {
    path: core('secrets'),
    names: ['secret-json', 'secret-pb'],
    object: (name) => ({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name, namespace: NS },
      data: { password: Buffer.from('s3cret').toString('base64') },
      type: 'Opaque',
    }),
  },
  {
    path: core('podtemplates'),
    names: ['pt-json', 'pt-pb'],
    object: (name) => ({
      kind: 'PodTemplate',
      apiVersion: 'v1',
      metadata: { name, namespace: NS, labels },
      template: template(),
    }),
  },
  {
    path: core('serviceaccounts'),
    names: ['sa-json', 'sa-pb'],
    object: (name) => ({
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name, namespace: NS },
      secrets: [{ name: 'token-a' }],
      imagePullSecrets: [{ name: 'registry' }],
      automountServiceAccountToken: false,
    }),
  },
  {
    path: core('services'),
    names: ['svc-json', 'svc-pb'],
    object: (name) => ({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name, namespace: NS, labels },
      spec: {
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 'http' },
          { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 9090 },
        ],
        selector: labels,
        type: 'ClusterIP',
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
      },
      status: { loadBalancer: {} },
    }),
    normalize: (o) => {
      delete o.spec.clusterIP;
      delete o.spec.clusterIPs;
    },
  },
  {
    path: core('events'),
    names: ['event-json', 'event-pb'],
    object: (name) => ({
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name, namespace: NS },
      involvedObject: {
        kind: 'Pod',
        namespace: NS,
        name: 'pod-json',
        apiVersion: 'v1',
        fieldPath: 'spec.containers{web}',
      },
      reason: 'Pulled',
      message: 'Container image "nginx:1.27" already present on machine',
      source: { component: 'kubelet', host: 'node-json' },
      firstTimestamp: T0,
      lastTimestamp: T0,
      count: 3,
      type: 'Normal',
      eventTime: null,
      reportingComponent: 'kubelet',
      reportingInstance: 'node-json',
    }),
  },
  {
    path: apps('deployments'),
    names: ['deploy-json', 'deploy-pb'],
    object: workload('Deployment', {
      replicas: 3,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      minReadySeconds: 5,
      revisionHistoryLimit: 4,
      progressDeadlineSeconds: 600,
    }),
  },
  { path: apps('replicasets'), names: ['rs-json', 'rs-pb'], object: workload('ReplicaSet', { replicas: 2 }) },
  {
    path: apps('statefulsets'),
    names: ['sts-json', 'sts-pb'],
    object: workload('StatefulSet', {
      replicas: 2,
      serviceName: 'web',
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data', creationTimestamp: null },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          status: {},
        },
      ],
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
    }),
  },
  {
    path: apps('daemonsets'),
    names: ['ds-json', 'ds-pb'],
    object: workload('DaemonSet', {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } },
      revisionHistoryLimit: 10,
    }),
  },
  {
    path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`,
    names: ['lease-json', 'lease-pb'],
    object: (name) => ({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name, namespace: NS },
      spec: {
        holderIdentity: 'controller-0_1234',
        leaseDurationSeconds: 15,
        acquireTime: '2026-01-02T03:04:05.123456Z',
        renewTime: '2026-01-02T03:04:20.000001Z',
        leaseTransitions: 2,
      },
    }),
  },
  {
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    names: ['vwc-json', 'vwc-pb'],
    object: (name) => ({
      kind: 'ValidatingWebhookConfiguration',
      apiVersion: 'admissionregistration.k8s.io/v1',
      metadata: { name },
      webhooks: [webhook()],
    }),
  },
  {
    path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    names: ['mwc-json', 'mwc-pb'],
    object: (name) => ({
      kind: 'MutatingWebhookConfiguration',
      apiVersion: 'admissionregistration.k8s.io/v1',
      metadata: { name },
      webhooks: [{ ...webhook(), reinvocationPolicy: 'IfNeeded' }],
    }),
  },
  {
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    names: ['crdjson', 'crdpb'],
    object: crd,
    // The name carries the group; status is the controller's, written after the create, so
    // it (and its managedFields entry, which sorts before or after the create's depending on
    // whether a second passed in between) may or may not be there yet when the test reads.
    normalize: (o) => {
      delete o.spec.group;
      delete o.status;
      o.metadata.managedFields = o.metadata.managedFields?.filter(
        (e: { subresource?: string }) => e.subresource !== 'status',
      );
    },
  },
];
