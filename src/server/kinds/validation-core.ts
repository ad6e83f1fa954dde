/**
 * core/v1 and coordination/v1 validation (pkg/apis/core/validation,
 * pkg/apis/coordination/validation): Pods, Services, ConfigMaps, Secrets,
 * Namespaces, Nodes, Events and Leases.
 */

import type { KubeObject } from '../../protocol/events.js';
import { objects, rec, sameJson, str } from './access.js';
import type { FieldError } from './types.js';
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
  validateLabels,
  validateObjectMeta,
} from './validation.js';
import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isPathSegmentName,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
} from './validation-names.js';
import { validatePodSpec } from './core/pod/validation.js';

/** kube's `MaxSecretSize`, which also bounds ConfigMaps: 1 MiB (etcd's request limit leaves room for metadata). */
export const MAX_DATA_SIZE = 1024 * 1024;

/** `ValidatePod`: metadata and the pod spec. */
export function validatePod(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validatePodSpec(obj.spec, 'spec')];
}

/** `ValidateNamespace`: the name is a DNS-1123 label (it becomes part of DNS names). */
export function validateNamespace(obj: KubeObject): FieldError[] {
  return validateObjectMeta(obj, isDNS1123Label);
}

const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

/** `ValidateNode`: the name, and taints (key, value, effect). */
export function validateNode(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  objects(rec(obj.spec).taints).forEach((taint, i) => {
    const path = `spec.taints[${i}]`;
    for (const msg of isQualifiedName(str(taint.key))) errors.push(invalid(`${path}.key`, taint.key, msg));
    for (const msg of isValidLabelValue(str(taint.value)))
      errors.push(invalid(`${path}.value`, taint.value, msg));
    const effect = str(taint.effect);
    if (effect === '') errors.push(required(`${path}.effect`));
    else if (!TAINT_EFFECTS.includes(effect))
      errors.push(notSupported(`${path}.effect`, effect, TAINT_EFFECTS));
  });
  return errors;
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function validateServicePort(
  port: Record<string, unknown>,
  path: string,
  requireName: boolean,
  names: Set<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const name = str(port.name);
  if (requireName && name === '') errors.push(required(`${path}.name`));
  else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errors.push(invalid(`${path}.name`, name, msg));
    if (names.has(name)) errors.push(duplicate(`${path}.name`, name));
    names.add(name);
  }
  for (const msg of isValidPortNum(port.port)) errors.push(invalid(`${path}.port`, port.port ?? 0, msg));
  const protocol = str(port.protocol);
  if (protocol === '') errors.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) errors.push(notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  const target = port.targetPort;
  if (typeof target === 'number') {
    for (const msg of isValidPortNum(target)) errors.push(invalid(`${path}.targetPort`, target, msg));
  } else if (typeof target === 'string') {
    for (const msg of isValidPortName(target)) errors.push(invalid(`${path}.targetPort`, target, msg));
  }
  return errors;
}

/**
 * `ValidateService`: an RFC 1123 label name, ports (required unless headless or
 * ExternalName; named when several; unique by name and by port/protocol),
 * and supported type and session affinity. The name was a DNS-1035 label
 * until RelaxedServiceNameValidation (beta and on in 1.36, GA and locked on in
 * 1.37: pkg/apis/core/validation/validation.go `ValidateService`).
 */
