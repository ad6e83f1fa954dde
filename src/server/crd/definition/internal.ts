/**
 * The CRD as kube-apiserver validates it: the internal `apiextensions` form,
 * not the v1 wire form. Two things of that conversion show in the errors a
 * client sees, so validation must reproduce them:
 *
 * - `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec`
 *   (pkg/apis/apiextensions/v1/conversion.go) moves per-version schema,
 *   subresources, printer columns and selectable fields to the top level when
 *   every version has the same value. A one-version CRD's schema is therefore
 *   reported at `spec.validation.openAPIV3Schema...`, not `spec.versions[0].schema...`.
 * - apimachinery's `field.Error.ErrorBody` prints a non-scalar bad value with
 *   `json.Marshal`; the internal structs carry no json tags, so the value reads
 *   `[{"Name":"v1","Served":true,...}]` with Go's field names and order.
 */
import { arr, isObject, type JsonObject, rec, sameJson, str } from '../../kinds/access.js';
import { GoRendered, goJsonMarshal as goJson } from '../../kinds/field-value.js';

/** A Go struct marshalled without json tags: every field, in declaration order. */
function goStruct(fields: Array<[string, string]>): string {
  return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

const jstr = (v: unknown): string => goJson(str(v));
const jbool = (v: unknown): string => (v === true ? 'true' : 'false');
/** A Go pointer or interface field: `null` when absent. */
const jptr = (v: unknown): string => (v === undefined || v === null ? 'null' : goJson(v));
/** A Go slice or map field: `null` when absent or empty-and-absent. */
const jlist = (v: unknown, each: (x: unknown) => string): string =>
  Array.isArray(v) ? `[${v.map(each).join(',')}]` : 'null';
const jmap = (v: unknown, each: (x: unknown) => string): string =>
  isObject(v)
    ? `{${Object.keys(v)
        .sort()
        .map((k) => `${goJson(k)}:${each(v[k])}`)
        .join(',')}}`
    : 'null';

/** `apiextensions.JSONSchemaProps` (types_jsonschema.go), field for field. */
export function goSchemaProps(s: unknown): string {
  const o = rec(s);
  const orBool = (v: unknown): string =>
    v === undefined || v === null
      ? 'null'
      : goStruct([
          ['Allows', jbool(v === true || isObject(v))],
          ['Schema', isObject(v) ? goSchemaProps(v) : 'null'],
        ]);
  const items = o.items;
  return goStruct([
    ['ID', jstr(o.id)],
    ['Schema', jstr(o.$schema)],
    ['Ref', jptr(o.$ref)],
    ['Description', jstr(o.description)],
    ['Type', jstr(o.type)],
    ['Nullable', jbool(o.nullable)],
    ['Format', jstr(o.format)],
    ['Title', jstr(o.title)],
    ['Default', jptr(o.default)],
    ['Maximum', jptr(o.maximum)],
    ['ExclusiveMaximum', jbool(o.exclusiveMaximum)],
    ['Minimum', jptr(o.minimum)],
    ['ExclusiveMinimum', jbool(o.exclusiveMinimum)],
    ['MaxLength', jptr(o.maxLength)],
    ['MinLength', jptr(o.minLength)],
    ['Pattern', jstr(o.pattern)],
    ['MaxItems', jptr(o.maxItems)],
    ['MinItems', jptr(o.minItems)],
    ['UniqueItems', jbool(o.uniqueItems)],
    ['MultipleOf', jptr(o.multipleOf)],
    ['Enum', jlist(o.enum, goJson)],
    ['MaxProperties', jptr(o.maxProperties)],
    ['MinProperties', jptr(o.minProperties)],
    ['Required', jlist(o.required, goJson)],
    [
      'Items',
      items === undefined || items === null
        ? 'null'
        : goStruct([
            ['Schema', isObject(items) ? goSchemaProps(items) : 'null'],
            ['JSONSchemas', Array.isArray(items) ? jlist(items, goSchemaProps) : 'null'],
          ]),
    ],
    ['AllOf', jlist(o.allOf, goSchemaProps)],
    ['OneOf', jlist(o.oneOf, goSchemaProps)],
    ['AnyOf', jlist(o.anyOf, goSchemaProps)],
    ['Not', isObject(o.not) ? goSchemaProps(o.not) : 'null'],
    ['Properties', jmap(o.properties, goSchemaProps)],
    ['AdditionalProperties', orBool(o.additionalProperties)],
    ['PatternProperties', jmap(o.patternProperties, goSchemaProps)],
    [
      'Dependencies',
      jmap(o.dependencies, (d) =>
        goStruct([
          ['Schema', isObject(d) ? goSchemaProps(d) : 'null'],
          ['Property', Array.isArray(d) ? jlist(d, goJson) : 'null'],
        ]),
      ),
    ],
    ['AdditionalItems', orBool(o.additionalItems)],
    ['Definitions', jmap(o.definitions, goSchemaProps)],
    [
      'ExternalDocs',
      isObject(o.externalDocs)
        ? goStruct([
            ['Description', jstr(o.externalDocs.description)],
            ['URL', jstr(o.externalDocs.url)],
          ])
        : 'null',
    ],
    ['Example', jptr(o.example)],
    ['XPreserveUnknownFields', jptr(o['x-kubernetes-preserve-unknown-fields'])],
    ['XEmbeddedResource', jbool(o['x-kubernetes-embedded-resource'])],
    ['XIntOrString', jbool(o['x-kubernetes-int-or-string'])],
    ['XListMapKeys', jlist(o['x-kubernetes-list-map-keys'], goJson)],
    ['XListType', jptr(o['x-kubernetes-list-type'])],
    ['XMapType', jptr(o['x-kubernetes-map-type'])],
    [
      'XValidations',
      jlist(o['x-kubernetes-validations'], (r) => {
        const v = rec(r);
        return goStruct([
          ['Rule', jstr(v.rule)],
          ['Message', jstr(v.message)],
          ['MessageExpression', jstr(v.messageExpression)],
          ['Reason', jptr(v.reason)],
          ['FieldPath', jstr(v.fieldPath)],
          ['OptionalOldSelf', jptr(v.optionalOldSelf)],
        ]);
      }),
    ],
  ]);
}

function goValidation(v: unknown): string {
  return isObject(v)
    ? goStruct([['OpenAPIV3Schema', isObject(v.openAPIV3Schema) ? goSchemaProps(v.openAPIV3Schema) : 'null']])
    : 'null';
}

function goSubresources(v: unknown): string {
  if (!isObject(v)) return 'null';
  const scale = v.scale;
  return goStruct([
    ['Status', isObject(v.status) ? '{}' : 'null'],
    [
      'Scale',
      isObject(scale)
        ? goStruct([
            ['SpecReplicasPath', jstr(scale.specReplicasPath)],
            ['StatusReplicasPath', jstr(scale.statusReplicasPath)],
            ['LabelSelectorPath', jptr(scale.labelSelectorPath)],
          ])
        : 'null',
    ],
  ]);
}

function goColumn(c: unknown): string {
  const o = rec(c);
  return goStruct([
    ['Name', jstr(o.name)],
    ['Type', jstr(o.type)],
    ['Format', jstr(o.format)],
    ['Description', jstr(o.description)],
    ['Priority', typeof o.priority === 'number' ? String(o.priority) : '0'],
    ['JSONPath', jstr(o.jsonPath)],
  ]);
}

/**
 * `[]apiextensions.CustomResourceDefinitionVersion` as `ErrorBody` prints it
 * (the internal, hoisted form); `null` for a nil slice (no `versions` sent).
 */
export function goVersions(versions: readonly InternalVersion[] | undefined): GoRendered {
  if (versions === undefined) return new GoRendered('null');
  const one = (v: InternalVersion): string =>
    goStruct([
      ['Name', jstr(v.name)],
      ['Served', jbool(v.served)],
      ['Storage', jbool(v.storage)],
      ['Deprecated', jbool(v.deprecated)],
      ['DeprecationWarning', jptr(v.deprecationWarning)],
      ['Schema', goValidation(v.schema)],
      ['Subresources', goSubresources(v.subresources)],
      ['AdditionalPrinterColumns', jlist(v.additionalPrinterColumns, goColumn)],
      ['SelectableFields', jlist(v.selectableFields, (f) => goStruct([['JSONPath', jstr(rec(f).jsonPath)]]))],
    ]);
  return new GoRendered(`[${versions.map(one).join(',')}]`);
}

/** One entry of the internal `spec.versions` (per-version fields undefined once hoisted). */
export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: unknown;
  schema?: JsonObject;
  subresources?: JsonObject;
  additionalPrinterColumns?: unknown[];
  selectableFields?: unknown[];
}

