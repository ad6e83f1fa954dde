/**
 * Pod and PodSpec defaulting: pkg/apis/core/v1/defaults.go (SetDefaults_Pod,
 * SetDefaults_PodSpec, SetDefaults_Container, ...), the v1 conversion's field
 * mirrors, the pod strategy's PrepareForCreate (phase, QoS class) and the
 * admission plugins every cluster runs on pod creation (ServiceAccount,
 * Priority, DefaultTolerationSeconds). Everything only fills what is unset,
 * so applying it again, or on an update, changes nothing.
 */

import { parseQuantity } from '../../../../protocol/quantity.js';
import { arr, child, isObject, type JsonObject, objects, rec, setDefault, str } from '../../access.js';

/**
 * The tag `parsers.ParseImageName` finds: an explicit tag, "latest" when
 * there is neither tag nor digest, "" for a digest-only or unparsable reference.
 */
export function imageTag(image: string): string {
  if (image === '') return '';
  const at = image.indexOf('@');
  const ref = at >= 0 ? image.slice(0, at) : image;
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  const repo = colon > slash ? ref.slice(0, colon) : ref;
  // Docker references reject upper-case repositories; kube then finds no tag.
  if (repo === '' || /[A-Z]/.test(repo.slice(repo.indexOf('/') + 1))) return '';
  if (colon > slash) return ref.slice(colon + 1);
  return at >= 0 ? '' : 'latest';
}

/** SetDefaults_Probe and SetDefaults_HTTPGetAction. */
function defaultProbe(probe: unknown): void {
  if (!isObject(probe)) return;
  setZero(probe, 'timeoutSeconds', 1);
  setZero(probe, 'periodSeconds', 10);
  setZero(probe, 'successThreshold', 1);
  setZero(probe, 'failureThreshold', 3);
  defaultHttpGet(probe.httpGet);
}

/** Go defaults int fields that are 0 (absent and 0 are the same there). */
function setZero(obj: JsonObject, key: string, value: number): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === 0) obj[key] = value;
}

function defaultHttpGet(action: unknown): void {
  if (!isObject(action)) return;
  setDefault(action, 'path', '/');
  setDefault(action, 'scheme', 'HTTP');
}

/** SetDefaults_Container plus the declarative defaults of its nested types. */
export function defaultContainer(c: JsonObject): void {
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === '') {
    // A floating tag must be re-pulled to mean anything; a pinned one need not.
    c.imagePullPolicy = imageTag(str(c.image)) === 'latest' ? 'Always' : 'IfNotPresent';
  }
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  // ResourceRequirements is a non-pointer struct: kube always prints `resources: {}`.
  child(c, 'resources');
  for (const port of objects(c.ports)) setDefault(port, 'protocol', 'TCP');
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[key]);
  for (const hook of ['postStart', 'preStop']) defaultHttpGet(rec(rec(c.lifecycle)[hook]).httpGet);
  for (const env of objects(c.env)) defaultFieldRef(rec(env.valueFrom).fieldRef);
}

/** SetDefaults_ObjectFieldSelector: downward API field paths are v1 paths. */
function defaultFieldRef(ref: unknown): void {
  if (isObject(ref)) setDefault(ref, 'apiVersion', 'v1');
}

const SOURCELESS_KEYS = new Set(['name']);

/** SetDefaults_Volume and the volume sources' defaultMode (0644 = 420). */
function defaultVolume(v: JsonObject): void {
  if (Object.keys(v).every((k) => SOURCELESS_KEYS.has(k))) v.emptyDir = {};
  for (const key of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    const source = v[key];
    if (isObject(source) && (source.defaultMode === undefined || source.defaultMode === null)) {
      source.defaultMode = 420;
    }
  }
  if (isObject(v.hostPath)) setDefault(v.hostPath, 'type', '');
  for (const item of objects(rec(v.downwardAPI).items)) defaultFieldRef(item.fieldRef);
  for (const source of objects(rec(v.projected).sources)) {
    const token = source.serviceAccountToken;
    if (isObject(token) && token.expirationSeconds === undefined) token.expirationSeconds = 3600;
  }
}

/**
 * SetDefaults_PodSpec (pod templates get exactly this) and the defaults of
 * every container and volume in it.
 */
export function defaultPodSpec(spec: JsonObject): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    spec.terminationGracePeriodSeconds = 30;
  }
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objects(spec[key])) defaultContainer(c);
  }
  for (const v of objects(spec.volumes)) defaultVolume(v);
}

/**
 * A PodTemplateSpec's defaults: its `metadata` and `spec` are Go structs, always there (kube
 * writes `metadata: {}` back), and the spec gets {@link defaultPodSpec}, not the Pod-only
 * defaults like enableServiceLinks. A PodTemplate's `template` and the workloads'
 * `spec.template` are defaulted so.
 */
export function defaultPodTemplateSpec(template: JsonObject): void {
  child(template, 'metadata');
  const spec = child(template, 'spec');
  if (spec) defaultPodSpec(spec);
}

/** SetDefaults_Pod's requests: a container with only limits requests what it limits. */
function defaultRequestsFromLimits(c: JsonObject): void {
  const resources = rec(c.resources);
  if (!isObject(resources.limits)) return;
  const requests = child(resources, 'requests');
  if (!requests) return;
  for (const [name, value] of Object.entries(resources.limits)) {
    if (!Object.hasOwn(requests, name)) requests[name] = value;
  }
}

