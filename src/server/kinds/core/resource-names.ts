/**
 * Resource names as LimitRanges and ResourceQuotas name them (`cpu`, `requests.memory`,
 * `example.com/gpu`): pkg/apis/core/helper/helpers.go's sets of standard names and
 * pkg/apis/core/validation's `validateResourceName`, `ValidateContainerResourceName`,
 * `ValidateResourceQuotaResourceName`, with their messages.
 */

import { parseQuantity } from '../../../protocol/quantity.js';
import { goNamedString } from '../field-value.js';
import type { FieldError } from '../types.js';
import { invalid } from '../validation.js';
import { isQualifiedName } from '../validation-names.js';

const HUGE_PAGES = 'hugepages-';
const REQUESTS_HUGE_PAGES = 'requests.hugepages-';

/** helpers.go `standardResources`. */
const STANDARD = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

/** helpers.go `standardQuotaResources`: the standard names but `storage`. */
const STANDARD_QUOTA = new Set([...STANDARD].filter((n) => n !== 'storage'));

/** helpers.go `integerResources`: counts of objects. */
const INTEGER = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

function isQuotaHugePage(name: string): boolean {
  return name.startsWith(HUGE_PAGES) || name.startsWith(REQUESTS_HUGE_PAGES);
}

/** `IsStandardResourceName`. */
export function isStandardResourceName(name: string): boolean {
  return STANDARD.has(name) || isQuotaHugePage(name);
}

/** `IsStandardQuotaResourceName`. */
export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA.has(name) || isQuotaHugePage(name);
}

/** `IsNativeResource`: no domain, or the kubernetes.io one. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** `IsExtendedResourceName`: a domain-qualified name that stays qualified as `requests.<name>`. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** `IsIntegerResourceName`. */
export function isIntegerResourceName(name: string): boolean {
  return INTEGER.has(name) || isExtendedResourceName(name);
}

/** `IsOvercommitAllowed`: native, and not huge pages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !name.startsWith(HUGE_PAGES);
}

/** A `core.ResourceName` as a bad value: a named string type, which ErrorBody marshals. */
function nameValue(name: string) {
  return goNamedString(name);
}

/** `validateResourceName`: a qualified name, standard unless it has a domain. */
export function validateResourceName(name: string, field: string): FieldError[] {
  const errors = isQualifiedName(name).map((msg) => invalid(field, nameValue(name), msg));
  if (errors.length > 0) return errors;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    return [invalid(field, nameValue(name), 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** `ValidateContainerResourceName`: cpu, memory, ephemeral storage, huge pages or an extended resource. */
export function validateContainerResourceName(name: string, field: string): FieldError[] {
  const errors = validateResourceName(name, field);
  if (!name.includes('/')) {
    if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !name.startsWith(HUGE_PAGES)) {
      return [...errors, invalid(field, nameValue(name), 'must be a standard resource for containers')];
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [...errors, invalid(field, nameValue(name), "doesn't follow extended resource name standard")];
  }
  return errors;
}

/** `ValidateResourceQuotaResourceName`. */
export function validateQuotaResourceName(name: string, field: string): FieldError[] {
  const errors = validateResourceName(name, field);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    return [...errors, invalid(field, nameValue(name), 'must be a standard resource for quota')];
  }
  return errors;
}

/**
 * `ValidateResourceQuantityValue`: not negative (`ValidateNonnegativeQuantity`, the value as its
 * text) and, for counts and extended resources, a whole number.
 */
export function validateQuantityValue(name: string, value: unknown, field: string): FieldError[] {
  const text = typeof value === 'string' ? value : String(value);
  const amount = parseQuantity(value) ?? 0;
  const errors: FieldError[] = [];
  if (amount < 0) errors.push(invalid(field, text, 'must be greater than or equal to 0'));
  if (isIntegerResourceName(name) && Math.round(amount * 1000) % 1000 !== 0) {
    errors.push(invalid(field, text, 'must be an integer'));
  }
  return errors;
}
