/**
 * The NetworkPolicy (networking.k8s.io/v1): defaults (pkg/apis/networking/v1/defaults.go: a
 * port's protocol TCP, policyTypes from the rules given), validation
 * (pkg/apis/networking/validation `ValidateNetworkPolicy`, `ValidateNetworkPolicyUpdate`: the pod
 * selector, ports, peers and IP blocks, policy types), the strategy's generation
 * (pkg/registry/networking/networkpolicy/strategy.go) and printers.go's columns.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, type JsonObject, objects, rec, specOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn, formatSelectorCell } from '../columns.js';
import type { FieldError } from '../types.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  validateLabelSelector,
  validateObjectMeta,
} from '../validation.js';
import { isValidPortName, isValidPortNum } from '../validation-names.js';
import { parseCIDR, strictSubset, validateLegacyCIDR } from './ip.js';

/** `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`. */
export function defaultNetworkPolicy(obj: KubeObject): void {
  const spec = isObject(obj.spec) ? obj.spec : undefined;
  if (!spec) return;
  for (const rule of [...objects(spec.ingress), ...objects(spec.egress)]) {
    for (const port of objects(rule.ports))
      if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    const egress = Array.isArray(spec.egress) && spec.egress.length > 0;
    spec.policyTypes = egress ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/** `ValidateNetworkPolicyPort`. */
function validatePort(port: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const protocol = port.protocol;
  if (protocol !== undefined && protocol !== null && !['TCP', 'UDP', 'SCTP'].includes(str(protocol))) {
    errors.push(notSupported(`${path}.protocol`, protocol, ['TCP', 'UDP', 'SCTP']));
  }
  const endPort = port.endPort;
  const hasEnd = typeof endPort === 'number';
  if (port.port === undefined || port.port === null) {
    if (hasEnd)
      errors.push(invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errors.push(invalid(`${path}.port`, port.port, msg));
    if (hasEnd) {
      if (endPort < port.port)
        errors.push(invalid(`${path}.endPort`, endPort, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(endPort)) errors.push(invalid(`${path}.endPort`, endPort, msg));
    }
  } else {
    if (hasEnd)
      errors.push(invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(str(port.port))) errors.push(invalid(`${path}.port`, port.port, msg));
  }
  return errors;
}

/** `ValidateIPBlock`: a CIDR, and exceptions strictly inside it. */
function validateIPBlock(
  block: JsonObject,
  path: string,
  oldCIDRs: readonly string[],
  late: FieldError[],
): FieldError[] {
  const cidr = str(block.cidr);
  if (cidr === '') {
    // Covered by declarative validation, which reports it after the hand-written errors.
    late.push(required(`${path}.cidr`));
    return [];
  }
  const errors = validateLegacyCIDR(`${path}.cidr`, cidr, oldCIDRs);
  if (!parseCIDR(cidr)) return errors;
  (Array.isArray(block.except) ? block.except : []).forEach((except, i) => {
    const at = `${path}.except[${i}]`;
    const text = str(except);
    errors.push(...validateLegacyCIDR(at, text, oldCIDRs));
    if (!parseCIDR(text)) return;
    if (!strictSubset(cidr, text)) errors.push(invalid(at, text, 'must be a strict subset of `cidr`'));
  });
  return errors;
}

/** `ValidateNetworkPolicyPeer`: exactly one kind of peer, an IP block alone. */
function validatePeer(
  peer: JsonObject,
  path: string,
  oldCIDRs: readonly string[],
  late: FieldError[],
): FieldError[] {
  const errors: FieldError[] = [];
  let peers = 0;
  if (isObject(peer.podSelector)) {
    peers++;
    errors.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`));
  }
  if (isObject(peer.namespaceSelector)) {
    peers++;
    errors.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`));
  }
  if (isObject(peer.ipBlock)) {
    peers++;
    errors.push(...validateIPBlock(peer.ipBlock, `${path}.ipBlock`, oldCIDRs, late));
  }
  if (peers === 0) errors.push(required(path, 'must specify a peer'));
  else if (peers > 1 && isObject(peer.ipBlock))
    errors.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errors;
}

/** `ValidateNetworkPolicySpec`. */
function validateSpec(spec: JsonObject, oldCIDRs: readonly string[], late: FieldError[]): FieldError[] {
  const errors = validateLabelSelector(rec(spec.podSelector), 'spec.podSelector');
  for (const [dir, peersKey] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    objects(spec[dir]).forEach((rule, i) => {
      const at = `spec.${dir}[${i}]`;
      objects(rule.ports).forEach((port, j) => {
        errors.push(...validatePort(port, `${at}.ports[${j}]`));
      });
      objects(rule[peersKey]).forEach((peer, j) => {
        errors.push(...validatePeer(peer, `${at}.${peersKey}[${j}]`, oldCIDRs, late));
      });
    });
  }
  const types = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
  if (types.length > 2) {
    errors.push(invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
    return errors;
  }
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress')
      errors.push(notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  return errors;
}

/** The CIDRs a stored policy's IP blocks hold: an update may keep them even when now invalid. */
function cidrsOf(old: KubeObject): string[] {
  const spec = specOf(old);
  const blocks = [
    ...objects(spec.ingress).flatMap((r) => objects(r.from)),
    ...objects(spec.egress).flatMap((r) => objects(r.to)),
  ]
    .map((p) => p.ipBlock)
    .filter(isObject);
  return blocks.flatMap((b) => [str(b.cidr), ...(Array.isArray(b.except) ? b.except.map(str) : [])]);
}

/** `ValidateNetworkPolicy` (create) and `ValidateNetworkPolicyUpdate`: the metadata, then the spec. */
export function validateNetworkPolicy(obj: KubeObject, old?: KubeObject): FieldError[] {
  const late: FieldError[] = [];
  return [...validateObjectMeta(obj), ...validateSpec(rec(obj.spec), old ? cidrsOf(old) : [], late), ...late];
}

/** The NetworkPolicy's entry in the served kinds. */
export const networkPolicyKind = builtinKind('networking.k8s.io', 'v1', 'networkpolicies', {
  generationFields: ['spec'],
  defaults: defaultNetworkPolicy,
  validate: validateNetworkPolicy,
  cells: {
    'Pod-Selector': (o) => formatSelectorCell(rec(specOf(o).podSelector)),
    Age: ageColumn.cell,
  },
});
