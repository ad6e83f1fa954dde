/**
 * `components.schemas` of the OpenAPI v3 group documents: the schemas kubectl 1.29+ reads to
 * compute `apply`'s strategic merge patch (`PatchMetaFromOpenAPIV3`). Without them kubectl
 * warns `error calculating patch from openapi v3 spec: OpenAPI V3 Components is nil` on every
 * configure and falls back to its compiled-in types.
 *
 * kubectl looks for the component whose `x-kubernetes-group-version-kind` names the applied
 * kind, then walks it field by field: `properties`, array `items`, `$ref`s into the same
 * document (`#/components/schemas/io.k8s...`, first `allOf` entry) and, on each property,
 * `x-kubernetes-patch-merge-key` and `x-kubernetes-patch-strategy`. A map or list field missing
 * from the schema fails the whole calculation, so the structure comes from the full Kubernetes
 * types ({@link API_TYPES}, generated from Kubernetes' published OpenAPI), while the patch metadata comes
 * from the very table the server applies strategic merge patches with (`fieldStrategyFor`), so
 * the patch kubectl computes is the one the server understands.
 *
 * The upstream descriptions (openapi-descriptions.generated.ts) go on each type and property when
 * given: `kubectl explain` shows them.
 *
 * Integer and byte fields carry upstream's `format` (`int32`, `int64`, `byte`), as kube-apiserver
 * publishes them. Left out, as kubectl needs none of it: defaults,
 * `x-kubernetes-list-type`/`-map-keys`, and the List/Status/options schemas.
 */

import { type FieldPatchStrategy, fieldStrategyFor } from '../../protocol/patch/strategic.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ApiDescriptionTable, ApiFieldType, ApiType } from './openapi-model.js';
import { API_TYPES } from './openapi-types.generated.js';

/** An OpenAPI v3 schema object, as far as these documents use it. */
export interface OpenApiSchema {
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  $ref?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; kind: string; version: string }[];
}

const REF_PREFIX = '#/components/schemas/';
/** The table's primitive field types, each with its OpenAPI type and format. */
const PRIMITIVES: ReadonlyMap<string, OpenApiSchema> = new Map<string, OpenApiSchema>([
  ['string', { type: 'string' }],
  ['boolean', { type: 'boolean' }],
  ['int32', { type: 'integer', format: 'int32' }],
  ['int64', { type: 'integer', format: 'int64' }],
  ['number', { type: 'number', format: 'double' }],
  ['bytes', { type: 'string', format: 'byte' }],
]);

/**
 * The built-in groups whose Go API packages live outside k8s.io/api, by OpenAPI name prefix
 * (kube-apiserver names a type after its Go package, apiserver endpoints/openapi DefinitionNamer).
 */
const GROUP_PACKAGES: Readonly<Record<string, string>> = {
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
};

/**
 * The OpenAPI name of a kind's schema: `io.k8s.api.apps.v1.Deployment`, `io.k8s.api.core.v1.Pod`;
 * for a custom resource the reversed group, `com.example.v1.Widget`, as apiextensions-apiserver's
 * builder.go `gvkToModelName` names it.
 */
export function schemaNameOf(k: Pick<ResourceKind, 'group' | 'version' | 'kind' | 'custom'>): string {
  if (k.custom) return `${k.group.split('.').reverse().join('.')}.${k.version}.${k.kind}`;
  const pkg = GROUP_PACKAGES[k.group];
  if (pkg) return `${pkg}.${k.version}.${k.kind}`;
  // API packages are named after the group's first label: coordination.k8s.io → coordination.
  return `io.k8s.api.${k.group ? k.group.split('.')[0] : 'core'}.${k.version}.${k.kind}`;
}

/** The autoscaling/v1 Scale every `/scale` subresource reads and writes. */
const SCALE = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/**
 * The `components.schemas` of the group-version document holding `kinds` (already filtered to
 * one group-version): each kind's schema tagged with its GVK, autoscaling/v1 Scale when some
 * kind has `/scale`, and every type they reach, by name. Kinds without a generated type are
 * left out: kubectl then quietly uses its compiled-in types for them.
 */
