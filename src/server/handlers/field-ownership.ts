/**
 * Field ownership on every write: the field manager storage runs for a write that names its
 * manager ({@link recordUpdateOwnership}, which the server gives the object storage it builds:
 * registry/prepare-write.ts `FieldManager`), and the per-kind facts it needs: each kind's merge
 * schema, the fields each endpoint resets, and the kind's empty object a create is compared with.
 */
import type { KubeObject } from '../../protocol/events.js';
import { NODE_INFO_FIELDS } from '../kinds/core/node.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import type { FieldManager, UpdateScope } from '../registry/prepare-write.js';
import type { MergeNode } from '../ssa/merge-schema.js';

type SsaModules = [
  typeof import('../ssa/index.js'),
  typeof import('../ssa/builtin-schema.js'),
  typeof import('../ssa/custom-schema.js'),
];
let ssaModules: Promise<SsaModules> | undefined;

/** The field manager's code, loaded on the first write that records ownership (its merge tables are large). */
export function loadSsa(): Promise<SsaModules> {
  ssaModules ??= Promise.all([
    import('../ssa/index.js'),
    import('../ssa/builtin-schema.js'),
    import('../ssa/custom-schema.js'),
  ]);
  return ssaModules;
}

/** The merge schema of `kind`'s objects (ssa builtin-schema.ts, or custom-schema.ts for a custom kind). */
export async function mergeNodeFor(kind: ResourceKind): Promise<MergeNode> {
  const [, builtin, custom] = await loadSsa();
  return kind.custom ? custom.customMergeNodeOfKind(kind) : builtin.mergeNodeOfKind(kind);
}

/**
 * The fields an endpoint resets, as FieldsV1 (the strategies' `GetResetFields`): the main resource
 * resets `status` where /status is served; /status resets the rest. Each from its strategy.go:
 * pkg/registry/apps/{deployment,replicaset,statefulset,daemonset}, core/{pod,node,service,
 * namespace}, apiextensions-apiserver pkg/registry/customresourcedefinition and
 * pkg/registry/customresource (`statusStrategy.GetResetFields`: metadata and spec).
 */
export function resetFieldsV1(kind: ResourceKind, scope: UpdateScope): Record<string, unknown> | undefined {
  if (!kind.subresources.includes('status')) return undefined;
  if (kind.group === 'certificates.k8s.io' && kind.kind === 'CertificateSigningRequest') {
    return CSR_RESET_FIELDS[scope];
  }
  // pods/ephemeralcontainers and pods/resize reset nothing: kube-apiserver's field manager records
  // whatever the write sent (labels, other spec fields) though the strategy then drops all but the
  // ephemeral containers, or the resources (observed on the reference: EphemeralContainersREST and
  // ResizeREST implement neither ResetFieldsStrategy nor ResetFieldsFilterStrategy).
  if (scope === 'ephemeralcontainers' || scope === 'resize') return undefined;
  if (scope === 'main' || scope === 'finalize') return { 'f:status': {} };
  if (kind.custom || (kind.group === 'apiextensions.k8s.io' && kind.kind === 'CustomResourceDefinition')) {
    return { 'f:metadata': {}, 'f:spec': {} };
  }
  switch (`${kind.group}/${kind.kind}`) {
    case 'storagemigration.k8s.io/StorageVersionMigration':
    case 'networking.k8s.io/ServiceCIDR':
      // servicecidr/strategy.go: its status strategy resets the metadata too.
      return { 'f:metadata': {}, 'f:spec': {} };
    case 'apps/Deployment':
      return { 'f:spec': {}, 'f:metadata': { 'f:labels': {} } };
    case '/Pod':
      return { 'f:spec': {}, 'f:metadata': { 'f:deletionTimestamp': {}, 'f:ownerReferences': {} } };
    default:
      return { 'f:spec': {} };
  }
}

/**
 * pkg/registry/certificates/certificates/strategy.go `GetResetFields`: a CertificateSigningRequest's
 * spec is the creator's alone, set at create; the main endpoint resets the status too, /status
 * the approval conditions, /approval the issued certificate.
 */
