/**
 * What ConfigMaps and Secrets share (pkg/apis/core/validation): the 1 MiB bound on their data,
 * how a base64 value is counted, and the immutability of `immutable: true` objects.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { sameJson } from '../access.js';
import type { FieldError } from '../types.js';
import { forbidden } from '../validation.js';

/** kube's `MaxSecretSize`, which also bounds ConfigMaps: 1 MiB (etcd's request limit leaves room for metadata). */
export const MAX_DATA_SIZE = 1024 * 1024;

/** Decoded size of a base64 value (how kube counts `data` bytes of Secrets and `binaryData`). */
export function base64Size(value: unknown): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
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