/** The internal spec: the v1 spec with identical per-version fields moved to the top. */
export interface InternalSpec {
  group: string;
  names: JsonObject;
  scope: string;
  /** `spec.validation`: the hoisted schema wrapper (`{openAPIV3Schema}`). */
  validation?: JsonObject;
  subresources?: JsonObject;
  versions: InternalVersion[];
  /** False when the request had no `versions` list (Go's nil slice, printed `null`). */
  versionsSent: boolean;
  additionalPrinterColumns?: unknown[];
  selectableFields?: unknown[];
  conversion?: JsonObject;
  preserveUnknownFields?: unknown;
}

/** A Go slice field: an empty list is as absent as a missing one (`Semantic.DeepEqual` treats them alike). */
const slice = (v: unknown): unknown[] | undefined => (Array.isArray(v) && v.length > 0 ? v : undefined);
const pointer = (v: unknown): JsonObject | undefined => (isObject(v) ? v : undefined);

/** The internal form of a v1 spec (conversion.go's hoisting, described at the top of this file). */
export function toInternalSpec(specIn: unknown): InternalSpec {
  const spec = rec(specIn);
  const versions: InternalVersion[] = arr(spec.versions).map((raw) => {
    const v = rec(raw);
    return {
      name: str(v.name),
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: v.deprecationWarning,
      schema: pointer(v.schema),
      subresources: pointer(v.subresources),
      additionalPrinterColumns: slice(v.additionalPrinterColumns),
      selectableFields: slice(v.selectableFields),
    };
  });
  const out: InternalSpec = {
    group: str(spec.group),
    names: rec(spec.names),
    scope: str(spec.scope),
    versions,
    versionsSent: Array.isArray(spec.versions),
    conversion: pointer(spec.conversion),
    preserveUnknownFields: spec.preserveUnknownFields,
  };
  if (versions.length === 0) return out;
  const identical = <K extends keyof InternalVersion>(key: K): boolean =>
    versions.every((v) => sameJson(v[key], versions[0][key]));
  const hoist = {
    subresources: identical('subresources'),
    schema: identical('schema'),
    additionalPrinterColumns: identical('additionalPrinterColumns'),
    selectableFields: identical('selectableFields'),
  };
  if (hoist.subresources) out.subresources = versions[0].subresources;
  if (hoist.schema) out.validation = versions[0].schema;
  if (hoist.additionalPrinterColumns) out.additionalPrinterColumns = versions[0].additionalPrinterColumns;
  if (hoist.selectableFields) out.selectableFields = versions[0].selectableFields;
  for (const v of versions) {
    if (hoist.subresources) v.subresources = undefined;
    if (hoist.schema) v.schema = undefined;
    if (hoist.additionalPrinterColumns) v.additionalPrinterColumns = undefined;
    if (hoist.selectableFields) v.selectableFields = undefined;
  }
  return out;
}
