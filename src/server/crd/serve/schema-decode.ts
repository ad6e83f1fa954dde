/**
 * What decoding a CustomResourceDefinition does to the schemas nested in it. Go decodes
 * `openAPIV3Schema` into JSONSchemaProps; the strict decoder reports unknown fields of the
 * structs it walks itself (the server warns or refuses per `fieldValidation`), but the schemas
 * under `items`, `additionalProperties`, `additionalItems` and `dependencies` go through the
 * custom unmarshallers of apiextensions/v1 marshal.go (`JSONSchemaPropsOrArray`,
 * `JSONSchemaPropsOrBool`, `JSONSchemaPropsOrStringArray`), which call a plain
 * `json.Unmarshal`: unknown fields there, at any depth below, are dropped without a word, and
 * the stored definition does not have them.
 */
import { isObject, type JsonObject } from '../../kinds/access.js';

/** The JSON fields of JSONSchemaProps (apiextensions/v1 types_jsonschema.go). */
const SCHEMA_FIELDS = new Set([
  'id',
  '$schema',
  '$ref',
  'description',
  'type',
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
  'externalDocs',
  'example',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);
const RULE_FIELDS = new Set([
  'rule',
  'message',
  'messageExpression',
  'reason',
  'fieldPath',
  'optionalOldSelf',
]);
const DOCS_FIELDS = new Set(['description', 'url']);

function keepOnly(obj: JsonObject, fields: ReadonlySet<string>): void {
  for (const k of Object.keys(obj)) if (!fields.has(k)) delete obj[k];
}

/** Walks one schema; `lenient` once below a custom unmarshaller, where unknown fields go. */
function walk(s: unknown, lenient: boolean): void {
  if (!isObject(s)) return;
  if (lenient) {
    keepOnly(s, SCHEMA_FIELDS);
    if (isObject(s.externalDocs)) keepOnly(s.externalDocs, DOCS_FIELDS);
    if (Array.isArray(s['x-kubernetes-validations'])) {
      for (const r of s['x-kubernetes-validations']) if (isObject(r)) keepOnly(r, RULE_FIELDS);
    }
  }
  for (const key of ['properties', 'patternProperties', 'definitions']) {
    const map = s[key];
    if (isObject(map)) for (const v of Object.values(map)) walk(v, lenient);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[key];
    if (Array.isArray(list)) for (const v of list) walk(v, lenient);
  }
  walk(s.not, lenient);
  // The custom unmarshallers: a schema, an array of schemas, or a bool / string list.
  const items = s.items;
  if (Array.isArray(items)) for (const v of items) walk(v, true);
  else walk(items, true);
  walk(s.additionalProperties, true);
  walk(s.additionalItems, true);
  if (isObject(s.dependencies)) for (const v of Object.values(s.dependencies)) walk(v, true);
}

/** Drops, in place, what Go's lenient decoding of nested schemas drops from a definition. */
export function dropLenientlyDecodedFields(crd: unknown): void {
  if (!isObject(crd) || !isObject(crd.spec) || !Array.isArray(crd.spec.versions)) return;
  for (const v of crd.spec.versions) {
    if (isObject(v) && isObject(v.schema)) walk(v.schema.openAPIV3Schema, false);
  }
}
