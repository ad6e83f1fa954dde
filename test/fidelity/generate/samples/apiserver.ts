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
];
