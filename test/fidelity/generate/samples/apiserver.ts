/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta } from './kit.js';

const admission = (kind: string, plural: string) =>
  grouped('admissionregistration.k8s.io', 'v1', kind, plural, false, 'admissionregistration');

const deploymentRules = () => ({
  resourceRules: [
    {
      operations: ['CREATE', 'UPDATE'],
      apiGroups: ['apps'],
      apiVersions: ['v1'],
      resources: ['deployments'],
    },
  ],
});

export const apiserverSamples: KindSample[] = [
  {
    ...admission('ValidatingAdmissionPolicy', 'validatingadmissionpolicies'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: meta(name),
      spec: {
        matchConstraints: deploymentRules(),
        validations: [{ expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas' }],
      },
    }),
    change: { path: ['spec', 'failurePolicy'], value: 'Ignore' },
  },
  {
    ...admission('ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: meta(name),
      spec: { policyName: 'replica-limit', validationActions: ['Deny'] },
    }),
    change: { path: ['spec', 'validationActions'], value: ['Warn'] },
  },
  {
    ...admission('MutatingAdmissionPolicy', 'mutatingadmissionpolicies'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: meta(name),
      spec: {
        matchConstraints: deploymentRules(),
        reinvocationPolicy: 'Never',
        mutations: [
          {
            patchType: 'JSONPatch',
            jsonPatch: {
              expression: '[JSONPatch{op: "add", path: "/metadata/labels/touched", value: "yes"}]',
            },
          },
        ],
      },
    }),
    change: { path: ['spec', 'failurePolicy'], value: 'Ignore' },
  },
  {
    ...admission('MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: meta(name),
      spec: { policyName: 'add-label' },
    }),
    change: { path: ['spec', 'policyName'], value: 'add-other-label' },
  },
  {
    ...grouped('apiregistration.k8s.io', 'v1', 'APIService', 'apiservices', false, 'apiregistration'),
    schema: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService',
    subresources: ['status'],
    // A local APIService (no service): kube-apiserver serves it itself, Available from its create.
    // Named `v1.<group>`, the group made from the case's name.
    clusterName: (name) => `v1.${name}.example.com`,
    object: (name) => ({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: meta(name),
      spec: {
        group: name.startsWith('v1.') ? name.slice(3) : 'example.com',
        version: 'v1',
        groupPriorityMinimum: 1000,
        versionPriority: 15,
      },
    }),
    change: { path: ['spec', 'versionPriority'], value: 20 },
  },
  {
    ...grouped('flowcontrol.apiserver.k8s.io', 'v1', 'FlowSchema', 'flowschemas', false, 'flowcontrol'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: meta(name),
      spec: {
        priorityLevelConfiguration: { name: 'workload-low' },
        matchingPrecedence: 5000,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'batch-robot' } }],
            resourceRules: [
              { verbs: ['list', 'watch'], apiGroups: ['batch'], resources: ['jobs'], namespaces: ['*'] },
            ],
          },
        ],
      },
    }),
    change: { path: ['spec', 'matchingPrecedence'], value: 6000 },
  },
  {
    ...grouped(
      'flowcontrol.apiserver.k8s.io',
      'v1',
      'PriorityLevelConfiguration',
      'prioritylevelconfigurations',
      false,
      'flowcontrol',
    ),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: meta(name),
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 16 } } } },
    }),
    change: { path: ['spec', 'limited', 'lendablePercent'], value: 10 },
  },
];