const CSR_RESET_FIELDS: Partial<Record<UpdateScope, Record<string, unknown>>> = {
  main: { 'f:spec': {}, 'f:status': {} },
  status: { 'f:spec': {}, 'f:status': { 'f:conditions': {} } },
  approval: { 'f:spec': {}, 'f:status': { 'f:certificate': {} } },
};

const ZERO_META = { creationTimestamp: null };
const ZERO_TEMPLATE = { metadata: ZERO_META, spec: { containers: null } };

/**
 * The kind's new, empty Go object as kube-apiserver serializes it (create.go compares a create
 * with `scope.Creater.New(kind)`): struct fields are always written, `omitempty` or not, a zero
 * metav1.Time as `null`, fields without `omitempty` at their zero value. From the Go types of
 * k8s.io/api core/v1, apps/v1, coordination/v1 and apiextensions/v1 (json tags of 1.30). A custom
 * resource's is an empty Unstructured.
 */
export function emptyObjectOf(kind: ResourceKind): Record<string, unknown> {
  if (kind.custom) return {};
  switch (`${kind.group}/${kind.kind}`) {
    case '/Namespace':
      return { metadata: ZERO_META, spec: {}, status: {} };
    case '/Pod':
      return { metadata: ZERO_META, spec: { containers: null }, status: {} };
    case '/Node': {
      const info = Object.fromEntries(NODE_INFO_FIELDS.map((k) => [k, '']));
      return {
        metadata: ZERO_META,
        spec: {},
        status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: info },
      };
    }
    case '/Service':
      return { metadata: ZERO_META, spec: {}, status: { loadBalancer: {} } };
    case '/Event':
      return {
        metadata: ZERO_META,
        involvedObject: {},
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: null,
        reportingComponent: '',
        reportingInstance: '',
      };
    case 'events.k8s.io/Event':
      return {
        metadata: ZERO_META,
        eventTime: null,
        regarding: {},
        deprecatedSource: {},
        deprecatedFirstTimestamp: null,
        deprecatedLastTimestamp: null,
      };
    case 'autoscaling/HorizontalPodAutoscaler':
      return {
        metadata: ZERO_META,
        spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 },
        status:
          kind.version === 'v1'
            ? { currentReplicas: 0, desiredReplicas: 0 }
            : { desiredReplicas: 0, currentMetrics: null },
      };
    case '/PodTemplate':
      return { metadata: ZERO_META, template: ZERO_TEMPLATE };
    case 'apps/Deployment':
      return {
        metadata: ZERO_META,
        spec: { selector: null, template: ZERO_TEMPLATE, strategy: {} },
        status: {},
      };
    case 'apps/ReplicaSet':
      return {
        metadata: ZERO_META,
        spec: { selector: null, template: ZERO_TEMPLATE },
        status: { replicas: 0 },
      };
    case 'apps/StatefulSet':
      return {
        metadata: ZERO_META,
        spec: { selector: null, template: ZERO_TEMPLATE, serviceName: '', updateStrategy: {} },
        status: { replicas: 0, availableReplicas: 0 },
      };
    case 'apps/DaemonSet':
      return {
        metadata: ZERO_META,
        spec: { selector: null, template: ZERO_TEMPLATE, updateStrategy: {} },
        status: {
          currentNumberScheduled: 0,
          numberMisscheduled: 0,
          desiredNumberScheduled: 0,
          numberReady: 0,
        },
      };
    case 'coordination.k8s.io/Lease':
      return { metadata: ZERO_META, spec: {} };
    case 'storagemigration.k8s.io/StorageVersionMigration':
      return { metadata: ZERO_META, spec: { resource: { group: '', resource: '' } }, status: {} };
    case 'discovery.k8s.io/EndpointSlice':
      return { metadata: ZERO_META, addressType: '', endpoints: null, ports: null };
    case 'rbac.authorization.k8s.io/Role':
    case 'rbac.authorization.k8s.io/ClusterRole':
      return { metadata: ZERO_META, rules: null };
    case 'certificates.k8s.io/ClusterTrustBundle':
      return { metadata: ZERO_META, spec: { trustBundle: '' } };
    case 'certificates.k8s.io/PodCertificateRequest': {
      const names = ['signerName', 'podName', 'podUID', 'serviceAccountName', 'serviceAccountUID'];
      const spec = Object.fromEntries([...names, 'nodeName', 'nodeUID'].map((k) => [k, '']));
      return { metadata: ZERO_META, spec: { ...spec, stubPKCS10Request: null }, status: {} };
    }
    case '/PersistentVolumeClaim':
      return { metadata: ZERO_META, spec: { resources: {} }, status: {} };
    case '/PersistentVolume':
      return { metadata: ZERO_META, spec: {}, status: {} };
    case 'storage.k8s.io/StorageClass':
      return { metadata: ZERO_META, provisioner: '' };
    case 'storage.k8s.io/CSIDriver':
      return { metadata: ZERO_META, spec: {} };
    case 'storage.k8s.io/CSINode':
      return { metadata: ZERO_META, spec: { drivers: null } };
    case 'storage.k8s.io/CSIStorageCapacity':
      return { metadata: ZERO_META, storageClassName: '' };
    case 'storage.k8s.io/VolumeAttributesClass':
      return { metadata: ZERO_META, driverName: '' };
    case 'storage.k8s.io/VolumeAttachment':
      return {
        metadata: ZERO_META,
        spec: { attacher: '', source: {}, nodeName: '' },
        status: { attached: false },
      };
    case 'resource.k8s.io/DeviceClass':
      return { metadata: ZERO_META, spec: {} };
    case 'resource.k8s.io/ResourceClaim':
      return { metadata: ZERO_META, spec: { devices: { requests: null } }, status: {} };
    case 'resource.k8s.io/ResourceClaimTemplate':
      return { metadata: ZERO_META, spec: { metadata: {}, spec: { devices: { requests: null } } } };
    case 'resource.k8s.io/ResourceSlice':
      return {
        metadata: ZERO_META,
        spec: { driver: '', pool: { name: '', generation: 0, resourceSliceCount: 0 } },
      };
    case 'resource.k8s.io/DeviceTaintRule':
      return { metadata: ZERO_META, spec: { taint: { key: '', effect: '' } }, status: {} };
    case '/LimitRange':
      return { metadata: ZERO_META, spec: {} };
    case '/ResourceQuota':
      return { metadata: ZERO_META, spec: {}, status: {} };
    case '/ReplicationController':
      return { metadata: ZERO_META, spec: {}, status: { replicas: 0 } };
    case 'apiextensions.k8s.io/CustomResourceDefinition':
      return {
        metadata: ZERO_META,
        spec: { group: '', names: { plural: '', kind: '' }, scope: '', versions: null },
        status: { acceptedNames: { plural: '', kind: '' }, storedVersions: null },
      };
    case 'batch/Job':
      return { metadata: ZERO_META, spec: { template: ZERO_TEMPLATE }, status: {} };
    case 'batch/CronJob':
      return {
        metadata: ZERO_META,
        spec: { schedule: '', jobTemplate: { metadata: ZERO_META, spec: { template: ZERO_TEMPLATE } } },
        status: {},
      };
    case 'networking.k8s.io/Ingress':
      return { metadata: ZERO_META, spec: {}, status: { loadBalancer: {} } };
    case 'networking.k8s.io/NetworkPolicy':
      return { metadata: ZERO_META, spec: { podSelector: {} } };
    case 'networking.k8s.io/ServiceCIDR':
      return { metadata: ZERO_META, spec: {}, status: {} };
    case 'networking.k8s.io/IngressClass':
    case 'networking.k8s.io/IPAddress':
      return { metadata: ZERO_META, spec: {} };
    case 'policy/PodDisruptionBudget':
      return {
        metadata: ZERO_META,
        spec: {},
        status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
      };
    case 'admissionregistration.k8s.io/ValidatingAdmissionPolicy':
      return { metadata: ZERO_META, spec: {}, status: {} };
    case 'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration':
      return { metadata: ZERO_META, spec: { type: '' }, status: {} };
    case 'admissionregistration.k8s.io/MutatingAdmissionPolicy':
    case 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding':
    case 'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding':
      return { metadata: ZERO_META, spec: {} };
    case 'apiregistration.k8s.io/APIService':
      return { metadata: ZERO_META, spec: { groupPriorityMinimum: 0, versionPriority: 0 }, status: {} };
    case 'flowcontrol.apiserver.k8s.io/FlowSchema':
      return {
        metadata: ZERO_META,
        spec: { priorityLevelConfiguration: { name: '' }, matchingPrecedence: 0 },
        status: {},
      };
    default:
      return { metadata: ZERO_META };
  }
}

