/**
 * The EndpointSlice's validation (pkg/apis/discovery/validation `ValidateEndpointSlice`,
 * `ValidateEndpointSliceUpdate`) with the declarative rules of the v1 type
 * (pkg/apis/discovery/v1/zz_generated.validations.go, Beta, so enforced): the address type
 * (required, immutable, one of three), each endpoint's addresses (required, at most 100).
 * kube-apiserver drops the handwritten errors those rules cover and reports the declarative ones
 * after the others (apiserver registry/rest/validate.go `ValidateDeclarativelyWithMigrationChecks`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, sameJson, str } from '../access.js';
import { validateEndpointIP, validateLegacyIP } from '../core/endpoint-ip.js';
import { isValidIP, parseIP } from '../networking/ip.js';
import type { FieldError } from '../types.js';
import { duplicate, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../validation-names.js';

/** The address types the API knows (`supportedAddressTypes`), sorted as `sets.List` gives them. */
export const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;

/** `field.TooMany`: `<field>: Too many: N: must have at most M items`. */
function tooMany(field: string, count: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, message: `Too many: ${count}: must have at most ${max} items` };
}

/** Go's `strings.Join` of a name check's messages, one Invalid error, as `IsFullyQualifiedDomainName` reports. */
function joined(field: string, value: string, msgs: string[]): FieldError[] {
  return msgs.length > 0 ? [invalid(field, value, msgs.join(','))] : [];
}

/** apimachinery `IsFullyQualifiedDomainName`: a DNS subdomain (a final dot allowed) of two labels or more. */
export function validateFQDN(field: string, value: string): FieldError[] {
  if (value === '') return [required(field)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = joined(field, name, isDNS1123Subdomain(name));
  if (subdomain.length > 0) return subdomain;
  const labels = name.split('.');
  if (labels.length < 2) {
    return [invalid(field, name, 'should be a domain with at least two segments separated by dots')];
  }
  for (const label of labels) {
    const errs = joined(field, label, isDNS1123Label(label));
    if (errs.length > 0) return errs;
  }
  return [];
}

/** k8s.io/utils/net `IsIPv4String` / `IsIPv6String` of a parsable address (a 4in6 one counts as IPv4). */
function family(address: string): 4 | 6 | undefined {
  const ip = parseIP(address);
  if (!ip) return undefined;
  const mapped =
    ip.v6 && ip.bytes.slice(0, 10).every((b) => b === 0) && ip.bytes[10] === 255 && ip.bytes[11] === 255;
  return ip.v6 && !mapped ? 6 : 4;
}

/** One address of an endpoint, by the slice's address type (unknown types are not checked). */
function validateAddress(address: string, addressType: string, list: string, i: number): FieldError[] {
  const path = `${list}[${i}]`;
  if (addressType === 'IPv4') {
    const errs = validateLegacyIP(address, path);
    if (errs.length > 0) return errs;
    // The family error names the list, not the element (validation.go).
    const out = family(address) === 4 ? [] : [invalid(list, address, 'must be an IPv4 address')];
    return [...out, ...validateEndpointIP(address, path)];
  }
  if (addressType === 'IPv6') {
    const msgs = isValidIP(address);
    if (msgs.length > 0) return msgs.map((m) => invalid(path, address, m));
    const out = family(address) === 6 ? [] : [invalid(list, address, 'must be an IPv6 address')];
    return [...out, ...validateEndpointIP(address, path)];
  }
  if (addressType === 'FQDN') return validateFQDN(path, address);
  return [];
}

/** `validateHints`: at most 8 zones and 8 nodes, no repeats, label-value zones, subdomain node names. */
function validateHints(hints: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const zones = objects(hints.forZones);
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(`${path}.forZones`, zones.length, MAX_ZONE_HINTS)];
  const seenZones: string[] = [];
  zones.forEach((z, i) => {
    const field = `${path}.forZones[${i}].name`;
    const name = str(z.name);
    if (seenZones.includes(name)) errors.push(duplicate(field, name));
    else seenZones.push(name);
    for (const msg of isValidLabelValue(name)) errors.push(invalid(field, name, msg));
  });
  const nodes = objects(hints.forNodes);
  if (nodes.length > MAX_NODE_HINTS) {
    errors.push(tooMany(`${path}.forNodes`, nodes.length, MAX_NODE_HINTS));
    return errors;
  }
  const seenNodes: string[] = [];
  nodes.forEach((n, i) => {
    const field = `${path}.forNodes[${i}].name`;
    const name = str(n.name);
    if (seenNodes.includes(name)) errors.push(duplicate(field, name));
    else seenNodes.push(name);
    for (const msg of isDNS1123Subdomain(name)) errors.push(invalid(field, name, msg));
  });
  return errors;
}

