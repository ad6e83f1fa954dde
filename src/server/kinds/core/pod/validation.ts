/**
 * Pod and PodSpec validation (`ValidatePod`, `ValidatePodSpec` in pkg/apis/core/validation),
 * for Pods and for the pod templates of workloads: the rules a client can actually trip over,
 * with kube's field paths and messages.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { isObject, objects, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  validateAnnotations,
  validateLabels,
  validateObjectMeta,
} from '../../validation.js';
import { isDNS1123Label, isValidPortName, isValidPortNum } from '../../validation-names.js';
import { validateSysctls } from './sysctls.js';

// In the order validateRestartPolicy and validateDNSPolicy list them in their NotSupported errors.
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['FallbackToLogsOnError', 'File'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** Options of {@link validatePodSpec}. */
export interface PodSpecRules {
  /**
   * The restart policies this owner allows: workloads keep pods running, so
   * Deployments, ReplicaSets, StatefulSets and DaemonSets only accept "Always".
   */
  restartPolicies?: readonly string[];
}

function validatePorts(ports: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  objects(ports).forEach((port, i) => {
    const p = `${path}[${i}]`;
    const name = str(port.name);
    if (name !== '') for (const msg of isValidPortName(name)) errors.push(invalid(`${p}.name`, name, msg));
    if (port.containerPort === undefined) errors.push(required(`${p}.containerPort`));
    else
      for (const msg of isValidPortNum(port.containerPort))
        errors.push(invalid(`${p}.containerPort`, port.containerPort, msg));
    if (port.hostPort !== undefined && port.hostPort !== 0) {
      for (const msg of isValidPortNum(port.hostPort))
        errors.push(invalid(`${p}.hostPort`, port.hostPort, msg));
    }
    const protocol = str(port.protocol);
    if (protocol === '') errors.push(required(`${p}.protocol`));
    else if (!PROTOCOLS.includes(protocol)) errors.push(notSupported(`${p}.protocol`, protocol, PROTOCOLS));
  });
  return errors;
}

/**
 * One container's own rules; `names` collects names across init and regular containers,
 * `podRestartPolicy` the pod's, given for a regular container (its resize policies depend on it).
 */
export function validateContainer(
  c: Record<string, unknown>,
  path: string,
  names: Set<string>,
  podRestartPolicy?: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const name = str(c.name);
  if (name === '') errors.push(required(`${path}.name`));
  else {
    for (const msg of isDNS1123Label(name)) errors.push(invalid(`${path}.name`, name, msg));
    if (names.has(name)) errors.push(duplicate(`${path}.name`, name));
    names.add(name);
  }
  const image = str(c.image);
  if (image === '') errors.push(required(`${path}.image`));
  else if (image.trim() !== image) {
    errors.push(invalid(`${path}.image`, image, 'must not have leading or trailing whitespace'));
  }
  const pull = str(c.imagePullPolicy);
  if (pull === '') errors.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pull))
    errors.push(notSupported(`${path}.imagePullPolicy`, pull, PULL_POLICIES));
  const tmp = str(c.terminationMessagePolicy);
  if (tmp === '') errors.push(required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) {
    errors.push(notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  }
  errors.push(...validatePorts(c.ports, `${path}.ports`));
  // An init container's are checked after the containers' (validatePodSpec).
  if (podRestartPolicy !== undefined) {
    errors.push(...validateResizePolicy(c.resizePolicy, `${path}.resizePolicy`, podRestartPolicy));
  }
  return errors;
}

function pushOnce(errors: FieldError[], e: FieldError): void {
  if (!errors.some((x) => x.field === e.field && x.message === e.message)) errors.push(e);
}

const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];

/**
 * validation.go `validateResizePolicy`: each of cpu and memory at most once, a supported restart
 * policy, and NotRequired alone in a pod never restarted.
 */
