/**
 * A custom resource's published schema: the version's `openAPIV3Schema` as apiextensions-apiserver
 * publishes it in OpenAPI v3 and v2 (pkg/controller/openapi/builder/builder.go `generateBuilder`,
 * `buildKubeNative`, `addEmbeddedProperties`, `buildListSchema`):
 *
 * - the schema read as a structural schema (apiserver/schema NewStructural) and written back
 *   (kubeopenapi.go `ToKubeOpenAPI`): the keys a structural schema has, false flags and empty
 *   lists left out, properties in key order (Go marshals maps sorted); the keys it has no place
 *   for (`$schema`, `id`, `definitions`, `dependencies`, `patternProperties`, `additionalItems`,
 *   `$ref`, and `additionalProperties` inside anyOf/allOf/oneOf/not) dropped;
 * - `x-kubernetes-int-or-string` unfolded into `anyOf: [{type: integer}, {type: string}]`
 *   (unfold.go `Unfold`);
 * - for v2 only, what OpenAPI v2 cannot say removed (controller/openapi/v2/conversion.go
 *   `ToStructuralOpenAPIV2`: no junctors, nullable and preserve-unknown-fields nodes untyped
 *   and emptied), and the defaults pruned (controller/openapi/controller.go, kube-openapi
 *   handler `PruneDefaults`); a schema that preserves unknown fields at its root is published
 *   as a bare object;
 * - `apiVersion`, `kind` (metav1.TypeMeta's) and `metadata` (a reference to ObjectMeta) at the
 *   root and on every `x-kubernetes-embedded-resource` object, and
 *   `x-kubernetes-group-version-kind`.
 *
 * In v3 a `$ref` with siblings is wrapped in `allOf` (kube-openapi builder3/util `WrapRefs`).
 */

type Json = Record<string, unknown>;

/** Which document a schema is for: v3 (`#/components/schemas/`) or v2 (`#/definitions/`). */
export type OpenApiVersion = 'v2' | 'v3';

/** metav1.TypeMeta's field texts (apimachinery meta/v1 types_swagger_doc_generated.go `map_TypeMeta`). */
export const TYPE_META_TEXTS = {
  apiVersion:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  kind: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
};
/** `map_PartialObjectMetadata["metadata"]` and `map_PartialObjectMetadataList["metadata"]`, as builder.go uses them. */
const OBJECT_META_TEXT =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_META_TEXT =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
/** The texts builder.go's `addEmbeddedProperties` gives an embedded object's apiVersion and kind. */
const EMBEDDED_TEXTS = {
  apiVersion:
    'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  kind: 'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
};

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