/** The handwritten `validateEndpoints` but for what the declarative rules cover (the addresses' count). */
function validateEndpoints(endpoints: unknown, addressType: string): FieldError[] {
  const list = objects(endpoints);
  if (list.length > MAX_ENDPOINTS) return [tooMany('endpoints', list.length, MAX_ENDPOINTS)];
  const errors: FieldError[] = [];
  list.forEach((endpoint, i) => {
    const path = `endpoints[${i}]`;
    const addresses = Array.isArray(endpoint.addresses) ? endpoint.addresses : [];
    addresses.forEach((a, j) => {
      errors.push(...validateAddress(str(a), addressType, `${path}.addresses`, j));
    });
    if (typeof endpoint.nodeName === 'string') {
      for (const msg of isDNS1123Subdomain(endpoint.nodeName)) {
        errors.push(invalid(`${path}.nodeName`, endpoint.nodeName, msg));
      }
    }
    if (typeof endpoint.hostname === 'string') {
      for (const msg of isDNS1123Label(endpoint.hostname)) {
        errors.push(invalid(`${path}.hostname`, endpoint.hostname, msg));
      }
    }
    if (isObject(endpoint.hints)) errors.push(...validateHints(endpoint.hints, `${path}.hints`));
  });
  return errors;
}

/** `validatePorts`: at most 20000, DNS-label names without repeats, a known protocol, a qualified appProtocol. */
function validatePorts(ports: unknown): FieldError[] {
  const list = objects(ports);
  if (list.length > MAX_PORTS) return [tooMany('ports', list.length, MAX_PORTS)];
  const errors: FieldError[] = [];
  const names: string[] = [];
  list.forEach((port, i) => {
    const path = `ports[${i}]`;
    const name = str(port.name);
    if (name !== '') for (const msg of isDNS1123Label(name)) errors.push(invalid(`${path}.name`, name, msg));
    if (names.includes(name)) errors.push(duplicate(`${path}.name`, name));
    else names.push(name);
    if (typeof port.protocol !== 'string') errors.push(required(`${path}.protocol`));
    else if (!PROTOCOLS.includes(port.protocol)) {
      errors.push(notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
    }
    if (typeof port.appProtocol === 'string') {
      for (const msg of isQualifiedName(port.appProtocol)) {
        errors.push(invalid(`${path}.appProtocol`, port.appProtocol, msg));
      }
    }
  });
  return errors;
}

/**
 * The declarative rules (zz_generated.validations.go `Validate_EndpointSlice`, `Validate_Endpoint`),
 * each skipped on an update that leaves its field as it was.
 */
function declarativeErrors(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const addressType = str(obj.addressType);
  if (!old || addressType !== str(old.addressType)) {
    // Required and Immutable both run and both stop the Enum check.
    if (addressType === '') errors.push(required('addressType'));
    if (old) errors.push(invalid('addressType', null, 'field is immutable'));
    else if (addressType !== '' && !ADDRESS_TYPES.includes(addressType)) {
      errors.push(notSupported('addressType', addressType, ADDRESS_TYPES));
    }
  }
  if (!old || !sameJson(old.endpoints ?? [], obj.endpoints ?? [])) {
    objects(obj.endpoints).forEach((endpoint, i) => {
      const field = `endpoints[${i}].addresses`;
      const count = Array.isArray(endpoint.addresses) ? endpoint.addresses.length : 0;
      if (count === 0) errors.push(required(field));
      else if (count > MAX_ADDRESSES) errors.push(tooMany(field, count, MAX_ADDRESSES));
    });
  }
  return errors;
}

/**
 * `ValidateEndpointSlice` (and on an update `ValidateEndpointSliceUpdate`): the metadata, the
 * ports, the endpoints (whose errors an update leaving them unchanged drops: older releases let
 * such data in), then the declarative rules.
 */
export function validateEndpointSlice(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  // The handwritten `validateAddressType`'s Unsupported error is covered by the declarative Enum
  // one, which an update changing the type never reaches (Immutable stops it): then it stays.
  const addressType = str(obj.addressType);
  if (old && addressType !== '' && !ADDRESS_TYPES.includes(addressType)) {
    errors.push(notSupported('addressType', addressType, ADDRESS_TYPES));
  }
  errors.push(...validatePorts(obj.ports));
  const endpointErrors = validateEndpoints(obj.endpoints, str(obj.addressType));
  if (!(old && endpointErrors.length > 0 && sameJson(old.endpoints ?? [], obj.endpoints ?? []))) {
    errors.push(...endpointErrors);
  }
  errors.push(...declarativeErrors(obj, old));
  return errors;
}