function validateResizePolicy(list: unknown, path: string, podRestartPolicy: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  objects(list).forEach((p, i) => {
    const name = str(p.resourceName);
    if (seen.has(name)) errors.push(duplicate(`${path}[${i}]`, name));
    seen.add(name);
    // Two identical errors are one (the ErrorList's aggregate drops repeats).
    if (name === '') pushOnce(errors, required(path));
    else if (!RESIZE_RESOURCES.includes(name)) errors.push(notSupported(path, name, RESIZE_RESOURCES));
    const policy = str(p.restartPolicy);
    if (policy === '') pushOnce(errors, required(path));
    else if (!RESIZE_POLICIES.includes(policy)) errors.push(notSupported(path, policy, RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired') {
      errors.push(invalid(path, policy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"));
    }
  });
  return errors;
}

/**
 * `validateInitContainers`' resize rule: a non-sidecar init container is never restarted to
 * resize, so RestartContainer is refused (on create; 1.37 keeps an existing one, which no
 * create can make any more).
 */
function validateInitResizePolicy(c: Record<string, unknown>, path: string): FieldError[] {
  if (str(c.restartPolicy) === 'Always') return [];
  return objects(c.resizePolicy).flatMap((p, j) =>
    str(p.restartPolicy) === 'RestartContainer'
      ? [
          invalid(
            `${path}.resizePolicy[${j}].restartPolicy`,
            'RestartContainer',
            "must not be set to 'RestartContainer' for non-sidecar initContainers",
          ),
        ]
      : [],
  );
}

/**
 * `ValidatePodSpec`: at least one container, each with a unique DNS-1123 name
 * and an image, and supported policies. Runs after defaulting, so policies
 * left empty by a client are already filled in; an empty one here was sent as "".
 */
export function validatePodSpec(spec: unknown, path: string, rules: PodSpecRules = {}): FieldError[] {
  if (!isObject(spec)) return [required(path)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const restart = str(spec.restartPolicy);
  objects(spec.initContainers).forEach((c, i) => {
    errors.push(...validateContainer(c, `${path}.initContainers[${i}]`, names));
  });
  const containers = objects(spec.containers);
  if (containers.length === 0) errors.push(required(`${path}.containers`));
  containers.forEach((c, i) => {
    errors.push(...validateContainer(c, `${path}.containers[${i}]`, names, restart));
  });
  // ValidatePodSpec checks the containers before the init containers: their resize policies'
  // errors come after the containers' (validateContainerCommon, validateInitContainers).
  objects(spec.initContainers).forEach((c, i) => {
    errors.push(
      ...validateResizePolicy(c.resizePolicy, `${path}.initContainers[${i}].resizePolicy`, restart),
    );
    errors.push(...validateInitResizePolicy(c, `${path}.initContainers[${i}]`));
  });
  const allowed = rules.restartPolicies ?? RESTART_POLICIES;
  if (restart === '') errors.push(required(`${path}.restartPolicy`));
  else if (!allowed.includes(restart)) errors.push(notSupported(`${path}.restartPolicy`, restart, allowed));
  const dns = str(spec.dnsPolicy);
  if (dns === '') errors.push(required(`${path}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(dns)) errors.push(notSupported(`${path}.dnsPolicy`, dns, DNS_POLICIES));
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0) {
    errors.push(
      invalid(
        `${path}.activeDeadlineSeconds`,
        spec.activeDeadlineSeconds,
        'must be between 1 and 2147483647, inclusive',
      ),
    );
  }
  errors.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  errors.push(...validateSysctls(spec, `${path}.securityContext.sysctls`));
  return errors;
}

/**
 * `ValidatePodTemplateSpec` (pkg/apis/core/validation): the template's labels and annotations
 * (kube names them `<path>.labels`, `<path>.annotations`, without `metadata`), its pod spec, and
 * no ephemeral containers, which only a running pod can get. A PodTemplate's `template` is
 * validated so; the workloads' templates too, with their own `rules`.
 */
export function validatePodTemplateSpec(
  template: unknown,
  path: string,
  rules: PodSpecRules = {},
): FieldError[] {
  const meta = rec(rec(template).metadata);
  const spec = rec(template).spec;
  const errors = [
    ...validateLabels(meta.labels, `${path}.labels`),
    ...validateAnnotations(meta.annotations, `${path}.annotations`),
    // A PodTemplate's template is a Go struct, never nil: defaulting leaves its spec an object.
    ...validatePodSpec(spec ?? {}, `${path}.spec`, rules),
  ];
  if (objects(rec(spec).ephemeralContainers).length > 0) {
    errors.push(
      forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'),
    );
  }
  return errors;
}

/**
 * A workload's `spec.template` (apps validation's `ValidatePodTemplateSpecForReplicaSet` and
 * kin): {@link validatePodTemplateSpec}, with restartPolicy Always only.
 */
export function validatePodTemplate(template: unknown, path: string): FieldError[] {
  if (!isObject(template)) return [required(path)];
  return validatePodTemplateSpec(template, path, { restartPolicies: ['Always'] });
}

/** `ValidatePod`: metadata and the pod spec. */
export function validatePod(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validatePodSpec(obj.spec, 'spec')];
}
