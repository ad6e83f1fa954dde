/**
 * Service validation (pkg/apis/core/validation `ValidateService`): the name, the ports, the
 * type and the session affinity. The cluster IP's update rule is allocation.ts's.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { objects, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  validateLabels,
  validateObjectMeta,
} from '../../validation.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidPortName,
  isValidPortNum,
} from '../../validation-names.js';

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
