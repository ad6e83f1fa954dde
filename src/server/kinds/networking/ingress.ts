/**
 * The Ingress (networking.k8s.io/v1): validation (pkg/apis/networking/validation
 * `ValidateIngressCreate`, `ValidateIngressUpdate`, `ValidateIngressStatusUpdate`: rules and
 * their hosts, paths by pathType, backends, TLS hosts and secrets, the class name and its
 * legacy annotation), the strategy's status reset and generation
 * (pkg/registry/networking/ingress/strategy.go) and printers.go `printIngress`.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, type JsonObject, objects, rec, specOf, statusOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import type { FieldError } from '../types.js';
import { invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isPathSegmentName,
  isValidPortName,
  isValidPortNum,
} from '../validation-names.js';
import { parseIP, validateLegacyIP } from './ip.js';
import { isWildcardDNS1123Subdomain } from './names.js';

/** networking `annotationIngressClass`: the class before `ingressClassName`. */
const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

/** A host as the rules and TLS check it: a wildcard or a plain DNS subdomain. */
function hostErrors(host: string, field: string): FieldError[] {
  const check = host.includes('*') ? isWildcardDNS1123Subdomain : isDNS1123Subdomain;
  return check(host).map((msg) => invalid(field, host, msg));
}

/** `validateIngressTypedLocalObjectReference`: a resource backend. */
function validateResourceRef(ref: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') {
    for (const msg of isDNS1123Subdomain(ref.apiGroup))
      errors.push(invalid(`${path}.apiGroup`, ref.apiGroup, msg));
  }
  for (const f of ['kind', 'name'] as const) {
    const v = str(ref[f]);
    if (v === '') errors.push(required(`${path}.${f}`));
    else for (const msg of isPathSegmentName(v)) errors.push(invalid(`${path}.${f}`, v, msg));
  }
  return errors;
}

/** `validateIngressBackend`: a resource or a service (its name a DNS label, a port by name or number). */
function validateBackend(backend: JsonObject, path: string): FieldError[] {
  const hasResource = isObject(backend.resource);
  const hasService = isObject(backend.service);
  if (hasResource && hasService) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return validateResourceRef(backend.resource as JsonObject, `${path}.resource`);
  if (!hasService) return [invalid(path, '', 'resource or service backend is required')];
  const service = backend.service as JsonObject;
  const errors: FieldError[] = [];
  const name = str(service.name);
  if (name === '') errors.push(required(`${path}.service.name`));
  // RelaxedServiceNameValidation (GA in 1.37): a backend's service name is a DNS-1123 label.
  else for (const msg of isDNS1123Label(name)) errors.push(invalid(`${path}.service.name`, name, msg));
  const port = rec(service.port);
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0)
    errors.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') {
    for (const msg of isValidPortName(portName))
      errors.push(invalid(`${path}.service.port.name`, portName, msg));
  } else if (portNumber !== 0) {
    for (const msg of isValidPortNum(portNumber))
      errors.push(invalid(`${path}.service.port.number`, portNumber, msg));
  } else errors.push(required(path, 'port name or number is required'));
  return errors;
}

/** `validateHTTPIngressPath`: the path as its pathType wants it, then the backend. */
function validatePath(p: JsonObject, at: string): FieldError[] {
  if (p.pathType === undefined || p.pathType === null)
    return [required(`${at}.pathType`, 'pathType must be specified')];
  const errors: FieldError[] = [];
  const path = str(p.path);
  const type = str(p.pathType);
  if (type === 'Exact' || type === 'Prefix') {
    if (!path.startsWith('/')) errors.push(invalid(`${at}.path`, path, 'must be an absolute path'));
    if (path !== '') {
      for (const seq of INVALID_SEQUENCES) {
        if (path.includes(seq)) errors.push(invalid(`${at}.path`, path, `must not contain '${seq}'`));
      }
      for (const suffix of INVALID_SUFFIXES) {
        if (path.endsWith(suffix)) errors.push(invalid(`${at}.path`, path, `cannot end with '${suffix}'`));
      }
    }
  } else if (type === 'ImplementationSpecific') {
    if (path !== '' && !path.startsWith('/'))
      errors.push(invalid(`${at}.path`, path, 'must be an absolute path'));
  } else {
    errors.push(notSupported(`${at}.pathType`, type, ['Exact', 'ImplementationSpecific', 'Prefix']));
  }
  errors.push(...validateBackend(rec(p.backend), `${at}.backend`));
  return errors;
}

/** `validateIngressRules`: each host a DNS name (wildcards allowed), each http rule's paths. */
function validateRules(rules: JsonObject[]): FieldError[] {
  const errors: FieldError[] = [];
  rules.forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    const host = str(rule.host);
    if (host !== '') {
      if (parseIP(host)) errors.push(invalid(`${at}.host`, host, 'must be a DNS name, not an IP address'));
      errors.push(...hostErrors(host, `${at}.host`));
    }
    if (isObject(rule.http)) {
      const paths = objects(rule.http.paths);
      if (paths.length === 0) errors.push(required(`${at}.http.paths`));
      paths.forEach((p, j) => {
        errors.push(...validatePath(p, `${at}.http.paths[${j}]`));
      });
    }
  });
  return errors;
}

