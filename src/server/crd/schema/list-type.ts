/**
 * Duplicates in `x-kubernetes-list-type: set` and `map` lists, as apiextensions-apiserver
 * pkg/apiserver/schema/listtype/validation.go `ValidateListSetsAndMaps` reports them after the
 * OpenAPI checks: `spec.tags[2]: Duplicate value: "a"`, `spec.ports[1]: Duplicate value:
 * {"name":"http"}`. Only the second occurrence of a value is named (`validateListSet`).
 * Paths are field.Path's: `.child`, `[key]` for a map's key, `[i]` for an index.
 */

import { goJsonMarshal } from '../../kinds/field-value.js';
import type { FieldError } from '../../kinds/types.js';
import { duplicateError, invalidError } from './errors.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';
import { hasBelow, trait } from './subtree.js';

const SETS_AND_MAPS = trait((s) => s.listType === 'set' || s.listType === 'map');

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** listtype `ValidateListSetsAndMaps`: the duplicates in every set or map list under `obj`. */
export function validateListSetsAndMaps(
  path: string,
  s: Structural,
  obj: Record<string, unknown>,
): FieldError[] {
  const errors: FieldError[] = [];
  const extra = additionalSchema(s);
  for (const [k, v] of Object.entries(obj)) {
    const prop = s.properties?.get(k);
    if (prop) errors.push(...validateValue(child(path, k), prop, v));
    else if (extra) errors.push(...validateValue(`${path}[${k}]`, extra, v));
  }
  return errors;
}

function validateValue(path: string, s: Structural, v: unknown): FieldError[] {
  // A subtree without set or map lists has no duplicates to report.
  if (!hasBelow(SETS_AND_MAPS, s)) return [];
  if (Array.isArray(v)) return validateArray(path, s, v);
  if (isJsonObject(v)) return validateListSetsAndMaps(path, s, v);
  return [];
}

function validateArray(path: string, s: Structural, list: unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  if (s.listType === 'set') {
    for (const i of nonUniqueIndices(list)) errors.push(duplicateError(`${path}[${i}]`, list[i]));
  } else if (s.listType === 'map') {
    errors.push(...validateListMap(path, s, list));
  }
  if (s.items) {
    for (let i = 0; i < list.length; i++) errors.push(...validateValue(`${path}[${i}]`, s.items, list[i]));
  }
  return errors;
}

/** A key that tells equal values apart: compounds by their JSON, scalars by type and value. */
function identity(x: unknown): string {
  if (typeof x === 'object' && x !== null) return `c:${goJsonMarshal(x)}`;
  return `s:${typeof x}:${String(x)}`;
}

/** `validateListSet`: the index of each value's second occurrence. */
function nonUniqueIndices(list: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const id = identity(x);
    const times = seen.get(id) ?? 0;
    seen.set(id, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

/** `validateListMap`: items must be objects; their key fields (absent ones left out) must be unique. */
function validateListMap(path: string, s: Structural, list: unknown[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isJsonObject(x)) {
      return [invalidError(`${path}[${i}]`, x, 'must be an object for an array of list-type map')];
    }
  }
  if (list.length <= 1) return [];
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (!isJsonObject(x)) return key;
    for (const f of s.listMapKeys) if (f in x) key[f] = x[f];
    return key;
  });
  // With one key field upstream compares the bare key values; the outcome is the same.
  return nonUniqueIndices(keys).map((i) => duplicateError(`${path}[${i}]`, keys[i]));
}
