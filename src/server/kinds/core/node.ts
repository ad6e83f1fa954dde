/**
 * Defaulting of the non-pod kinds, as kube-apiserver applies it when it
 * decodes a create or update: pkg/apis/apps/v1/defaults.go, the core/v1
 * SetDefaults_* functions, the v1 conversions that mirror fields, and the
 * zero values Go always serializes (a new ReplicaSet reads back with
 * `status: {replicas: 0}` because that field has no `omitempty`).
 *
 * Each function mutates the object it is given and only fills what is unset,
 * so it is idempotent and never overrides a client's value, with one
 * exception kube makes too: a Namespace's `kubernetes.io/metadata.name` label
 * always equals its name.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, isObject, type JsonObject, objects, rec, setDefault, str } from '../access.js';
import { roundTripTemplateGeneration } from '../apps/daemonset-generation.js';
import { defaultPodSpec } from './pod/defaults.js';

function setIfAbsent(obj: JsonObject, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** A workload's `spec.template.spec` gets the PodSpec defaults (not the Pod-only ones like enableServiceLinks). */
function defaultTemplate(spec: JsonObject): void {
  const template = child(spec, 'template');
  const podSpec = template && child(template, 'spec');
  if (podSpec) defaultPodSpec(podSpec);
}

/** Go's non-omitempty status integers: present as 0 until a controller writes them. */
function zeroStatus(obj: JsonObject, fields: readonly string[]): void {
  const status = child(obj, 'status');
  if (status) for (const f of fields) setIfAbsent(status, f, 0);
}

/** SetDefaults_Deployment: 1 replica, RollingUpdate 25%/25%, 10 old ReplicaSets kept, 600 s to progress. */
export function defaultDeployment(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setIfAbsent(spec, 'replicas', 1);
    const strategy = child(spec, 'strategy');
    if (strategy) {
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') {
        const ru = child(strategy, 'rollingUpdate');
        if (ru) {
          setIfAbsent(ru, 'maxUnavailable', '25%');
          setIfAbsent(ru, 'maxSurge', '25%');
        }
      }
    }
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    setIfAbsent(spec, 'progressDeadlineSeconds', 600);
    defaultTemplate(spec);
  }
  zeroStatus(obj, []);
}

/** SetDefaults_ReplicaSet: 1 replica. */
export function defaultReplicaSet(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setIfAbsent(spec, 'replicas', 1);
    defaultTemplate(spec);
  }
  zeroStatus(obj, ['replicas']);
}

/**
 * SetDefaults_StatefulSet: OrderedReady, RollingUpdate with partition 0 and
 * maxUnavailable 1 (only when kube created the rollingUpdate itself or one
 * was sent; maxUnavailable since MaxUnavailableStatefulSet went on by default
 * in 1.37, pkg/features/kube_features.go), PVCs retained
 * (StatefulSetAutoDeletePVC is on by default since 1.27), 1 replica, 10
 * revisions; claim templates get SetDefaults_PersistentVolumeClaim(Spec).
 */
export function defaultStatefulSet(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    const strategy = child(spec, 'updateStrategy');
    if (strategy) {
      if (str(strategy.type) === '') {
        strategy.type = 'RollingUpdate';
        child(strategy, 'rollingUpdate');
      }
      if (strategy.type === 'RollingUpdate' && isObject(strategy.rollingUpdate)) {
        setIfAbsent(strategy.rollingUpdate, 'partition', 0);
        setIfAbsent(strategy.rollingUpdate, 'maxUnavailable', 1);
      }
    }
    const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
    if (retention) {
      setDefault(retention, 'whenDeleted', 'Retain');
      setDefault(retention, 'whenScaled', 'Retain');
    }
    setIfAbsent(spec, 'replicas', 1);
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
    for (const claim of objects(spec.volumeClaimTemplates)) {
      const claimSpec = child(claim, 'spec');
      if (claimSpec) setIfAbsent(claimSpec, 'volumeMode', 'Filesystem');
      const claimStatus = child(claim, 'status');
      if (claimStatus) setDefault(claimStatus, 'phase', 'Pending');
    }
  }
  zeroStatus(obj, ['availableReplicas', 'replicas']);
}

/**
 * SetDefaults_DaemonSet: RollingUpdate one node at a time without surge, 10 revisions; and the
 * template generation annotation as the apps/v1 conversion writes it back.
 */
