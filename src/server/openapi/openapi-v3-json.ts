/**
 * A `/openapi/v3` document's bytes as kube-apiserver writes them, so that its `?hash=` (and the
 * ETag) can equal the reference's: Go's encoding/json over kube-openapi's types.
 *
 * - A schema (validation/spec/schema.go `Schema.MarshalJSON`) writes its SchemaProps in struct
 *   field order, then its `x-` extensions (a map: sorted), then `$ref` and `$schema`, then the
 *   SwaggerSchemaProps (`discriminator`, `readOnly`, `externalDocs`, `example`), then any other key.
 * - Every map is written with sorted keys: `properties`, `patternProperties`, `definitions`, and
 *   the free values (`default`, `enum`, `example`, extensions).
 * - Strings escape `<`, `>`, `&`, U+2028 and U+2029 (encoding/json's HTML-safe default).
 *
 * The rest of a document (paths, operations) is built in its Go order already (openapi-v3-paths.ts).
 */

type Json = Record<string, unknown>;

/** spec.SchemaProps' JSON names in field order. */
const SCHEMA_PROPS = [
  'id',
  'description',
  'type',
  'nullable',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'patternProperties',
  'dependencies',
  'additionalItems',
  'definitions',
];
const AFTER_EXTENSIONS = ['$ref', '$schema', 'discriminator', 'readOnly', 'externalDocs', 'example'];
const KNOWN = new Set([...SCHEMA_PROPS, ...AFTER_EXTENSIONS]);
const SCHEMA_LISTS = new Set(['allOf', 'oneOf', 'anyOf']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A free JSON value as Go writes a `map[string]interface{}`: every object's keys sorted. */
function sortedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedValue);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort(byKey)) out[key] = sortedValue((value as Json)[key]);
  return out;
}

/** A schema, or a schema-or-bool / schema-or-array, in Go's key order. */
function schemaValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(goSchema);
  if (typeof value === 'object' && value !== null) return goSchema(value as Json);
  return value;
}

function schemaMap(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort(byKey)) out[key] = schemaValue((value as Json)[key]);
  return out;
}

function propValue(key: string, value: unknown): unknown {
  if (key === 'items' || key === 'not' || key === 'additionalProperties' || key === 'additionalItems') {
    return schemaValue(value);
  }
  if (SCHEMA_LISTS.has(key)) return (value as unknown[]).map(schemaValue);
  if (SCHEMA_MAPS.has(key) || key === 'dependencies') return schemaMap(value);
  if (key === 'default' || key === 'enum' || key === 'example') return sortedValue(value);
  return value;
}

/** One schema with its keys (and its subschemas' keys) in the order kube-openapi writes them. */
export function goSchema(schema: Json): Json {
  const out: Json = {};
  for (const key of SCHEMA_PROPS) if (key in schema) out[key] = propValue(key, schema[key]);
  const keys = Object.keys(schema).sort(byKey);
  for (const key of keys) if (key.startsWith('x-')) out[key] = sortedValue(schema[key]);
  for (const key of AFTER_EXTENSIONS) if (key in schema) out[key] = propValue(key, schema[key]);
  for (const key of keys) if (!KNOWN.has(key) && !key.startsWith('x-')) out[key] = sortedValue(schema[key]);
  return out;
}

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON text with encoding/json's HTML-safe escapes. */
function escaped(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!);
}

/** Each schema's bytes, by object: documents share most schemas (ObjectMeta is in every one). */
const schemaBytes = new WeakMap<object, string>();

function schemaJson(schema: Json): string {
  let json = schemaBytes.get(schema);
  if (json === undefined) {
    json = escaped(JSON.stringify(goSchema(schema)));
    schemaBytes.set(schema, json);
  }
  return json;
}

/** `doc` serialized as kube-apiserver serves it: its component schemas in Go's order, HTML-safe escapes. */
export function goJsonDocument(doc: { components: object }): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (key !== 'components') {
      parts.push(`${JSON.stringify(key)}:${escaped(JSON.stringify(value))}`);
      continue;
    }
    const inner: string[] = [];
    for (const [name, part] of Object.entries(doc.components)) {
      if (name !== 'schemas') {
        inner.push(`${JSON.stringify(name)}:${escaped(JSON.stringify(part))}`);
        continue;
      }
      const entries = Object.entries(part as Record<string, Json>).map(
        ([schemaName, schema]) => `${escaped(JSON.stringify(schemaName))}:${schemaJson(schema)}`,
      );
      inner.push(`"schemas":{${entries.join(',')}}`);
    }
    parts.push(`"components":{${inner.join(',')}}`);
  }
  return `{${parts.join(',')}}`;
}
