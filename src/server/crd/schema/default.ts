/**
 * Defaulting of custom objects, as apiextensions-apiserver
 * pkg/apiserver/schema/defaulting/algorithm.go `Default` applies `default` values: on create, on
 * update, and on reading stored objects (the caller decides when). A property gets its default
 * when it is absent, or when it is null and its schema is not `nullable`; defaults are applied
 * from the outside in, so a defaulted object receives its own properties' defaults too. Items
 * of a list and values of a map that are null get the item or value schema's default.
 * prunenulls.go `PruneNonNullableNullsWithoutDefaults` then drops the nulls no default replaced
 * and no schema allows, as kube-apiserver does after defaulting.
 */
import { additionalSchema, isJsonObject, type Structural } from './structural.js';

function isNonNullableNull(x: unknown, s: Structural | undefined): boolean {
  return x === null && s !== undefined && !s.nullable;
}

/** Deep copy of a JSON value (runtime.DeepCopyJSONValue): every object gets its own default. */
function copyJson(v: unknown): unknown {
  return v === undefined ? null : structuredClone(v);
}

const defaultedCache = new WeakMap<Structural, Array<[string, Structural, unknown]>>();

/**
 * The properties of `s` with a default to apply, found once per schema node. Upstream skips a
 * default whose value is null (`prop.Default.Object == nil`).
 */
function defaulted(s: Structural): Array<[string, Structural, unknown]> {
  let out = defaultedCache.get(s);
  if (out === undefined) {
    out = [];
    for (const [k, prop] of s.properties ?? []) {
      if (prop.default !== undefined && prop.default.value !== null) out.push([k, prop, prop.default.value]);
    }
    defaultedCache.set(s, out);
  }
  return out;
}

/** algorithm.go `Default`: applies `schema`'s defaults to `x` in place. */
export function applyDefaults(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (isJsonObject(x)) {
    for (const [k, prop, value] of defaulted(s)) {
      if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = copyJson(value);
    }
    const extra = additionalSchema(s);
    for (const k of Object.keys(x)) {
      const prop = s.properties?.get(k);
      if (prop) applyDefaults(x[k], prop);
      else if (extra) {
        if (isNonNullableNull(x[k], extra)) x[k] = copyJson(extra.default?.value);
        applyDefaults(x[k], extra);
      }
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], s.items)) x[i] = copyJson(s.items?.default?.value);
      applyDefaults(x[i], s.items);
    }
  }
}

function schemaForField(field: string, s: Structural | undefined): Structural | undefined {
  if (s === undefined) return undefined;
  return s.properties?.get(field) ?? additionalSchema(s);
}

/** prunenulls.go `PruneNonNullableNullsWithoutDefaults`: deletes nulls no schema allows and no default replaces. */
export function pruneNonNullableNulls(x: unknown, s: Structural | undefined): void {
  if (isJsonObject(x)) {
    for (const k of Object.keys(x)) {
      const sub = schemaForField(k, s);
      if (x[k] === null && sub !== undefined && !sub.nullable && sub.default?.value == null) delete x[k];
      else pruneNonNullableNulls(x[k], sub);
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNulls(v, s?.items);
  }
}