export function componentSchemas(
  kinds: readonly ResourceKind[],
  descriptions?: ApiDescriptionTable,
): Record<string, OpenApiSchema> {
  const roots = kinds.filter((k) => API_TYPES[schemaNameOf(k)]);
  const tops = new Map(
    roots.map((k) => [schemaNameOf(k), k as Pick<ResourceKind, 'group' | 'version' | 'kind'>]),
  );
  if (kinds.some((k) => k.subresources.includes('scale'))) tops.set(schemaNameOf(SCALE), SCALE);

  const patchMeta = new PatchMetadata();
  for (const k of roots) patchMeta.collect(k.kind, schemaNameOf(k));

  const names = new Set<string>();
  for (const name of tops.keys()) reach(name, names);
  const schemas: Record<string, OpenApiSchema> = {};
  for (const name of [...names].sort()) {
    const schema = typeSchema(name, patchMeta, descriptions);
    const top = tops.get(name);
    if (top) {
      schema['x-kubernetes-group-version-kind'] = [
        { group: top.group, kind: top.kind, version: top.version },
      ];
    }
    schemas[name] = schema;
  }
  return schemas;
}

/**
 * The schemas of the named table types `roots` and every type they reach, by name, with the
 * patch extensions any kind's ObjectMeta carries (`metadata` rules are the same for every kind,
 * strategic-rules.ts): the meta types a custom resource's document refers to.
 */
