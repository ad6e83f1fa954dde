/**
 * The merge schema of the built-in types: API_TYPES (their fields) and BUILTIN_MERGE (the
 * extensions Kubernetes' OpenAPI puts on them) turned into {@link MergeNode}s the way
 * kube-apiserver's type converter turns its OpenAPI into a structured-merge-diff schema
 * (k8s.io/apimachinery pkg/util/managedfields `NewTypeConverter` over kube-openapi
 * pkg/schemaconv/openapi.go `ToSchemaFromOpenAPI`).
 */
import type { ResourceKind } from '../kinds/types.js';
import type { ApiFieldType } from '../openapi/openapi-model.js';
import { schemaNameOf } from '../openapi/openapi-schemas.js';
import { API_TYPES } from '../openapi/openapi-types.generated.js';
import { BUILTIN_MERGE, type FieldMergeFacts } from './builtin-merge.generated.js';
import { type ListNode, type MapNode, type MergeNode, SCALAR, UNTYPED } from './merge-schema.js';

/**
 * openapi.go `ToSchemaFromOpenAPI` hardcodes these two as untyped scalars (a leaf, whatever
 * their value), before looking at their schemas.
 */
const HARDCODED_SCALARS: ReadonlySet<string> = new Set([
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
]);

/** The API_TYPES primitives: openapi.go `convertPrimitive` makes every one a scalar. */
const PRIMITIVES: ReadonlySet<string> = new Set(['string', 'boolean', 'int32', 'int64', 'number', 'bytes']);

/**
 * smd.go `getListElementRelationship`: `x-kubernetes-list-type` first (`set` and `map` are
 * associative, `map` keyed by `x-kubernetes-list-map-keys`), then the strategic-merge-patch
 * `x-kubernetes-patch-strategy` (`merge` keyed by the patch merge key, or a set without one;
 * `retainKeys` atomic), and atomic when neither is there.
 */
export function listRelationship(f: FieldMergeFacts | undefined): Pick<ListNode, 'relationship' | 'keys'> {
  if (f?.listType !== undefined) {
    if (f.listType === 'map') return { relationship: 'associative', keys: f.listMapKeys ?? [] };
    if (f.listType === 'set') return { relationship: 'associative', keys: [] };
    return { relationship: 'atomic', keys: [] };
  }
  if (f?.patchStrategy === 'merge' || f?.patchStrategy === 'merge,retainKeys') {
    return { relationship: 'associative', keys: f.patchMergeKey ? [f.patchMergeKey] : [] };
  }
  return { relationship: 'atomic', keys: [] };
}

/** smd.go `getMapElementRelationship`: `atomic` or granular (`separable`), granular by default. */
function mapRelationship(mapType: string | undefined): MapNode['relationship'] {
  return mapType === 'atomic' ? 'atomic' : 'separable';
}

/** A struct whose field nodes are built on first use, so recursive types (JSONSchemaProps) terminate. */
class StructNode implements MapNode {
  readonly kind = 'map';
  private readonly resolved = new Map<string, MergeNode>();

  constructor(
    private readonly typeName: string,
    private readonly fields: Readonly<Record<string, ApiFieldType>>,
    readonly relationship: MapNode['relationship'],
    /** openapi.go `parseObject`: an object without properties keeps any key as a deduced value. */
    readonly values: MergeNode | undefined,
  ) {}

  field(name: string): MergeNode | undefined {
    let node = this.resolved.get(name);
    if (node) return node;
    const type = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
    if (type === undefined) return undefined;
    node = fieldNode(type, BUILTIN_MERGE[this.typeName]?.fields?.[name]);
    this.resolved.set(name, node);
    return node;
  }
}

/**
 * A field's node from its API_TYPES type and the facts on its property: a list's facts make its
 * relationship, a map's `x-kubernetes-map-type` its relationship, and on a reference to a named
 * struct the property's `x-kubernetes-map-type` overrides the type's own (openapi.go
 * `makeOpenAPIRef`, the TypeRef `ElementRelationship`).
 */