const QOS_RESOURCES = ['cpu', 'memory'];

/** `qos.GetPodQOS`: BestEffort without cpu/memory amounts, Guaranteed when every container limits both at its request. */
export function podQOSClass(spec: JsonObject): string {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    const resources = rec(c.resources);
    for (const [name, raw] of Object.entries(rec(resources.requests))) {
      const q = parseQuantity(raw) ?? 0;
      if (QOS_RESOURCES.includes(name) && q > 0) requests.set(name, (requests.get(name) ?? 0) + q);
    }
    const found = new Set<string>();
    for (const [name, raw] of Object.entries(rec(resources.limits))) {
      const q = parseQuantity(raw) ?? 0;
      if (QOS_RESOURCES.includes(name) && q > 0) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0) + q);
      }
    }
    if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) if (limits.get(name) !== req) guaranteed = false;
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** The built-in PriorityClasses the Priority admission plugin knows without a lookup. */
const SYSTEM_PRIORITIES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** The taints the DefaultTolerationSeconds plugin tolerates for 5 minutes, so pods ride out short node outages. */
const DEFAULT_TOLERATED_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

function toleratesNoExecute(tolerations: JsonObject[], key: string): boolean {
  return tolerations.some((t) => {
    const effect = str(t.effect);
    const tkey = str(t.key);
    const matchesKey = tkey === key || (tkey === '' && str(t.operator) === 'Exists');
    return matchesKey && (effect === '' || effect === 'NoExecute');
  });
}

/** Which of the pod admission plugins a server runs (admission-plugins.ts; all by default). */
export interface PodAdmissionPlugins {
  /** Priority (plugin/pkg/admission/priority): the priority and preemption policy. */
  priority: boolean;
  /** DefaultTolerationSeconds: 5 minutes' tolerations of not-ready and unreachable nodes. */
  defaultTolerationSeconds: boolean;
}

const ALL_PLUGINS: PodAdmissionPlugins = {
  priority: true,
  defaultTolerationSeconds: true,
};

/** The admission plugins' additions to a new pod's spec. */
function admitPodSpec(spec: JsonObject, plugins: PodAdmissionPlugins): void {
  if (plugins.priority) {
    if (spec.priority === undefined || spec.priority === null) {
      spec.priority = SYSTEM_PRIORITIES[str(spec.priorityClassName)] ?? 0;
    }
    setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority');
  }
  if (!plugins.defaultTolerationSeconds) return;
  // A non-list is the client's error for validation to report; null is Go's empty list.
  if (spec.tolerations !== undefined && spec.tolerations !== null && !Array.isArray(spec.tolerations)) return;
  const tolerations = objects(spec.tolerations);
  const added = DEFAULT_TOLERATED_TAINTS.filter((key) => !toleratesNoExecute(tolerations, key)).map(
    (key) => ({
      key,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }),
  );
  if (added.length > 0) spec.tolerations = [...arr(spec.tolerations), ...added];
}

/** The v1 conversion keeps singular and plural IP fields in step; clients read either. */
function mirrorIPs(status: JsonObject, single: string, plural: string): void {
  const list = objects(status[plural]);
  const ip = str(status[single]);
  if (list.length === 0 && ip !== '') status[plural] = [{ ip }];
  else if (list.length > 0 && ip === '' && str(list[0].ip) !== '') status[single] = list[0].ip;
}

/**
 * Everything kube-apiserver adds to a Pod: SetDefaults_Pod (enableServiceLinks,
 * requests from limits, hostNetwork ports), the PodSpec defaults, the
 * create-time admission additions of the `plugins` the server runs, the
 * deprecated `serviceAccount` mirror, and the QoS class of its status (the
 * phase a new pod starts with is strategy.ts `preparePodCreate`'s).
 */
export function defaultPod(obj: JsonObject, plugins: PodAdmissionPlugins = ALL_PLUGINS): void {
  const spec = child(obj, 'spec');
  if (spec) {
    const containers = [...objects(spec.containers), ...objects(spec.initContainers)];
    for (const c of containers) defaultRequestsFromLimits(c);
    if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) {
      spec.enableServiceLinks = true;
    }
    if (spec.hostNetwork === true) {
      // With the host's network a container port is a host port.
      for (const port of containers.flatMap((c) => objects(c.ports))) {
        if (!port.hostPort) port.hostPort = port.containerPort;
      }
    }
    defaultPodSpec(spec);
    if (str(spec.serviceAccountName) === '' && str(spec.serviceAccount) !== '') {
      spec.serviceAccountName = spec.serviceAccount;
    }
    admitPodSpec(spec, plugins);
    // The v1 conversion writes the deprecated field from the other (`omitempty`: none when empty).
    if (str(spec.serviceAccountName) !== '') spec.serviceAccount = spec.serviceAccountName;
    else delete spec.serviceAccount;
  }
  const status = child(obj, 'status');
  if (!status) return;
  if (spec && (status.qosClass === undefined || status.qosClass === '')) status.qosClass = podQOSClass(spec);
  mirrorIPs(status, 'podIP', 'podIPs');
  mirrorIPs(status, 'hostIP', 'hostIPs');
}
