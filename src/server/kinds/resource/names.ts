/**
 * The name rules resource.k8s.io's kinds share (pkg/apis/resource/validation): driver names
 * (core's `ValidateCSIDriverName`, as declarative validation reports them), pool names, device and
 * request names (DNS labels), qualified attribute names (`validateQualifiedName`,
 * `validateFullyQualifiedName`: an optional domain and a C identifier), label names and values,
 * and the metadata a write through /status keeps (`metav1.ResetObjectMetaForStatus`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { rec } from '../access.js';
import { longNameCaseless, maxLength } from '../declarative.js';
import type { FieldError } from '../types.js';
import { invalid, required, tooLong } from '../validation.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../validation-names.js';

/** `resource.DeviceMaxIDLength`: the identifier part of a qualified name. */
const MAX_ID_LENGTH = 32;
const C_IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const C_IDENTIFIER_MSG =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";

/**
 * A driver name where declarative validation covers it (`+k8s:required`,
 * `+k8s:format=k8s-long-name-caseless`, `+k8s:maxLength=63`): its errors, in that order.
 */
export function driverNameDeclarative(value: unknown, path: string): FieldError[] {
  const name = typeof value === 'string' ? value : '';
  if (name === '') return [required(path)];
  return [...longNameCaseless(name, path), ...maxLength(name, path, 63)];
}

/** core's `ValidateCSIDriverName` as handwritten validation reports it (not covered). */
export function driverNameHandwritten(value: unknown, path: string): FieldError[] {
  const name = typeof value === 'string' ? value : '';
  if (name === '') return [required(path)];
  const errors: FieldError[] = [];
  if (name.length > 63) errors.push(tooLong(path, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errors.push(invalid(path, name, msg));
  return errors;
}

/** `validatePoolName`: required, at most 253 bytes, DNS subdomains separated by `/`. */
export function validatePoolName(name: string, path: string): FieldError[] {
  if (name === '') return [required(path)];
  const errors: FieldError[] = [];
  if (name.length > 253) errors.push(tooLong(path, 253));
  for (const part of name.split('/')) {
    for (const msg of isDNS1123Subdomain(part)) errors.push(invalid(path, part, msg));
  }
  return errors;
}

/**
 * `+k8s:format=k8s-resource-pool-name` (validate.ResourcePoolName): at most 253 characters, each
 * `/`-separated segment a DNS subdomain, its message naming the segment; the whole name is the value.
 */
export function poolNameDeclarative(name: string, path: string): FieldError[] {
  if (name === '') return [required(path)];
  const errors: FieldError[] = [];
  if (name.length > 253) errors.push(tooLong(path, 253));
  name.split('/').forEach((part, i) => {
    if (part === '') errors.push(invalid(path, name, `segment ${i}: must not be empty`));
    else for (const msg of isDNS1123Subdomain(part)) errors.push(invalid(path, name, `segment ${i}: ${msg}`));
  });
  return errors;
}

/**
 * `+k8s:format=k8s-resource-fully-qualified-name` (validate.ResourceFullyQualifiedName): a C
 * identifier after a DNS-subdomain prefix, each error worded as declarative validation words it.
 */
export function fullyQualifiedNameDeclarative(name: string, path: string): FieldError[] {
  const parts = name.split('/');
  const errors: FieldError[] = [];
  if (parts.length === 1) errors.push(...validateCIdentifier(name, path));
  else if (parts.length === 2) {
    const [prefix = '', id = ''] = parts;
    if (prefix === '') errors.push(invalid(path, '', 'prefix must not be empty'));
    else {
      if (prefix.length > 63) errors.push(tooLong(path, 63));
      for (const msg of isDNS1123Subdomain(prefix)) errors.push(invalid(path, prefix, `prefix: ${msg}`));
    }
    if (id === '') errors.push(invalid(path, '', 'name must not be empty'));
    else errors.push(...validateCIdentifier(id, path));
  }
  if (!name.includes('/')) {
    errors.push(
      invalid(path, name, 'a fully qualified name must be a domain and a name separated by a slash'),
    );
  }
  return errors;
}

/** `ValidateDNS1123Label` (device, request and counter names). */
export function validateDNSLabel(name: string, path: string): FieldError[] {
  return isDNS1123Label(name).map((msg) => invalid(path, name, msg));
}

/** `ValidateDNS1123Subdomain` (device class names). */
export function validateDNSSubdomain(name: string, path: string): FieldError[] {
  return isDNS1123Subdomain(name).map((msg) => invalid(path, name, msg));
}

/** `validateCIdentifier`. */
function validateCIdentifier(id: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (id.length > MAX_ID_LENGTH) errors.push(tooLong(path, MAX_ID_LENGTH));
  if (!C_IDENTIFIER_RE.test(id)) errors.push(invalid(path, id, C_IDENTIFIER_MSG));
  return errors;
}

/** `validateQualifiedName`: an identifier, or a driver-like domain and an identifier. */
export function validateQualifiedName(name: string, path: string): FieldError[] {
  const parts = name.split('/');
  if (parts.length === 1) return validateCIdentifier(name, path);
  if (parts.length !== 2) return [];
  const [domain = '', id = ''] = parts;
  const errors: FieldError[] = [];
  if (domain === '') errors.push(invalid(path, '', 'the domain must not be empty'));
  else errors.push(...driverNameHandwritten(domain, path));
  if (id === '') errors.push(invalid(path, '', 'the name must not be empty'));
  else errors.push(...validateCIdentifier(id, path));
  return errors;
}

/** metav1 `ValidateLabelName`: a qualified name. */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/** `validateLabelValue`. */
export function validateLabelValue(value: string, path: string): FieldError[] {
  return isValidLabelValue(value).map((msg) => invalid(path, value, msg));
}

/** The metadata a status strategy keeps as stored: `metav1.ResetObjectMetaForStatus`. */
export function resetMetaForStatus(obj: KubeObject, old: KubeObject): void {
  const meta = rec(obj.metadata);
  const was = rec(old.metadata);
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (was[key] === undefined) delete meta[key];
    else meta[key] = structuredClone(was[key]);
  }
}