export function namedTypeSchemas(
  roots: readonly string[],
  descriptions?: ApiDescriptionTable,
): Record<string, OpenApiSchema> {
  const patchMeta = new PatchMetadata();
  patchMeta.collect('ConfigMap', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', ['metadata']);
  const names = new Set<string>();
  for (const name of roots) reach(name, names);
  const schemas: Record<string, OpenApiSchema> = {};
  for (const name of [...names].sort()) schemas[name] = typeSchema(name, patchMeta, descriptions);
  return schemas;
}

function apiType(name: string): ApiType {
  const t = API_TYPES[name];
  if (!t) throw new Error(`OpenAPI: no generated API type ${name}`);
  return t;
}

/** The named type a field type ends in (through lists and maps), if any. */
function namedTypeOf(field: ApiFieldType): string | undefined {
  const inner = field.replace(/^(\[\]|\{\})+/, '');
  return PRIMITIVES.has(inner) ? undefined : inner;
}

/** Adds `name` and every type it reaches to `into`. */
function reach(name: string, into: Set<string>): void {
  if (into.has(name)) return;
  into.add(name);
  const t = apiType(name);
  if (!('fields' in t)) return;
  for (const field of Object.values(t.fields)) {
    const named = namedTypeOf(field);
    if (named) reach(named, into);
  }
}

function typeSchema(
  name: string,
  patchMeta: PatchMetadata,
  descriptions?: ApiDescriptionTable,
): OpenApiSchema {
  const t = apiType(name);
  const texts = descriptions?.types[name];
  const text = (field: string) => {
    const i = texts?.[field];
    return i === undefined ? undefined : descriptions?.texts[i];
  };
  const typeDescription = text('');
  const extras = descriptions?.extras?.[name];
  if ('scalar' in t) {
    const schema: OpenApiSchema = scalarSchema(t.scalar);
    if (extras?.top) return { ...(extras.top as OpenApiSchema) };
    return typeDescription ? { description: typeDescription, ...schema } : schema;
  }
  const properties: Record<string, OpenApiSchema> = {};
  for (const [field, type] of Object.entries(t.fields)) {
    const schema = fieldSchema(type);
    const strategy = patchMeta.get(name, field);
    const description = text(field);
    const annotations: OpenApiSchema = {
      ...(description ? { description } : {}),
      ...(strategy ? extensions(strategy) : {}),
    };
    if (Object.keys(annotations).length === 0) {
      properties[field] = schema;
    } else {
      // OpenAPI 3.0 ignores siblings of a $ref, so a ref with a description or extensions goes
      // in allOf, as upstream.
      properties[field] = schema.$ref ? { allOf: [schema], ...annotations } : { ...schema, ...annotations };
    }
    const served = extras?.properties?.[field];
    if (served) properties[field] = withServedKeys(properties[field], served);
  }
  if (extras?.top) return { ...(extras.top as OpenApiSchema), properties };
  const schema: OpenApiSchema = {
    ...(typeDescription ? { description: typeDescription } : {}),
    type: 'object',
    properties,
  };
  if (t.required?.length) schema.required = [...t.required];
  return schema;
}

/** `schema` with the reference's keys where they differ (null: the reference leaves the key out). */
function withServedKeys(schema: OpenApiSchema, served: Readonly<Record<string, unknown>>): OpenApiSchema {
  const out: Record<string, unknown> = { ...schema };
  for (const [key, value] of Object.entries(served)) {
    if (value === null) delete out[key];
    else out[key] = structuredClone(value);
  }
  return out as OpenApiSchema;
}

function scalarSchema(scalar: Extract<ApiType, { scalar: string }>['scalar']): OpenApiSchema {
  switch (scalar) {
    case 'date-time':
      return { type: 'string', format: 'date-time' };
    case 'int-or-string':
      return { type: 'string', format: 'int-or-string' };
    case 'json':
    case 'schema-or-bool':
    case 'schema-or-array':
    case 'schema-or-string-array':
      // Their OpenAPISchemaType is nil (apiextensions/v1 types_jsonschema.go): published untyped.
      return {};
    default:
      return { type: scalar };
  }
}

function fieldSchema(type: ApiFieldType): OpenApiSchema {
  if (type.startsWith('[]')) return { type: 'array', items: fieldSchema(type.slice(2)) };
  if (type.startsWith('{}')) return { type: 'object', additionalProperties: fieldSchema(type.slice(2)) };
  const primitive = PRIMITIVES.get(type);
  if (primitive) return { ...primitive };
  return { $ref: `${REF_PREFIX}${type}` };
}

/** `patchStrategy`/`patchMergeKey` struct tags as the OpenAPI extensions carry them. */
function extensions(s: FieldPatchStrategy): OpenApiSchema {
  const strategies = [...(s.merge ? ['merge'] : []), ...(s.retainKeys ? ['retainKeys'] : [])];
  const ext: OpenApiSchema = {};
  if (s.mergeKey) ext['x-kubernetes-patch-merge-key'] = s.mergeKey;
  if (strategies.length) ext['x-kubernetes-patch-strategy'] = strategies.join(',');
  return ext;
}

/**
 * The patch strategies of fields, moved from the server's per-kind path table onto the types
 * that hold the fields (PodSpec.containers, wherever a PodSpec appears). A type reached by
 * several paths takes a strategy any of them has; two different strategies for the same field
 * are a bug in the table, and fail loudly.
 */
class PatchMetadata {
  private readonly byField = new Map<string, FieldPatchStrategy>();

  get(typeName: string, field: string): FieldPatchStrategy | undefined {
    return this.byField.get(`${typeName}\u0000${field}`);
  }

  /**
   * Walks `kind`'s schema from `typeName` (its root type, or a type at `path` in it), list
   * elements transparent, as the table's paths are. A type already on the walk's path is not
   * entered again: JSONSchemaProps holds itself, and the table has no paths through recursion.
   */
  collect(kind: string, typeName: string, path: string[] = []): void {
    const onPath = new Set<string>();
    const walk = (name: string, at: string[]) => {
      const t = apiType(name);
      if (!('fields' in t) || onPath.has(name)) return;
      onPath.add(name);
      for (const [field, type] of Object.entries(t.fields)) {
        const fieldPath = [...at, field];
        const strategy = fieldStrategyFor(kind, fieldPath);
        if (strategy) this.add(name, field, strategy, `${kind} ${fieldPath.join('.')}`);
        // Maps are keyed by data, not field names, so the table has no paths through them.
        const element = type.replace(/^(\[\])+/, '');
        if (!element.startsWith('{}') && !PRIMITIVES.has(element)) walk(element, fieldPath);
      }
      onPath.delete(name);
    };
    walk(typeName, path);
  }

  private add(typeName: string, field: string, strategy: FieldPatchStrategy, where: string): void {
    const key = `${typeName}\u0000${field}`;
    const known = this.byField.get(key);
    if (known && JSON.stringify(known) !== JSON.stringify(strategy)) {
      throw new Error(
        `OpenAPI: ${typeName}.${field} has two patch strategies (${JSON.stringify(known)} and, at ${where}, ${JSON.stringify(strategy)})`,
      );
    }
    this.byField.set(key, strategy);
  }
}
