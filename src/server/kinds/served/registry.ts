/**
 * The served resources: one {@link ResourceKind} entry per kind, carrying
 * what kube-apiserver knows about it (discovery names, scope, subresources,
 * selectable fields, generation rules, defaulting, validation, table
 * columns), and the lookups the server uses to find an entry.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { rec } from '../access.js';
import {
  defaultMutatingWebhookConfiguration,
  defaultValidatingWebhookConfiguration,
  validateMutatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
  webhookConfigurationColumns,
} from '../admissionregistration/validation.js';
import {
  configMapColumns,
  daemonSetColumns,
  deploymentColumns,
  eventColumns,
  leaseColumns,
  namespaceColumns,
  nodeColumns,
  podColumns,
  replicaSetColumns,
  secretColumns,
  serviceColumns,
  statefulSetColumns,
} from '../columns.js';
import { prepareDaemonSetCreate, settleDaemonSetUpdate } from '../apps/daemonset-generation.js';
import {
  defaultDaemonSet,
  defaultDeployment,
  defaultEvent,
  defaultNamespace,
  defaultNode,
  defaultReplicaSet,
  defaultSecret,
  defaultService,
  defaultStatefulSet,
} from '../core/node.js';
import { defaultPod } from '../core/pod/defaults.js';
import { taintNewNode } from '../node-admission.js';
import { markPodDeleted, preparePodCreate, preservePodObservedGeneration } from '../core/pod/strategy.js';
import {
  eventFields,
  namespaceFields,
  nodeFields,
  podFields,
  replicaSetFields,
  secretFields,
  serviceFields,
} from '../selectable-fields.js';
import { validateClusterIpUpdate } from '../core/service/allocation.js';
import { apiVersionOf, type ResourceKind } from '../types.js';
import {
  validateDaemonSet,
  validateDeployment,
  validateReplicaSet,
  validateSelectorUnchanged,
  validateStatefulSet,
  validateStatefulSetUpdate,
} from '../apps/workload-validation.js';
import {
  validateConfigMap,
  validateEvent,
  validateImmutableData,
  validateLease,
  validateNamespace,
  validateNode,
  validatePod,
  validateSecret,
  validateSecretUpdate,
  validateService,
} from '../validation-core.js';
import { validatePodUpdate } from '../core/pod/update-validation.js';

/**
 * The workloads' `/scale`: autoscaling/v1 Scale reads replicas and the selector from these paths.
 * `versions` are the group/versions the kind has had, each with spec.replicas (the registries'
 * `ReplicasPathMappings`: pkg/registry/apps/{deployment,statefulset,replicaset}/storage/storage.go;
 * apps/v1beta1 had no ReplicaSet).
 */
function replicasScale(versions: string[]): NonNullable<ResourceKind['scale']> {
  return {
    specReplicas: 'spec.replicas',
    statusReplicas: 'status.replicas',
    labelSelector: 'spec.selector',
    replicasPathByVersion: Object.fromEntries(versions.map((v) => [v, 'spec.replicas'])),
  };
}

/** Workload generation: only spec changes bump it (kube's PrepareForUpdate of the apps strategies). */
const SPEC_GENERATION = ['spec'];

/**
 * Namespaces are created with the `kubernetes` finalizer, which the namespace lifecycle removes
 * once they are empty; and the name label defaulting could not set on a generated name
 * (pkg/registry/core/namespace/strategy.go `PrepareForCreate`, `Canonicalize`).
 */
function prepareNamespace(obj: KubeObject): void {
  defaultNamespace(obj);
  const spec = rec(obj.spec);
  const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
  if (!finalizers.includes('kubernetes')) obj.spec = { ...spec, finalizers: [...finalizers, 'kubernetes'] };
}

/**
 * Every served kind. Leases have no defaulting in kube, and Events none but the Go zero values
 * their JSON always carries (core/v1 defines no SetDefaults_Event: `type` and `count` stay as
 * the reporter sent them); ConfigMaps' only default (an empty `data` map) never shows on the
 * wire, so they have none here either.
 */
