/**
 * The rules StorageClasses and VolumeAttributesClasses share (pkg/apis/storage/validation):
 * the provisioner or driver name (`validateProvisioner`) and the parameters
 * (`validateParameters`), and the VolumeAttributesClass protection finalizer's helper.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, rec, str } from '../access.js';
import type { FieldError } from '../types.js';
import { invalid, required, tooLong } from '../validation.js';
import { isQualifiedName } from '../validation-names.js';

/** `validateProvisioner`: required, a qualified name in lower case. */
export function validateProvisioner(value: unknown, path: string): FieldError[] {
  const name = str(value);
  if (name === '') return [required(path)];
  const lower = name.toLowerCase();
  return isQualifiedName(lower).map((msg) => invalid(path, lower, msg));
}

/** `validateParameters`: at most 512 keys, no empty key, 256 KiB in all; `allowEmpty` or at least one. */
export function validateParameters(params: unknown, allowEmpty: boolean, path: string): FieldError[] {
  const map = rec(params);
  const keys = Object.keys(map);
  if (keys.length > 512) return [tooLong(path, 512)];
  const errors: FieldError[] = [];
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) errors.push(invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(str(map[k]));
  }
  if (size > 256 * 1024) errors.push(tooLong(path, 256 * 1024));
  if (!allowEmpty && keys.length === 0)
    errors.push(required(path, 'must contain at least one key/value pair'));
  return errors;
}

/** A string map as Go's `map[string]string` compares with Semantic.DeepEqual (nil and empty alike). */
export function sameStringMap(a: unknown, b: unknown): boolean {
  const x = rec(a);
  const y = rec(b);
  const kx = Object.keys(x);
  return kx.length === Object.keys(y).length && kx.every((k) => k in y && x[k] === y[k]);
}

/** A map field's value as a bad value: the map, or null when absent. */
export function mapValue(value: unknown): unknown {
  return isObject(value) ? value : null;
}

/** Adds `finalizer` to a new object's finalizers unless it is there (the protection plugins). */
export function addFinalizer(obj: KubeObject, finalizer: string): void {
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
}
