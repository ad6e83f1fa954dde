/**
 * The merge schema of a custom resource version, from its compiled structural schema, as
 * apiextensions-apiserver builds it: pkg/apiserver/customresource_handler.go
 * `getOrCreateServingInfoFor` publishes the version's OpenAPI v3 (pkg/controller/openapi/builder
 * `BuildOpenAPIV3` over `buildKubeNative`: the structural schema's `ToKubeOpenAPI`, a root
 * `metadata` that is ObjectMeta, `apiVersion` and `kind`, and the same three on every
 * `x-kubernetes-embedded-resource`) and hands it to managedfields `NewTypeConverter`, which
 * converts it with kube-openapi pkg/schemaconv/openapi.go `ToSchemaFromOpenAPI`. The rules
 * below are that converter's, each cited where applied.
 */
import { compileStructural, type Structural } from '../crd/schema/structural.js';
import type { ResourceKind } from '../kinds/types.js';
import { builtinMergeNode, listRelationship } from './builtin-schema.js';
import type { ListNode, MapNode, MergeNode } from './merge-schema.js';
import { SCALAR, UNTYPED } from './merge-schema.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** A struct or map of a custom schema, its field nodes built up front (custom schemas are trees). */
class CustomMapNode implements MapNode {
  readonly kind = 'map';
  constructor(
    private readonly fields: ReadonlyMap<string, MergeNode>,
    readonly relationship: MapNode['relationship'],
    readonly values: MergeNode | undefined,
  ) {}

  field(name: string): MergeNode | undefined {
    return this.fields.get(name);
  }
}

/**
 * The merge node of a custom resource version's objects, from the version's structural schema
 * (crd/schema/structural.ts `compileStructural`): the root's `metadata` is ObjectMeta's node,
 * whatever the schema says of it, as the published OpenAPI replaces it with a reference.
 */
export function customMergeNode(structural: Structural): MergeNode {
  return convert(structural, false, true);
}

/**
 * `visitSpec` and `parseSchema`. `preserve` is the converter's `preserveUnknownFields`: set by
 * an `x-kubernetes-preserve-unknown-fields` node for itself and everything under it, never
 * cleared below (unlike pruning, which nested properties switch back on).
 */
function convert(s: Structural, inheritedPreserve: boolean, kubeNative: boolean): MergeNode {
  const preserve = inheritedPreserve || s.preserveUnknownFields;
  // ToKubeOpenAPI gives an int-or-string node no type; parseSchema reads the first type only.
  const type = s.intOrString ? '' : (s.types[0] ?? '');
  switch (type) {
    case 'object':
      return convertObject(s, preserve, kubeNative || s.embeddedResource);
    case 'array':
      // parseList: the list's relationship (getListElementRelationship; a structural schema has
      // no patch strategy, so atomic unless x-kubernetes-list-type says otherwise) and its items.
      // An array without items holds `__untyped_atomic_` values: each one a leaf.
      return convertList(s, preserve);
    case '':
      // No type (int-or-string, or a preserve-unknown-fields node that names none): untyped,
      // a scalar, list and map at once, which is smd's deduced type, unless it also names fields.
      return s.properties?.size || typeof s.additionalProperties === 'object'
        ? convertObject(s, preserve, kubeNative || s.embeddedResource)
        : UNTYPED;
    default:
      // convertPrimitive: integer, number, boolean and string (any format) are scalars.
      return SCALAR;
  }
}

/**
 * parseList, with the key defaults: parseObject keeps each property's `default` as smd's
 * `StructField.Default` (customresource_handler.go `buildOpenAPIModelsForApply` builds the type
 * converter's models with `BuildOpenAPIV3(crd, version, Options{})`, defaults kept), and typed/helpers.go
 * `getAssociativeKeyDefault` keys an item that omits a key field by that field's default. A
 * `default: null` is Go's nil there: no default.
 */
function convertList(s: Structural, preserve: boolean): ListNode {
  const list: ListNode = {
    kind: 'list',
    ...listRelationship({ listType: s.listType, listMapKeys: s.listMapKeys }),
    items: s.items ? convert(s.items, preserve, false) : SCALAR,
  };
  const keyDefaults: Record<string, unknown> = {};
  for (const key of list.keys) {
    const d = s.items?.properties?.get(key)?.default;
    if (d !== undefined && d.value !== null && d.value !== undefined) keyDefaults[key] = d.value;
  }
  return Object.keys(keyDefaults).length > 0 ? { ...list, keyDefaults } : list;
}

/**
 * parseObject: the properties as fields; other keys take the additionalProperties schema, or
 * are deduced (additionalProperties `true`, an object without properties or additionalProperties,
 * or anywhere under preserve-unknown-fields), or are not allowed. `kubeNative` adds what
 * builder.go `buildKubeNative` / `addEmbeddedProperties` set on the root and on embedded
 * resources: `apiVersion` and `kind` strings and `metadata` a reference to ObjectMeta.
 */
function convertObject(s: Structural, preserve: boolean, kubeNative: boolean): MergeNode {
  const fields = new Map<string, MergeNode>();
  for (const [name, prop] of s.properties ?? []) fields.set(name, convert(prop, preserve, false));
  if (kubeNative) {
    fields.set('apiVersion', SCALAR);
    fields.set('kind', SCALAR);
    fields.set('metadata', builtinMergeNode(OBJECT_META));
  }
  const additional = s.additionalProperties;
  let values: MergeNode | undefined;
  if (typeof additional === 'object') values = convert(additional, preserve, false);
  else if (additional === true) values = UNTYPED;
  else if (additional === undefined && (preserve || !s.properties?.size)) values = UNTYPED;
  // getMapElementRelationship: granular unless x-kubernetes-map-type is atomic.
  const relationship = s.mapType === 'atomic' ? 'atomic' : 'separable';
  // A granular map of deduced values naming no field is exactly smd's deduced type.
  if (fields.size === 0 && values === UNTYPED && relationship === 'separable') return UNTYPED;
  return new CustomMapNode(fields, relationship, values);
}

const ofKind = new WeakMap<ResourceKind, MergeNode>();

/**
 * The merge node of a custom kind's objects (a kind a CustomResourceDefinition version defines),
 * from the version's `openAPIV3Schema`, memoised per kind. A version without a schema publishes
 * a bare `type: object` (builder.go `buildKubeNative`): a map of deduced values.
 */
export function customMergeNodeOfKind(kind: ResourceKind): MergeNode {
  let node = ofKind.get(kind);
  if (!node) {
    const schema = kind.custom?.openAPIV3Schema;
    node = schema ? customMergeNode(compileStructural(schema)) : UNTYPED;
    ofKind.set(kind, node);
  }
  return node;
}