function fieldNode(type: ApiFieldType, facts: FieldMergeFacts | undefined): MergeNode {
  if (type.startsWith('[]')) {
    const list: ListNode = { kind: 'list', ...listRelationship(facts), items: typeNode(type.slice(2)) };
    // openapi.go `parseObject` keeps each property's `default` as smd's `StructField.Default`;
    // typed/helpers.go `getAssociativeKeyDefault` reads the key fields' to key an item that omits
    // one. The table holds them for exactly the keys listRelationship gives.
    return facts?.keyDefaults && list.keys.length > 0 ? { ...list, keyDefaults: facts.keyDefaults } : list;
  }
  if (type.startsWith('{}')) {
    const values = typeNode(type.slice(2));
    return { kind: 'map', relationship: mapRelationship(facts?.mapType), values, field: () => undefined };
  }
  const node = typeNode(type);
  if (facts?.mapType !== undefined && node.kind === 'map') {
    const relationship = mapRelationship(facts.mapType);
    if (relationship !== node.relationship) return withRelationship(node, relationship);
  }
  return node;
}

function withRelationship(node: MapNode, relationship: MapNode['relationship']): MapNode {
  return { kind: 'map', relationship, values: node.values, field: (name) => node.field(name) };
}

/** The node of a type expression inside a list or map (no facts of its own: the spec has none there). */
function typeNode(type: ApiFieldType): MergeNode {
  if (type.startsWith('[]'))
    return { kind: 'list', relationship: 'atomic', keys: [], items: typeNode(type.slice(2)) };
  if (type.startsWith('{}')) {
    return {
      kind: 'map',
      relationship: 'separable',
      values: typeNode(type.slice(2)),
      field: () => undefined,
    };
  }
  if (PRIMITIVES.has(type)) return SCALAR;
  return builtinMergeNode(type);
}

const byName = new Map<string, MergeNode>();

/**
 * The merge node of a built-in type by its OpenAPI name (`io.k8s.api.core.v1.PodSpec`),
 * memoised. Throws for a name API_TYPES does not have.
 */
export function builtinMergeNode(typeName: string): MergeNode {
  const cached = byName.get(typeName);
  if (cached) return cached;
  const node = buildNode(typeName);
  byName.set(typeName, node);
  return node;
}

function buildNode(typeName: string): MergeNode {
  if (HARDCODED_SCALARS.has(typeName)) return SCALAR;
  const type = API_TYPES[typeName];
  if (!type) throw new Error(`no built-in type ${typeName}`);
  const facts = BUILTIN_MERGE[typeName];
  // openapi.go `parseSchema`: a schema with no `type` is untyped (scalar, list and map at once:
  // smd's deduced type); IntOrString and apiextensions' JSON and its unions are such schemas.
  if (facts?.untyped) return UNTYPED;
  if ('fields' in type) {
    const values = Object.keys(type.fields).length === 0 ? UNTYPED : undefined;
    return new StructNode(typeName, type.fields, mapRelationship(facts?.mapType), values);
  }
  // A free-form object (FieldsV1: `type: object`, nothing else) keeps every key as deduced.
  if (type.scalar === 'object') {
    return {
      kind: 'map',
      relationship: mapRelationship(facts?.mapType),
      values: UNTYPED,
      field: () => undefined,
    };
  }
  // `string` (with any format: date-time) is a scalar (convertPrimitive).
  return SCALAR;
}

/**
 * The merge node of a built-in kind's objects, by its OpenAPI type (`schemaNameOf`), the
 * CustomResourceDefinition kind included. A custom kind's comes from its schema instead
 * (custom-schema.ts `customMergeNodeOfKind`, which imports this file, hence not dispatched here).
 */
export function mergeNodeOfKind(kind: ResourceKind): MergeNode {
  if (kind.custom) throw new Error(`${kind.kind} is a custom kind: use customMergeNodeOfKind`);
  return builtinMergeNode(schemaNameOf(kind));
}