/**
 * fieldmanager.go `UpdateNoErrors` as create.go, update.go and patch.go run it: on the decoded,
 * defaulted object against the live one (the kind's empty object for a create), with the
 * endpoint's reset fields ignored; the subresource (`status`, `finalize`) names the entry.
 */
export const recordUpdateOwnership: FieldManager = async (
  kind: ResourceKind,
  live: KubeObject | undefined,
  next: KubeObject,
  scope: UpdateScope,
  manager: string,
  now: number,
  sentSpec?: ReadonlySet<string>,
): Promise<KubeObject> => {
  const [ssa] = await loadSsa();
  const view = live === undefined ? withoutLaterAdditions(kind, next, sentSpec) : next;
  const reset = resetFieldsV1(kind, scope);
  const result = ssa.recordUpdate({
    node: await mergeNodeFor(kind),
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    subresource: scope === 'main' ? undefined : scope,
    ignoredFields: reset === undefined ? undefined : ssa.fieldsV1ToSet(reset),
    empty: emptyObjectOf(kind),
    manager,
    now: new Date(now),
    live,
    next: view,
  });
  if (view === next) return result.object as KubeObject;
  const meta = { ...next.metadata };
  if (result.managedFields === undefined) delete meta.managedFields;
  else meta.managedFields = result.managedFields;
  return { ...next, metadata: meta };
};

