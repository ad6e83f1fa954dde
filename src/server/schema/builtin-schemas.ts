/**
 * The built-in kinds' schemas, read off the generated type table (openapi-types.generated.ts,
 * from Kubernetes 1.37.2's published OpenAPI, integer and byte formats included) into the engine's
 * structural form, one named type at a time as the compiler asks for it.
 *
 * The Go types come along for the decoder's messages: a struct `io.k8s.api.core.v1.PodSpec` is
 * Go's `v1.PodSpec`, a list of Containers `[]v1.Container`, labels `map[string]string`. Go's
 * named string, map and slice types (`v1.Protocol`, `v1.ResourceList`, `types.UID`) and the
 * embedded structs fields are promoted from (`Rule`) are not in the table: they come from
 * go-fields.generated.ts, read off the upstream types.go files.
 */
import type { ApiFieldType, ApiType } from '../openapi/openapi-model.js';
import { API_TYPES } from '../openapi/openapi-types.generated.js';
import { GO_EMBEDDED_IN, GO_FIELD_TYPES } from './go-fields.generated.js';
import type { Schema, SchemaRef, SchemaSource } from './schema.js';

/**
 * The apimachinery types with a JSON form of their own (each has an UnmarshalJSON), by OpenAPI
 * name: what they accept is their parser's rule, not their struct's.
 */
const SPECIAL_TYPES: Readonly<Record<string, Schema>> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    type: 'string',
    format: 'quantity',
    goType: 'resource.Quantity',
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string', format: 'date-time', goType: 'v1.Time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': {
    type: 'string',
    format: 'date-time-micro',
    goType: 'v1.MicroTime',
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'int-or-string', goType: 'intstr.IntOrString' },
};

/** The table's primitive field types as schemas, with the Go type each decodes into. */
const PRIMITIVES: Readonly<Record<string, Schema>> = {
  string: { type: 'string', goType: 'string' },
  boolean: { type: 'boolean', goType: 'bool' },
  int32: { type: 'integer', format: 'int32', goType: 'int32' },
  int64: { type: 'integer', format: 'int64', goType: 'int64' },
  number: { type: 'number', goType: 'float64' },
  bytes: { type: 'string', format: 'byte', goType: '[]uint8' },
};

/** `io.k8s.api.apps.v1.DeploymentSpec` → Go's `v1.DeploymentSpec` (package = the version). */
function goTypeName(openApiName: string): { pkg: string; name: string } {
  const parts = openApiName.split('.');
  return { pkg: parts.at(-2) ?? '', name: parts.at(-1) ?? openApiName };
}

/** The Go type a table field type decodes into: `[]v1.Container`, `map[string]string`. */
export function goTypeOfField(type: ApiFieldType): string {
  if (type.startsWith('[]')) return `[]${goTypeOfField(type.slice(2))}`;
  if (type.startsWith('{}')) return `map[string]${goTypeOfField(type.slice(2))}`;
  const primitive = PRIMITIVES[type];
  if (primitive) return primitive.goType!;
  const special = SPECIAL_TYPES[type];
  if (special) return special.goType!;
  const { pkg, name } = goTypeName(type);
  return `${pkg}.${name}`;
}

/**
 * A table field type as a schema: primitives inline, lists and maps around their element, names
 * by `$ref`. `goType` is the Go type when it is not the one the table's type implies (a named
 * type); a list or an unnamed map passes its element's on.
 */
function fieldSchema(type: ApiFieldType, goType?: string): SchemaRef {
  if (type.startsWith('[]')) {
    const item = goType?.startsWith('[]') ? goType.slice(2).replace(/^\*/, '') : undefined;
    return { type: 'array', items: fieldSchema(type.slice(2), item), goType: goType ?? goTypeOfField(type) };
  }
  if (type.startsWith('{}')) {
    const value = goType?.startsWith('map[') ? mapValueType(goType) : undefined;
    return {
      type: 'object',
      additionalProperties: fieldSchema(type.slice(2), value),
      goType: goType ?? goTypeOfField(type),
    };
  }
  const primitive = PRIMITIVES[type];
  if (primitive) return goType ? { ...primitive, goType } : primitive;
  return { $ref: type };
}

/** The value type of a Go map type: `map[v1.ResourceName]v1.ClaimResourceStatus` → `v1.ClaimResourceStatus`. */
function mapValueType(goType: string): string {
  let depth = 0;
  for (let i = 'map'.length; i < goType.length; i++) {
    if (goType[i] === '[') depth++;
    else if (goType[i] === ']' && --depth === 0) return goType.slice(i + 1).replace(/^\*/, '');
  }
  return goType;
}

function typeSchema(name: string, t: ApiType): Schema {
  const special = SPECIAL_TYPES[name];
  if (special) return special;
  if ('scalar' in t) {
    switch (t.scalar) {
      case 'object':
      case 'json':
      // FieldsV1, RawExtension and apiextensions' JSON keep any JSON (their UnmarshalJSON stores
      // the raw bytes).
      case 'schema-or-bool':
      case 'schema-or-array':
      case 'schema-or-string-array':
        // JSONSchemaPropsOrBool/OrArray/OrStringArray decode the schema inside with a fresh,
        // non-strict json.Unmarshal (apiextensions/v1 marshal.go `UnmarshalJSON`, over
        // k8s.io/apimachinery/pkg/util/json): kube-apiserver's strict decoder never sees the
        // fields under `items`, `additionalProperties`, `additionalItems` or `dependencies`, so
        // unknown ones there are dropped without a warning, and are not checked here either.
        // Not yet ported: the type errors its decoding gives ("boolean or JSON schema expected",
        // a wrongly typed field inside).
        return { type: 'any', goType: `${goTypeName(name).pkg}.${goTypeName(name).name}` };
      default:
        return { type: 'string', goType: 'string' };
    }
  }
  const properties: Record<string, SchemaRef> = {};
  const goTypes = GO_FIELD_TYPES[name];
  for (const [field, type] of Object.entries(t.fields))
    properties[field] = fieldSchema(type, goTypes?.[field]);
  const { pkg, name: goName } = goTypeName(name);
  const embeddedIn = GO_EMBEDDED_IN[name];
  return {
    type: 'object',
    properties,
    goName,
    goType: `${pkg}.${goName}`,
    ...(embeddedIn && { embeddedIn }),
  };
}

/** The schemas of the generated type table, each built once, when first resolved. */
export class BuiltinSchemas implements SchemaSource {
  private readonly cache = new Map<string, Schema>();

  /** True when the table has a type of this OpenAPI name. */
  has(name: string): boolean {
    return API_TYPES[name] !== undefined;
  }

  resolve(name: string): Schema {
    let schema = this.cache.get(name);
    if (!schema) {
      const t = API_TYPES[name];
      if (!t) throw new Error(`schema: no generated API type ${name}`);
      schema = typeSchema(name, t);
      this.cache.set(name, schema);
    }
    return schema;
  }
}