export const REGISTRY: ResourceKind[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    categories: [],
    fields: namespaceFields,
    subresources: ['status'],
    generationFields: [],
    defaults: defaultNamespace,
    prepareForCreate: prepareNamespace,
    validate: validateNamespace,
    columns: namespaceColumns,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    fields: podFields,
    subresources: ['status'],
    // Pods carry metadata.generation since 1.34 (PodObservedGenerationTracking, KEP-5067; GA and
    // locked on in 1.35): 1 at create, bumped by any change of the defaulted spec
    // (pkg/registry/core/pod/strategy.go `PrepareForCreate`, `updatePodGeneration`), never by
    // pods/status nor pods/binding, which writes storage directly (storage.go `setPodNodeAndMetadata`).
    generationFields: ['spec'],
    defaults: defaultPod,
    prepareForCreate: preparePodCreate,
    prepareForStatusUpdate: preservePodObservedGeneration,
    deleteGracefully: markPodDeleted,
    validate: validatePod,
    validateUpdate: validatePodUpdate,
    columns: podColumns,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    singular: 'node',
    namespaced: false,
    shortNames: ['no'],
    categories: [],
    fields: nodeFields,
    subresources: ['status'],
    generationFields: [],
    defaults: defaultNode,
    admitCreate: taintNewNode,
    validate: validateNode,
    columns: nodeColumns,
  },
  {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    singular: 'configmap',
    namespaced: true,
    shortNames: ['cm'],
    categories: [],
    fields: {},
    subresources: [],
    generationFields: [],
    validate: validateConfigMap,
    validateUpdate: (obj, old) => validateImmutableData(obj, old, ['data', 'binaryData']),
    columns: configMapColumns,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    singular: 'secret',
    namespaced: true,
    shortNames: [],
    categories: [],
    fields: secretFields,
    subresources: [],
    generationFields: [],
    defaults: defaultSecret,
    validate: validateSecret,
    validateUpdate: validateSecretUpdate,
    columns: secretColumns,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    fields: serviceFields,
    subresources: ['status'],
    generationFields: [],
    defaults: defaultService,
    validate: validateService,
    validateUpdate: validateClusterIpUpdate,
    columns: serviceColumns,
    // pkg/registry/core/service/strategy.go `AllowCreateOnUpdate`.
    allowCreateOnUpdate: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    categories: [],
    fields: eventFields,
    subresources: [],
    generationFields: [],
    defaults: defaultEvent,
    validate: validateEvent,
    columns: eventColumns,
    columnsIncludeName: true,
    // pkg/registry/core/event/strategy.go `AllowCreateOnUpdate`.
    allowCreateOnUpdate: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    singular: 'deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    fields: {},
    subresources: ['status', 'scale'],
    // Annotations count too: the deployment controller copies them onto ReplicaSets.
    generationFields: ['spec', 'metadata.annotations'],
    defaults: defaultDeployment,
    validate: validateDeployment,
    validateUpdate: validateSelectorUnchanged,
    columns: deploymentColumns,
    scale: replicasScale(['apps/v1beta1', 'apps/v1beta2', 'apps/v1']),
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    singular: 'replicaset',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    fields: replicaSetFields,
    subresources: ['status', 'scale'],
    generationFields: SPEC_GENERATION,
    defaults: defaultReplicaSet,
    validate: validateReplicaSet,
    validateUpdate: validateSelectorUnchanged,
    columns: replicaSetColumns,
    scale: replicasScale(['apps/v1beta2', 'apps/v1']),
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    singular: 'statefulset',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    fields: {},
    subresources: ['status', 'scale'],
    generationFields: SPEC_GENERATION,
    defaults: defaultStatefulSet,
    validate: validateStatefulSet,
    validateUpdate: validateStatefulSetUpdate,
    columns: statefulSetColumns,
    scale: replicasScale(['apps/v1beta1', 'apps/v1beta2', 'apps/v1']),
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    singular: 'daemonset',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    fields: {},
    subresources: ['status'],
    generationFields: SPEC_GENERATION,
    defaults: defaultDaemonSet,
    prepareForCreate: prepareDaemonSetCreate,
    afterFieldManager: settleDaemonSetUpdate,
    validate: validateDaemonSet,
    validateUpdate: validateSelectorUnchanged,
    columns: daemonSetColumns,
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    singular: 'lease',
    namespaced: true,
    shortNames: [],
    categories: [],
    fields: {},
    subresources: [],
    generationFields: [],
    validate: validateLease,
    columns: leaseColumns,
    // pkg/registry/coordination/lease/strategy.go: a PUT may create a lease, and must name the
    // version it replaces.
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
  },
  // The admission webhooks' configurations (pkg/registry/admissionregistration): cluster-scoped,
  // no status, generation bumped by any change of `webhooks` (strategy.go `PrepareForUpdate`).
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    singular: 'validatingwebhookconfiguration',
    namespaced: false,
    shortNames: [],
    categories: ['api-extensions'],
    fields: {},
    subresources: [],
    generationFields: ['webhooks'],
    defaults: defaultValidatingWebhookConfiguration,
    validate: validateValidatingWebhookConfiguration,
    columns: webhookConfigurationColumns,
    // validatingwebhookconfiguration/strategy.go `AllowUnconditionalUpdate`.
    allowUnconditionalUpdate: false,
  },
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    singular: 'mutatingwebhookconfiguration',
    namespaced: false,
    shortNames: [],
    categories: ['api-extensions'],
    fields: {},
    subresources: [],
    generationFields: ['webhooks'],
    defaults: defaultMutatingWebhookConfiguration,
    validate: validateMutatingWebhookConfiguration,
    columns: webhookConfigurationColumns,
    // mutatingwebhookconfiguration/strategy.go `AllowUnconditionalUpdate`.
    allowUnconditionalUpdate: false,
  },
];