/**
 * The `spec` fields a create gets after create.go ran the field manager, by kind: mutating
 * admission (plugin/pkg/admission/serviceaccount: serviceAccountName; priority:
 * priority and preemptionPolicy; defaulttolerationseconds: tolerations), the v1 conversion's
 * `serviceAccount` mirror, and the Service REST storage's IP allocation
 * (pkg/registry/core/service/storage `REST.beginCreate`: clusterIP(s), ipFamilies,
 * ipFamilyPolicy). Here they are set with the defaults; the creator owns them only when it sent them.
 */
const SET_AFTER_FIELD_MANAGER: Readonly<Record<string, readonly string[]>> = {
  '/Pod': ['serviceAccountName', 'serviceAccount', 'priority', 'preemptionPolicy', 'tolerations'],
  '/Service': ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'],
};

/**
 * A Pod's `serviceAccountName` and its deprecated mirror `serviceAccount`: the v1 conversion
 * (pkg/apis/core/v1/conversion.go) fills either from the other when the request is decoded, so
 * the field manager sees both, and the creator owns both, when either was sent.
 */
const MIRRORED: Readonly<Record<string, string>> = {
  serviceAccountName: 'serviceAccount',
  serviceAccount: 'serviceAccountName',
};

/** `next` as the field manager saw it on kube-apiserver: without what was added after it ran. */
function withoutLaterAdditions(
  kind: ResourceKind,
  next: KubeObject,
  sentSpec: ReadonlySet<string> | undefined,
): KubeObject {
  const later = kind.custom ? undefined : SET_AFTER_FIELD_MANAGER[`${kind.group}/${kind.kind}`];
  const spec = next.spec as Record<string, unknown> | undefined;
  if (later === undefined || sentSpec === undefined || spec === undefined) return next;
  const sent = (k: string) => sentSpec.has(k) || (MIRRORED[k] !== undefined && sentSpec.has(MIRRORED[k]));
  const dropped = later.filter((k) => k in spec && !sent(k));
  if (dropped.length === 0) return next;
  const viewSpec = { ...spec };
  for (const k of dropped) delete viewSpec[k];
  return { ...next, spec: viewSpec };
}
