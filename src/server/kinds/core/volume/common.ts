/**
 * What PersistentVolumes and PersistentVolumeClaims share (pkg/apis/core/validation): access
 * modes, volume modes, class names, the storage quantity rules, the access-mode cell
 * (pkg/apis/core/helper `GetAccessModesAsString`) and the values their immutability errors print.
 */

import { parseQuantity } from '../../../../protocol/quantity.js';
import { arr, isObject, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { forbidden, invalid, notSupported, required } from '../../validation.js';
import { isDNS1123Subdomain } from '../../validation-names.js';

/** The beta annotation that named a class before `storageClassName` (core.BetaStorageClassAnnotation). */
export const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** `supportedAccessModes`, sorted as `sets.List` gives them in messages. */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** `supportedVolumeModes`, sorted. */
export const VOLUME_MODES = ['Block', 'Filesystem'];

/**
 * The access-mode rules of ValidatePersistentVolumeSpec and ValidatePersistentVolumeClaimSpec:
 * each one supported, and ReadWriteOncePod alone. `missing` is the Required error's detail.
 */
export function validateAccessModes(modes: unknown, path: string, missing: string): FieldError[] {
  const errors: FieldError[] = [];
  const list = arr(modes);
  if (list.length === 0) errors.push(required(path, missing));
  let rwop = false;
  let other = false;
  for (const mode of list) {
    const supported = ACCESS_MODES.includes(str(mode));
    if (!supported) errors.push(notSupported(path, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (supported) other = true;
  }
  if (rwop && other) errors.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errors;
}

/** `ValidateClassName` (a DNS subdomain) of a non-empty class name. */
export function validateClassName(name: unknown, path: string): FieldError[] {
  const value = str(name);
  if (value === '') return [];
  return isDNS1123Subdomain(value).map((msg) => invalid(path, value, msg));
}

/** A volume mode that is not Block or Filesystem. */
export function validateVolumeMode(mode: unknown, path: string): FieldError[] {
  if (mode === undefined || mode === null) return [];
  return VOLUME_MODES.includes(str(mode)) ? [] : [notSupported(path, mode, VOLUME_MODES)];
}

/** A quantity's amount (0 when absent or malformed, as Go's zero Quantity). */
export function amount(q: unknown): number {
  return parseQuantity(q) ?? 0;
}

/** `ValidatePositiveQuantityValue`: the quantity's text when it is not above zero. */
export function validatePositiveQuantity(q: unknown, path: string): FieldError[] {
  return amount(q) <= 0 ? [invalid(path, str(q) || '0', 'must be greater than zero')] : [];
}

/** `ValidateNonnegativeQuantity`. */
export function validateNonNegativeQuantity(q: unknown, path: string): FieldError[] {
  return amount(q) < 0 ? [invalid(path, str(q), 'must be greater than or equal to 0')] : [];
}

/** `validateBasicResource`: a quantity whose integer value (`Value()`, rounded up) is negative. */
export function validateBasicResource(q: unknown, path: string): FieldError[] {
  const a = amount(q);
  const value = a < 0 ? -Math.ceil(-a) : Math.ceil(a);
  return value < 0 ? [invalid(path, value, 'must be a valid resource quantity')] : [];
}

/** `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModesCell(modes: unknown): string {
  const list = arr(modes);
  const out: string[] = [];
  if (list.includes('ReadWriteOnce')) out.push('RWO');
  if (list.includes('ReadOnlyMany')) out.push('ROX');
  if (list.includes('ReadWriteMany')) out.push('RWX');
  if (list.includes('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** A ResourceList as its internal Go map marshals: keys sorted, quantities as their text; nil as null. */
export function goResourceList(list: unknown): Record<string, unknown> | null {
  if (!isObject(list)) return null;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(list).sort()) out[k] = list[k];
  return out;
}

/** A `*string` field: null when absent. */
export function goStringPtr(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A `[]T` field: null when absent (a nil slice), else the list as sent. */
export function goSlice(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

/** A `*metav1.LabelSelector` as it marshals (json tags, empty parts left out); null when nil. */
export function goLabelSelector(selector: unknown): Record<string, unknown> | null {
  if (!isObject(selector)) return null;
  const out: Record<string, unknown> = {};
  const labels = rec(selector.matchLabels);
  if (Object.keys(labels).length > 0) {
    out.matchLabels = Object.fromEntries(
      Object.keys(labels)
        .sort()
        .map((k) => [k, labels[k]]),
    );
  }
  const exprs = arr(selector.matchExpressions).filter(isObject);
  if (exprs.length > 0) {
    out.matchExpressions = exprs.map((e) => ({
      key: str(e.key),
      operator: str(e.operator),
      ...(arr(e.values).length > 0 ? { values: e.values } : {}),
    }));
  }
  return out;
}

/** A `*core.SecretReference` (Name, Namespace) as its internal struct marshals. */
export function goSecretRef(ref: unknown): Record<string, unknown> | null {
  if (!isObject(ref)) return null;
  return { Name: str(ref.name), Namespace: str(ref.namespace) };
}
