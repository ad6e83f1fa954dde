/**
 * Tolerant readers and writers for objects that arrived as untrusted JSON.
 * Defaults, validation and table cells run on whatever a client sent (and on
 * `{}`), so none of them may assume a field has the type the API declares:
 * these helpers turn a wrong type into "absent" instead of a TypeError.
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is an object, else a fresh empty one (for reading only). */
export function rec(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/** `value` when it is an array, else an empty one (for reading only). */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The objects of an array field, skipping anything that is not an object. */
export function objects(value: unknown): JsonObject[] {
  return arr(value).filter(isObject);
}

/** `value` when it is a string, else "". */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `value` when it is a finite number, else `fallback`. */
export function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** An object's `spec`, `{}` when it has none (or a non-object). */
export function specOf(obj: JsonObject): JsonObject {
  return rec(obj.spec);
}

/** An object's `status`, `{}` when it has none (or a non-object). */
export function statusOf(obj: JsonObject): JsonObject {
  return rec(obj.status);
}

/** Reads a dotted path (`spec.template.spec`) through objects; undefined when any step is missing. */
export function getPath(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/**
 * The child object `parent[key]`, created when absent (as Go's zero-value
 * structs are always "there"); undefined when the field holds a non-object,
 * which validation reports and defaulting must leave alone.
 */
export function child(parent: JsonObject, key: string): JsonObject | undefined {
  const value = parent[key];
  if (value === undefined || value === null) {
    const created: JsonObject = {};
    parent[key] = created;
    return created;
  }
  return isObject(value) ? value : undefined;
}

/** Sets `obj[key] = value` only when the field is absent, null or "" (Go's zero value for strings). */
export function setDefault(obj: JsonObject, key: string, value: unknown): void {
  const cur = obj[key];
  if (cur === undefined || cur === null || cur === '') obj[key] = value;
}

/** Sets `obj[key] = value` only when the field is absent or null (Go's nil pointer). */
export function setIfAbsent(obj: JsonObject, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** A string map (labels, selectors) with non-string values dropped. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec(value))) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Canonical JSON (object keys sorted), so two values compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/** Semantic equality of two JSON values (apimachinery's `Semantic.DeepEqual` for our purposes). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Replaces `obj`'s fields with `fields`, in place: a version conversion of an object the write
 * pipeline holds. The `metadata` object stays the same object (the pipeline may hold it, to name
 * the object or set its generation later), its fields replaced by those of `fields.metadata`.
 * Nested values of `fields` are taken as they are, and nested values of `obj` are never changed.
 */
export function replaceFields(obj: JsonObject, fields: JsonObject): void {
  const meta = obj.metadata;
  for (const key of Object.keys(obj)) delete obj[key];
  Object.assign(obj, fields);
  if (!isObject(meta) || !isObject(fields.metadata) || meta === fields.metadata) return;
  const next = fields.metadata;
  for (const key of Object.keys(meta)) if (!(key in next)) delete meta[key];
  Object.assign(meta, next);
  obj.metadata = meta;
}