export function validateService(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj, isDNS1123Label);
  const spec = rec(obj.spec);
  const type = str(spec.type);
  const headless = spec.clusterIP === 'None';
  const ports = objects(spec.ports);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errors.push(required('spec.ports'));
  if (type === 'ExternalName') {
    const cname = str(spec.externalName).replace(/\.$/, '');
    if (cname === '') errors.push(required('spec.externalName'));
    else for (const msg of isDNS1123Subdomain(cname)) errors.push(invalid('spec.externalName', cname, msg));
  }
  const names = new Set<string>();
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const path = `spec.ports[${i}]`;
    errors.push(...validateServicePort(port, path, ports.length > 1, names));
    if (type === 'ClusterIP' && typeof port.nodePort === 'number' && port.nodePort !== 0) {
      errors.push(forbidden(`${path}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
    }
    const key = `${String(port.port)}/${str(port.protocol)}`;
    if (seen.has(key)) errors.push(duplicate(path, key));
    seen.add(key);
  });
  errors.push(...validateLabels(spec.selector, 'spec.selector'));
  const affinity = str(spec.sessionAffinity);
  if (affinity === '') errors.push(required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(affinity)) {
    errors.push(notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES));
  }
  if (type === '') errors.push(required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errors.push(notSupported('spec.type', type, SERVICE_TYPES));
  return errors;
}

/** Decoded size of a base64 value (how kube counts `data` bytes of Secrets and `binaryData`). */
function base64Size(value: unknown): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
}

/** `ValidateConfigMap`: config-key names, no key in both bags, 1 MiB in total. */
export function validateConfigMap(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const data = rec(obj.data);
  const binary = rec(obj.binaryData);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`data[${key}]`, key, msg));
    if (Object.hasOwn(binary, key)) {
      errors.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    }
    size += Buffer.byteLength(str(value));
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`binaryData[${key}]`, key, msg));
    if (Object.hasOwn(data, key)) {
      errors.push(invalid(`binaryData[${key}]`, key, 'duplicate of key present in data'));
    }
    size += base64Size(value);
  }
  // kube reports the whole object with an empty path here.
  if (size > MAX_DATA_SIZE) errors.push(tooLong('', MAX_DATA_SIZE));
  return errors;
}

/** `ValidateSecret`: key names, 1 MiB, and the keys each built-in type requires. */
export function validateSecret(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const data = rec(obj.data);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`data[${key}]`, key, msg));
    size += base64Size(value);
  }
  if (size > MAX_DATA_SIZE) errors.push(tooLong('data', MAX_DATA_SIZE));
  const has = (key: string) => Object.hasOwn(data, key);
  switch (str(obj.type)) {
    case 'kubernetes.io/service-account-token':
      if (str(rec(obj.metadata?.annotations)['kubernetes.io/service-account.name']) === '') {
        errors.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) errors.push(required('data[.dockercfg]'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) errors.push(required('data[.dockerconfigjson]'));
      break;
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one must be present.
      if (!has('username') && !has('password')) {
        errors.push(required('data[username]'), required('data[password]'));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (base64Size(data['ssh-privatekey']) === 0) errors.push(required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errors.push(required('data[tls.crt]'));
      if (!has('tls.key')) errors.push(required('data[tls.key]'));
      break;
  }
  return errors;
}

/**
 * `ValidateConfigMapUpdate` / `ValidateSecretUpdate`: once `immutable: true`,
 * neither the flag nor the data may change (kubelets stop watching such objects).
 */
export function validateImmutableData(
  obj: KubeObject,
  old: KubeObject,
  bags: readonly string[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errors: FieldError[] = [];
  const detail = 'field is immutable when `immutable` is set';
  if (obj.immutable !== true) errors.push(forbidden('immutable', detail));
  for (const bag of bags) if (!sameJson(obj[bag] ?? {}, old[bag] ?? {})) errors.push(forbidden(bag, detail));
  return errors;
}

/** `ValidateSecretUpdate`: the type is fixed at creation, and immutable data stays. */
export function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validateImmutableData(obj, old, ['data']);
  if (str(obj.type) !== str(old.type)) errors.unshift(invalid('type', obj.type ?? '', 'field is immutable'));
  return errors;
}

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

/**
 * `ValidateEventCreate` for core/v1, i.e. `legacyValidateEvent`: an event
 * lives in its object's namespace (cluster-scoped objects' events in
 * "default"); a new-style event (eventTime set) also needs its reporter,
 * action and reason. Its name is not a DNS subdomain (that check is for
 * events.k8s.io/v1 only): only when these pass does the generic layer check
 * the metadata, with the path-segment rule for the name (apiserver
 * pkg/registry/rest/create.go `ValidateCreate`).
 */
export function validateEvent(obj: KubeObject): FieldError[] {
  const errors = validateLegacyEvent(obj);
  return errors.length > 0 ? errors : validateObjectMeta(obj, isPathSegmentName);
}

/** pkg/apis/core/validation/events.go `legacyValidateEvent`. */
function validateLegacyEvent(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = str(obj.metadata?.namespace);
  const involved = rec(obj.involvedObject);
  const involvedNs = str(involved.namespace);
  const mismatch = () => invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
  if (str(obj.eventTime) === '') {
    if (involvedNs === '' ? namespace !== '' && namespace !== 'default' : namespace !== involvedNs) {
      errors.push(mismatch());
    }
    return errors;
  }
  if (involvedNs === '' && namespace !== 'default' && namespace !== 'kube-system') errors.push(mismatch());
  const controller = str(obj.reportingComponent);
  if (controller === '') errors.push(required('reportingComponent'));
  for (const msg of isQualifiedName(controller)) errors.push(invalid('reportingComponent', controller, msg));
  for (const key of ['reportingInstance', 'action', 'reason'] as const) {
    if (str(obj[key]) === '') errors.push(required(key));
  }
  for (const [key, limit] of Object.entries(LIMITS)) {
    if (str(obj[key]).length > limit) errors.push(invalid(key, '', `can have at most ${limit} characters`));
  }
  return errors;
}

/** `ValidateLease`: positive duration, non-negative transitions. */
export function validateLease(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errors.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errors.push(
      invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'),
    );
  }
  return errors;
}