/** The reference to a named schema in a document of `version`. */
export function refTo(name: string, version: OpenApiVersion): string {
  return `${version === 'v3' ? '#/components/schemas/' : '#/definitions/'}${name}`;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural's Generic (description, type, ...): omitted when empty, as spec.Schema marshals them. */
function copyGeneric(from: Json, to: Json): void {
  for (const key of ['description', 'type', 'title']) {
    if (typeof from[key] === 'string' && from[key] !== '') to[key] = from[key];
  }
  if (from.nullable === true) to.nullable = true;
  if (from.default !== undefined && from.default !== null) to.default = from.default;
  if (isObject(from.externalDocs)) {
    const docs: Json = {};
    if (from.externalDocs.description) docs.description = from.externalDocs.description;
    if (from.externalDocs.url) docs.url = from.externalDocs.url;
    to.externalDocs = docs;
  }
  if (from.example !== undefined && from.example !== null) to.example = from.example;
}

/** Structural's Extensions and ValidationExtensions (`x-kubernetes-*`): true flags and set values only. */
function copyExtensions(from: Json, to: Json): void {
  for (const flag of [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
  ]) {
    if (from[flag] === true) to[flag] = true;
  }
  const keys = from['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys) && keys.length > 0) to['x-kubernetes-list-map-keys'] = keys;
  for (const key of ['x-kubernetes-list-type', 'x-kubernetes-map-type']) {
    if (typeof from[key] === 'string') to[key] = from[key];
  }
  const rules = from['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length > 0) to['x-kubernetes-validations'] = rules;
}

/** Structural's ValueValidation: the bounds, formats and junctors (their nodes as NestedValueValidation). */
function copyValueValidation(from: Json, to: Json): void {
  if (typeof from.format === 'string' && from.format !== '') to.format = from.format;
  for (const key of [
    'maximum',
    'minimum',
    'maxLength',
    'minLength',
    'maxItems',
    'minItems',
    'multipleOf',
    'maxProperties',
    'minProperties',
  ]) {
    if (typeof from[key] === 'number') to[key] = from[key];
  }
  for (const flag of ['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems']) {
    if (from[flag] === true) to[flag] = true;
  }
  if (typeof from.pattern === 'string' && from.pattern !== '') to.pattern = from.pattern;
  if (Array.isArray(from.enum)) to.enum = from.enum;
  if (Array.isArray(from.required) && from.required.length > 0) to.required = from.required;
  for (const junctor of ['allOf', 'anyOf', 'oneOf']) {
    const list = from[junctor];
    if (Array.isArray(list) && list.length > 0) to[junctor] = list.map((n) => nested(isObject(n) ? n : {}));
  }
  if (isObject(from.not)) to.not = nested(from.not);
}

function sortedProperties(properties: Json, convert: (node: Json) => Json): Json {
  const out: Json = {};
  for (const key of Object.keys(properties).sort()) {
    const node = properties[key];
    out[key] = convert(isObject(node) ? node : {});
  }
  return out;
}

/**
 * A node under a junctor (NestedValueValidation `toKubeOpenAPI`): value validations, items and
 * properties, and the generics and extensions structural validation allows there only for the
 * int-or-string patterns; never additionalProperties.
 */
function nested(node: Json): Json {
  const out: Json = {};
  copyValueValidation(node, out);
  const rules = node['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length > 0) out['x-kubernetes-validations'] = rules;
  if (isObject(node.items)) out.items = nested(node.items);
  if (isObject(node.properties)) out.properties = sortedProperties(node.properties, nested);
  copyGeneric(node, out);
  copyExtensions(node, out);
  return out;
}

/** A schema node read as a structural schema and written back (`NewStructural`, `ToKubeOpenAPI`). */
function structural(node: Json): Json {
  const out: Json = {};
  if (isObject(node.items)) out.items = structural(node.items);
  if (isObject(node.properties)) out.properties = sortedProperties(node.properties, structural);
  if (isObject(node.additionalProperties)) out.additionalProperties = structural(node.additionalProperties);
  else if (typeof node.additionalProperties === 'boolean')
    out.additionalProperties = node.additionalProperties;
  copyGeneric(node, out);
  copyExtensions(node, out);
  copyValueValidation(node, out);
  return out;
}

/** Walks every structural node (not the junctors' nested ones), parents before children, as visitor.go. */
function visit(node: Json, fn: (node: Json) => void): void {
  fn(node);
  if (isObject(node.items)) visit(node.items, fn);
  if (isObject(node.properties)) for (const child of Object.values(node.properties)) visit(child as Json, fn);
  if (isObject(node.additionalProperties)) visit(node.additionalProperties, fn);
}

const INT_OR_STRING_ANY_OF = [{ type: 'integer' }, { type: 'string' }];
const isIntOrStringAnyOf = (list: unknown) => JSON.stringify(list) === JSON.stringify(INT_OR_STRING_ANY_OF);

/** unfold.go `Unfold`: an int-or-string node says so with anyOf, unless it already does. */
function unfold(node: Json): void {
  if (node['x-kubernetes-int-or-string'] !== true) return;
  const allOf = node.allOf as Json[] | undefined;
  if (isIntOrStringAnyOf(node.anyOf) || (allOf && isIntOrStringAnyOf(allOf[0]?.anyOf))) return;
  const anyOf = INT_OR_STRING_ANY_OF.map((n) => ({ ...n }));
  if (node.anyOf === undefined) node.anyOf = anyOf;
  else node.allOf = [{ anyOf }, ...(allOf ?? [])];
}

/** v2/conversion.go `ToStructuralOpenAPIV2`, on one node (before its children). */
function toV2(node: Json): void {
  for (const junctor of ['allOf', 'oneOf', 'anyOf', 'not']) delete node[junctor];
  if (node.nullable === true) {
    delete node.type;
    delete node.nullable;
    delete node.items;
    delete node.properties;
  }
  if (node['x-kubernetes-preserve-unknown-fields'] === true) {
    delete node.items;
    delete node.properties;
  }
  if (node.items === undefined && node.type === 'array') delete node.type;
  if (node['x-kubernetes-preserve-unknown-fields'] === true && node.type === 'object') delete node.type;
  const required = node.required as string[] | undefined;
  if (required && isObject(node.properties)) {
    const properties = node.properties;
    const kept = required.filter((f) => !(isObject(properties[f]) && properties[f].nullable === true));
    if (kept.length > 0) node.required = kept;
    else delete node.required;
  }
  if (isObject(node.additionalProperties) && node.additionalProperties.nullable === true)
    delete node.required;
}

/** A property referring to a named schema with a description: `allOf`-wrapped in v3 (WrapRefs). */
function describedRef(name: string, description: string, version: OpenApiVersion): Json {
  const $ref = refTo(name, version);
  return version === 'v3' ? { allOf: [{ $ref }], description } : { $ref, description };
}

/** Sets `properties[key]` keeping the properties in key order. */
function setProperty(node: Json, key: string, value: Json): void {
  const properties = isObject(node.properties) ? { ...node.properties, [key]: value } : { [key]: value };
  node.properties = Object.fromEntries(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** `addTypeMetaProperties`: TypeMeta's apiVersion and kind. */
function addTypeMeta(node: Json): void {
  setProperty(node, 'apiVersion', { description: TYPE_META_TEXTS.apiVersion, type: 'string' });
  setProperty(node, 'kind', { description: TYPE_META_TEXTS.kind, type: 'string' });
}

/** `addEmbeddedProperties`: children first, then apiVersion, kind and metadata on an embedded object. */
function addEmbedded(node: Json, version: OpenApiVersion): void {
  if (isObject(node.properties))
    for (const child of Object.values(node.properties)) addEmbedded(child as Json, version);
  if (isObject(node.items)) addEmbedded(node.items, version);
  if (isObject(node.additionalProperties)) addEmbedded(node.additionalProperties, version);
  if (node['x-kubernetes-preserve-unknown-fields'] === true && version === 'v2') return;
  if (node['x-kubernetes-embedded-resource'] !== true) return;
  setProperty(node, 'apiVersion', { description: EMBEDDED_TEXTS.apiVersion, type: 'string' });
  setProperty(node, 'kind', { description: EMBEDDED_TEXTS.kind, type: 'string' });
  setProperty(node, 'metadata', describedRef(OBJECT_META, OBJECT_META_TEXT, version));
  const required = Array.isArray(node.required) ? [...(node.required as string[])] : [];
  if (!required.includes('kind')) required.push('kind');
  if (!required.includes('apiVersion')) required.push('apiVersion');
  node.required = required;
}

/** The GVK extension of a kind's or list's schema. */
function gvkExtension(group: string, version: string, kind: string): Json {
  return { 'x-kubernetes-group-version-kind': [{ group, kind, version }] };
}

/** What {@link customKindSchema} needs of a custom kind. */
export interface CustomSchemaInput {
  group: string;
  version: string;
  kind: string;
  /** The version's `schema.openAPIV3Schema`; undefined when it has none. */
  openAPIV3Schema?: Readonly<Record<string, unknown>>;
  /** The selectable fields' paths (`spec.color`), in the definition's order. */
  selectableFields: string[];
}

/** The published schema of one custom kind in one version (`buildKubeNative`). */
export function customKindSchema(input: CustomSchemaInput, version: OpenApiVersion): Json {
  const raw = input.openAPIV3Schema;
  let schema: Json;
  if (!raw || (version === 'v2' && raw['x-kubernetes-preserve-unknown-fields'] === true)) {
    // kubectl would read a v2 object with properties as closed to any other field.
    schema = { type: 'object' };
  } else {
    schema = structural(raw as Json);
    visit(schema, unfold);
    if (version === 'v2') {
      visit(schema, toV2);
      visit(schema, (node) => delete node.default);
    }
    setProperty(schema, 'metadata', describedRef(OBJECT_META, OBJECT_META_TEXT, version));
    addTypeMeta(schema);
    addEmbedded(schema, version);
  }
  Object.assign(schema, gvkExtension(input.group, input.version, input.kind));
  if (input.selectableFields.length > 0) {
    // builder.go `buildSelectableFields`: the paths without their leading dot.
    schema['x-kubernetes-selectable-fields'] = input.selectableFields.map((f) => ({
      fieldPath: f.replace(/^\./, ''),
    }));
  }
  return schema;
}

/** The published schema of a custom kind's list (`buildListSchema`). */
export function customListSchema(
  input: Pick<CustomSchemaInput, 'group' | 'version' | 'kind' | 'selectableFields'> & {
    listKind: string;
    plural: string;
    kindSchemaName: string;
  },
  version: OpenApiVersion,
): Json {
  const schema: Json = {
    description: `${input.listKind} is a list of ${input.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        description: `List of ${input.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: refTo(input.kindSchemaName, version) },
      },
      metadata: describedRef(LIST_META, LIST_META_TEXT, version),
    },
  };
  addTypeMeta(schema);
  Object.assign(schema, gvkExtension(input.group, input.version, input.listKind));
  if (input.selectableFields.length > 0) {
    schema['x-kubernetes-selectable-fields'] = input.selectableFields.map((f) => ({
      fieldPath: f.replace(/^\./, ''),
    }));
  }
  return schema;
}

/** The named meta types a custom kind's schemas refer to. */
export const CUSTOM_KIND_REFERENCES = [OBJECT_META, LIST_META];