/** `ValidateIngressSpec`. */
function validateSpec(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const rules = objects(spec.rules);
  const hasDefault = isObject(spec.defaultBackend);
  if (rules.length === 0 && !hasDefault) {
    errors.push(invalid('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (hasDefault) errors.push(...validateBackend(spec.defaultBackend as JsonObject, 'spec.defaultBackend'));
  if (rules.length > 0) errors.push(...validateRules(rules));
  objects(spec.tls).forEach((tls, i) => {
    (Array.isArray(tls.hosts) ? tls.hosts : []).forEach((h, j) => {
      errors.push(...hostErrors(str(h), `spec.tls[${i}].hosts[${j}]`));
    });
    const secret = str(tls.secretName);
    if (secret !== '') {
      for (const msg of isDNS1123Subdomain(secret))
        errors.push(invalid(`spec.tls[${i}].secretName`, secret, msg));
    }
  });
  if (typeof spec.ingressClassName === 'string') {
    for (const msg of isDNS1123Subdomain(spec.ingressClassName)) {
      errors.push(invalid('spec.ingressClassName', spec.ingressClassName, msg));
    }
  }
  return errors;
}

/** `ValidateIngressLoadBalancerStatus`: each address an IP (old ones kept) or a DNS name. */
function validateStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const oldIPs = objects(rec(statusOf(old).loadBalancer).ingress)
    .map((i) => str(i.ip))
    .filter((ip) => ip !== '');
  objects(rec(statusOf(obj).loadBalancer).ingress).forEach((ing, i) => {
    const at = `status.loadBalancer.ingress[${i}]`;
    const ip = str(ing.ip);
    if (ip !== '') errors.push(...validateLegacyIP(`${at}.ip`, ip, oldIPs));
    const hostname = str(ing.hostname);
    if (hostname !== '') {
      for (const msg of isDNS1123Subdomain(hostname)) errors.push(invalid(`${at}.hostname`, hostname, msg));
      if (parseIP(hostname))
        errors.push(invalid(`${at}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errors;
}

/**
 * `ValidateIngressCreate` (the class annotation must agree with `ingressClassName`) and
 * `ValidateIngressUpdate`. An update through the main resource keeps the stored status and one
 * through /status the stored spec, so the status check (old addresses allowed) answers both.
 */
export function validateIngress(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = [...validateObjectMeta(obj), ...validateSpec(rec(obj.spec))];
  if (!old) {
    const annotation = obj.metadata?.annotations?.[CLASS_ANNOTATION];
    const className = rec(obj.spec).ingressClassName;
    if (annotation !== undefined && typeof className === 'string' && annotation !== className) {
      errors.push(
        invalid(
          `annotations.${CLASS_ANNOTATION}`,
          annotation,
          'must match `ingressClassName` when both are specified',
        ),
      );
    }
    return errors;
  }
  return [...errors, ...validateStatus(obj, old)];
}

/** `formatHosts`: the first three hosts, `*` when none. */
function hostsCell(o: KubeObject): string {
  const rules = objects(specOf(o).rules);
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === 3) more = true;
    if (!more && str(rule.host) !== '') list.push(str(rule.host));
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - 3} more...` : list.join(',');
}

/** `ingressLoadBalancerStatusStringer` (wide): the sorted, distinct IPs or hostnames. */
function addressCell(o: KubeObject): string {
  const seen = new Set<string>();
  for (const ing of objects(rec(statusOf(o).loadBalancer).ingress)) {
    if (str(ing.ip) !== '') seen.add(str(ing.ip));
    else if (str(ing.hostname) !== '') seen.add(str(ing.hostname));
  }
  return [...seen].sort().join(',');
}

/** The status as a decoded Go object has it: `loadBalancer` always there (a struct). */
export function defaultIngress(obj: KubeObject): void {
  if (!isObject(obj.status)) obj.status = {};
  const status = obj.status as JsonObject;
  if (!isObject(status.loadBalancer)) status.loadBalancer = {};
}

/** The Ingress's entry in the served kinds. */
export const ingressKind = builtinKind('networking.k8s.io', 'v1', 'ingresses', {
  generationFields: ['spec'],
  defaults: defaultIngress,
  validate: validateIngress,
  cells: {
    Class: (o) =>
      typeof specOf(o).ingressClassName === 'string' ? str(specOf(o).ingressClassName) : '<none>',
    Hosts: hostsCell,
    Address: addressCell,
    Ports: (o) =>
      Array.isArray(specOf(o).tls) && (specOf(o).tls as unknown[]).length > 0 ? '80, 443' : '80',
    Age: ageColumn.cell,
  },
});
