/**
 * The Endpoints (core/v1, deprecated since v1.33 for discovery.k8s.io/v1 EndpointSlice): the
 * ports' protocol default (pkg/apis/core/v1/defaults.go `SetDefaults_Endpoints`), validation
 * (pkg/apis/core/validation `ValidateEndpointsCreate`, `ValidateEndpointsUpdate`), the strategy
 * (pkg/registry/core/endpoint/strategy.go: a PUT may create, no generation) and its column
 * (printers.go `printEndpoints`, `formatEndpoints`).
 *
 * Not served here: the strategy's warnings on non-standard IP forms (the kinds carry no warnings).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { objects, sameJson, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import type { FieldError } from '../types.js';
import { invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../validation-names.js';
import { validateEndpointIP, validateLegacyIP } from './endpoint-ip.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** `SetDefaults_Endpoints`: a port without a protocol is TCP. */
export function defaultEndpoints(obj: KubeObject): void {
  for (const subset of objects(obj.subsets)) {
    for (const port of objects(subset.ports)) {
      if (port.protocol === undefined || port.protocol === '') port.protocol = 'TCP';
    }
  }
}

/** `validateEndpointAddress`: the IP (its legacy parse, then the ranges), hostname and nodeName. */
function validateAddress(address: Record<string, unknown>, path: string): FieldError[] {
  const ip = str(address.ip);
  const errors = validateLegacyIP(ip, `${path}.ip`);
  const hostname = str(address.hostname);
  if (hostname !== '') {
    for (const msg of isDNS1123Label(hostname)) errors.push(invalid(`${path}.hostname`, hostname, msg));
  }
  if (typeof address.nodeName === 'string') {
    for (const msg of isDNS1123Subdomain(address.nodeName)) {
      errors.push(invalid(`${path}.nodeName`, address.nodeName, msg));
    }
  }
  errors.push(...validateEndpointIP(ip, `${path}.ip`));
  return errors;
}

/** `validateEndpointPort`: a name (required when the subset has several ports), number, protocol. */
function validatePort(port: Record<string, unknown>, requireName: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = str(port.name);
  if (requireName && name === '') errors.push(required(`${path}.name`));
  else if (name !== '')
    for (const msg of isDNS1123Label(name)) errors.push(invalid(`${path}.name`, name, msg));
  const number = typeof port.port === 'number' ? port.port : 0;
  for (const msg of isValidPortNum(number)) errors.push(invalid(`${path}.port`, number, msg));
  const protocol = str(port.protocol);
  if (protocol === '') errors.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) errors.push(notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  if (typeof port.appProtocol === 'string') {
    for (const msg of isQualifiedName(port.appProtocol)) {
      errors.push(invalid(`${path}.appProtocol`, port.appProtocol, msg));
    }
  }
  return errors;
}

/** `validateEndpointSubsets`: each subset has an address, and valid addresses and ports. */
export function validateEndpointSubsets(subsets: unknown): FieldError[] {
  const errors: FieldError[] = [];
  objects(subsets).forEach((subset, i) => {
    const path = `subsets[${i}]`;
    const addresses = objects(subset.addresses);
    const notReady = objects(subset.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) {
      errors.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    }
    addresses.forEach((a, j) => {
      errors.push(...validateAddress(a, `${path}.addresses[${j}]`));
    });
    notReady.forEach((a, j) => {
      errors.push(...validateAddress(a, `${path}.notReadyAddresses[${j}]`));
    });
    const ports = objects(subset.ports);
    ports.forEach((p, j) => {
      errors.push(...validatePort(p, ports.length > 1, `${path}.ports[${j}]`));
    });
  });
  return errors;
}

/**
 * `ValidateEndpoints`: the metadata (a DNS subdomain name) and the subsets, whose errors an
 * update drops when it leaves them as they were (older releases let such data in).
 */
export function validateEndpoints(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const subsetErrors = validateEndpointSubsets(obj.subsets);
  if (subsetErrors.length > 0 && old && sameJson(old.subsets ?? [], obj.subsets ?? [])) return errors;
  return [...errors, ...subsetErrors];
}

/** Go's `net.JoinHostPort`: an IPv6 host in brackets. */
function joinHostPort(host: string, port: unknown): string {
  return `${host.includes(':') ? `[${host}]` : host}:${typeof port === 'number' ? port : 0}`;
}

/** printers.go `formatEndpoints` of every port: at most 3 `ip:port`, then `+ N more...`. */
export function formatEndpoints(obj: KubeObject): string {
  const subsets = objects(obj.subsets);
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = objects(ss.addresses);
    const ports = objects(ss.ports);
    if (ports.length === 0) {
      // A headless service's endpoints may have no ports: the addresses alone.
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(str(a.ip), port.port));
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

/** The Endpoints' entry in the served kinds. */
export const endpointsKind = builtinKind('', 'v1', 'endpoints', {
  defaults: defaultEndpoints,
  validate: validateEndpoints,
  allowCreateOnUpdate: true,
  cells: {
    Endpoints: (o) => formatEndpoints(o),
    Age: ageColumn.cell,
  },
});
