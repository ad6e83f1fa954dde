/**
 * JSON merge patch (RFC 7386), `application/merge-patch+json`: what `kubectl
 * scale`, `label` and `annotate` send. Also home to the small JSON-value
 * helpers the other patch formats share, since merge patch is the base they
 * all build on.
 */

/** A JSON object as produced by `JSON.parse`. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of a value: `object`, `array`, `null`, `string`, `number` or `boolean`. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Reads an own property only, so a key like `__proto__` never reaches the prototype. */
export function getOwn(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Sets an own property. Plain assignment of `__proto__` would replace the
 * object's prototype instead of storing a key that JSON.parse accepted.
 */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** A deep copy of a JSON value; results never share structure with inputs, as callers default in place. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(out, key, cloneJson(value[key]));
    return out as T;
  }
  return value;
}

/** Structural equality of JSON values: key order ignored, array order significant. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/**
 * Applies a JSON merge patch (RFC 7386 §2): objects merge recursively, `null`
 * deletes a key, anything else (arrays included) replaces. Pure: neither input
 * is changed and the result shares no structure with them.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: JsonObject = isJsonObject(target) ? cloneJson(target) : {};
  mergeInto(result, patch);
  return result;
}

/** Merges `patch` into `result`, which the caller owns. */
function mergeInto(result: JsonObject, patch: JsonObject): void {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      delete result[key];
    } else if (isJsonObject(value)) {
      const current = getOwn(result, key);
      const child: JsonObject = isJsonObject(current) ? current : {};
      mergeInto(child, value);
      setOwn(result, key, child);
    } else {
      setOwn(result, key, cloneJson(value));
    }
  }
}