export function defaultDaemonSet(obj: KubeObject): void {
  roundTripTemplateGeneration(obj);
  const spec = child(obj, 'spec');
  if (spec) {
    const strategy = child(spec, 'updateStrategy');
    if (strategy) {
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') {
        const ru = child(strategy, 'rollingUpdate');
        if (ru) {
          setIfAbsent(ru, 'maxUnavailable', 1);
          setIfAbsent(ru, 'maxSurge', 0);
        }
      }
    }
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
  }
  zeroStatus(obj, ['currentNumberScheduled', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady']);
}

/**
 * SetDefaults_Service, plus what the service REST storage settles on every
 * write of a single-stack IPv4 cluster: `clusterIP`/`clusterIPs` mirrored and
 * the IP family fields. Allocating the cluster IP itself (and node ports) is
 * the storage layer's job, not defaulting.
 */
export function defaultService(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setDefault(spec, 'sessionAffinity', 'None');
    if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
    if (spec.sessionAffinity === 'ClientIP') {
      const timeout = rec(rec(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
      if (timeout === undefined || timeout === null) {
        spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
      }
    }
    setDefault(spec, 'type', 'ClusterIP');
    for (const port of objects(spec.ports)) {
      setDefault(port, 'protocol', 'TCP');
      if (
        port.targetPort === undefined ||
        port.targetPort === null ||
        port.targetPort === 0 ||
        port.targetPort === ''
      ) {
        port.targetPort = port.port;
      }
    }
    const type = spec.type;
    const external = Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
    if (type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && external)) {
      setDefault(spec, 'externalTrafficPolicy', 'Cluster');
    }
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') {
      setIfAbsent(spec, 'internalTrafficPolicy', 'Cluster');
    }
    if (type === 'LoadBalancer') setIfAbsent(spec, 'allocateLoadBalancerNodePorts', true);
    const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
    if (str(spec.clusterIP) !== '' && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
    else if (str(spec.clusterIP) === '' && typeof ips[0] === 'string') spec.clusterIP = ips[0];
    if (type !== 'ExternalName') {
      setIfAbsent(spec, 'ipFamilyPolicy', 'SingleStack');
      setIfAbsent(spec, 'ipFamilies', ['IPv4']);
    }
  }
  const status = child(obj, 'status');
  if (status) setIfAbsent(status, 'loadBalancer', {});
}

/** SetDefaults_Namespace and SetDefaults_NamespaceStatus: the name label (always kept equal to the name) and phase Active. */
export function defaultNamespace(obj: KubeObject): void {
  const meta = child(obj, 'metadata');
  const name = str(meta?.name);
  if (meta && name !== '') {
    const labels = child(meta, 'labels');
    if (labels) labels['kubernetes.io/metadata.name'] = name;
  }
  const status = child(obj, 'status');
  if (status) setDefault(status, 'phase', 'Active');
}

/**
 * SetDefaults_Secret (type Opaque) and the v1 conversion of `stringData`:
 * its entries overwrite `data` (base64-encoded) and the field itself is never
 * stored or returned, which is why `kubectl get -o yaml` never shows it.
 */
export function defaultSecret(obj: KubeObject): void {
  if (obj.type === undefined || obj.type === null || obj.type === '') obj.type = 'Opaque';
  if (obj.stringData === undefined) return;
  if (isObject(obj.stringData) && Object.keys(obj.stringData).length > 0) {
    const data = child(obj, 'data');
    if (!data) return;
    for (const [key, value] of Object.entries(obj.stringData)) {
      data[key] = Buffer.from(str(value), 'utf8').toString('base64');
    }
  }
  delete obj.stringData;
}

/** NodeSystemInfo's fields without `omitempty` (k8s.io/api core/v1 types.go). */
export const NODE_INFO_FIELDS = [
  'machineID',
  'systemUUID',
  'bootID',
  'kernelVersion',
  'osImage',
  'containerRuntimeVersion',
  'kubeletVersion',
  'kubeProxyVersion',
  'operatingSystem',
  'architecture',
];

/**
 * SetDefaults_NodeStatus (allocatable = capacity when unset), the podCIDR/podCIDRs mirror, and
 * the Go zero values a Node's JSON always carries: `spec` and `status` (structs), and in status
 * `daemonEndpoints.kubeletEndpoint.Port` and every `nodeInfo` string (no `omitempty`).
 */
export function defaultNode(obj: KubeObject): void {
  child(obj as JsonObject, 'spec');
  const zeroStatus = child(obj as JsonObject, 'status');
  const endpoint = zeroStatus && child(child(zeroStatus, 'daemonEndpoints') ?? {}, 'kubeletEndpoint');
  if (endpoint) setIfAbsent(endpoint, 'Port', 0);
  const info = zeroStatus && child(zeroStatus, 'nodeInfo');
  if (info) for (const field of NODE_INFO_FIELDS) setIfAbsent(info, field, '');
  const spec = rec(obj.spec);
  const cidrs = Array.isArray(spec.podCIDRs) ? spec.podCIDRs : [];
  if (str(spec.podCIDR) !== '' && cidrs.length === 0) spec.podCIDRs = [spec.podCIDR];
  else if (str(spec.podCIDR) === '' && typeof cidrs[0] === 'string') spec.podCIDR = cidrs[0];
  const status = rec(obj.status);
  if (isObject(status.capacity) && (status.allocatable === undefined || status.allocatable === null)) {
    status.allocatable = { ...status.capacity };
  }
}

/**
 * A core/v1 Event as kube-apiserver writes it back: core/v1 defines no SetDefaults_Event, but the
 * Go struct's fields without `omitempty` (types.go `Event`) are always serialized, the times at
 * their zero value `null` (metav1.Time and MicroTime encode a zero time so, omitempty or not),
 * the reporting controller and instance as "", the involved object and the source as objects.
 */
export function defaultEvent(obj: KubeObject): void {
  const event = obj as JsonObject;
  child(event, 'involvedObject');
  child(event, 'source');
  for (const time of ['firstTimestamp', 'lastTimestamp', 'eventTime']) {
    if (event[time] === undefined) event[time] = null;
  }
  for (const field of ['reportingComponent', 'reportingInstance']) setIfAbsent(event, field, '');
}