/** A kind's identity as `<apiVersion>/<Kind>`: `v1/Pod`, `apps/v1/Deployment`. */
export function kindKey(k: Pick<ResourceKind, 'group' | 'version' | 'kind'>): string {
  return `${apiVersionOf(k)}/${k.kind}`;
}

const byPlural = new Map(REGISTRY.map((k) => [`${k.group}/${k.version}/${k.plural}`, k]));
const byKindKey = new Map(REGISTRY.map((k) => [kindKey(k), k]));

/** The kind served at `/apis/<group>/<version>/<plural>` (`group` "" for `/api/v1`). */
export function findByPlural(group: string, version: string, plural: string): ResourceKind | undefined {
  return byPlural.get(`${group}/${version}/${plural}`);
}

const CORE_VERSION_RE = /^v\d+((alpha|beta)\d+)?$/;

/**
 * The kind `kind` of an apiVersion (`apps/v1`, `v1`) or of a group (`apps`,
 * "" for core) in any served version.
 */
export function findByKind(groupOrApiVersion: string, kind: string): ResourceKind | undefined {
  if (groupOrApiVersion.includes('/') || CORE_VERSION_RE.test(groupOrApiVersion)) {
    const slash = groupOrApiVersion.indexOf('/');
    const group = slash < 0 ? '' : groupOrApiVersion.slice(0, slash);
    const version = slash < 0 ? groupOrApiVersion : groupOrApiVersion.slice(slash + 1);
    return byKindKey.get(kindKey({ group, version, kind }));
  }
  return REGISTRY.find((k) => k.group === groupOrApiVersion && k.kind === kind);
}

/**
 * What kubectl's RESTMapper accepts on a command line: a plural, singular,
 * short name or kind (any case), optionally qualified by group
 * (`deployments.apps`, `deploy.apps`).
 */
export function resolveResource(name: string): ResourceKind | undefined {
  const lower = name.toLowerCase();
  const matches = (k: ResourceKind, n: string) =>
    k.plural === n || k.singular === n || k.shortNames.includes(n) || k.kind.toLowerCase() === n;
  const direct = REGISTRY.find((k) => matches(k, lower));
  if (direct) return direct;
  const dot = lower.indexOf('.');
  if (dot < 0) return undefined;
  const [resource, group] = [lower.slice(0, dot), lower.slice(dot + 1)];
  return REGISTRY.find((k) => k.group === group && matches(k, resource));
}
