/**
 * A CRD version's `openAPIV3Schema` compiled once into a {@link Structural} tree that the
 * validator (validate.ts), the pruner (prune.ts) and the defaulter
 * (default.ts) walk. The shape follows apiextensions-apiserver
 * pkg/apiserver/schema/structural.go `Structural` (items, properties, additionalProperties,
 * the Generic/Extensions parts) plus the value validations kube-openapi checks
 * (`ValueValidation`, including allOf/anyOf/oneOf/not, which in a structural schema may only
 * restrict values, never declare types: structural.go `ValueValidation`, `NestedValueValidation`).
 *
 * Compiling does not check that the schema is structural (that is the CRD definition's job,
 * pkg/apiserver/schema/validation.go `ValidateStructural`); it reads any schema tolerantly.
 * Formats kube-apiserver does not support are dropped here, as
 * pkg/apiserver/validation/formats.go `StripUnsupportedFormatsPostProcessorForVersion` does
 * before kube-openapi ever sees the schema.
 */
import { compileRe2 } from './re2.js';

/** JSONSchemaProps as apiextensions.k8s.io/v1 carries it, with the `x-kubernetes-*` extensions. */
export interface CrdSchemaProps {
  type?: string;
  format?: string;
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  properties?: Record<string, CrdSchemaProps>;
  additionalProperties?: CrdSchemaProps | boolean;
  items?: CrdSchemaProps | CrdSchemaProps[];
  allOf?: CrdSchemaProps[];
  anyOf?: CrdSchemaProps[];
  oneOf?: CrdSchemaProps[];
  not?: CrdSchemaProps;
  description?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: unknown[];
}

/** One compiled schema node. */
export interface Structural {
  /** The JSON types a value may have: `["integer","string"]` for `x-kubernetes-int-or-string`. */
  types: string[];
  nullable: boolean;
  /** The format kube-openapi checks, or undefined when kube-apiserver strips it. */
  format?: string;
  /** Present when the schema has a `default` (which may itself be null). */
  default?: { value: unknown };
  enum?: unknown[];
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: CompiledPattern;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  maxProperties?: number;
  minProperties?: number;
  required: string[];
  properties?: Map<string, Structural>;
  /** A schema for other keys, `true` (any value) or `false` (none); undefined when absent. */
  additionalProperties?: Structural | boolean;
  items?: Structural;
  allOf: Structural[];
  anyOf: Structural[];
  oneOf: Structural[];
  not?: Structural;
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listType?: string;
  listMapKeys: string[];
  /** `x-kubernetes-map-type` (`granular` or `atomic`), read by server-side apply's merge schema. */
  mapType?: string;
  /**
   * The CEL rules (`x-kubernetes-validations`), kept for a CEL evaluator to run; nothing here
   * evaluates them (pkg/apiserver/schema/cel/validation.go `Validator.Validate` is not ported).
   */
  celRules: unknown[];
}

/** A `pattern` compiled for JavaScript, or the reason it could not be. */
export type CompiledPattern = { source: string; regexp: RegExp } | { source: string; error: string };

/**
 * The string formats kube-apiserver validates for custom resources, normalized without `-` as
 * formats.go `newFormatsAtVersion` stores them (`supportedVersionedFormats`: the 1.0 set and
 * 1.34's k8s-short-name, k8s-long-name, which the default compatibility version includes).
 */
export const SUPPORTED_STRING_FORMATS: ReadonlySet<string> = new Set([
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
  'k8sshortname',
  'k8slongname',
]);

/** formats.go `StripUnsupportedFormatsPostProcessorForVersion`: the format kept, or undefined. */
function keptFormat(type: string | undefined, format: string | undefined): string | undefined {
  if (!format) return undefined;
  switch (type ?? '') {
    case '':
    case 'string':
      return SUPPORTED_STRING_FORMATS.has(format.replaceAll('-', '')) ? format : undefined;
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : undefined;
    case 'number':
      return format === 'float' || format === 'double' ? format : undefined;
    default:
      return undefined;
  }
}

/** values.go `Pattern`: Go's `regexp.Compile`, here as a JavaScript RegExp (re2.ts). */
function compilePattern(source: string): CompiledPattern {
  const compiled = compileRe2(source);
  return 'error' in compiled ? { source, error: compiled.error } : { source, regexp: compiled.regexp };
}

/**
 * Compiles a CRD version's `openAPIV3Schema` (validation.go `ConvertJSONSchemaPropsWithPostProcess`
 * and structural.go `NewStructural` in one step). An absent schema compiles to an empty node,
 * which accepts anything and (for pruning) knows no fields.
 */
export function compileStructural(props: CrdSchemaProps | undefined): Structural {
  const p = props ?? {};
  const intOrString = p['x-kubernetes-int-or-string'] === true;
  const node: Structural = {
    // validation.go ConvertJSONSchemaPropsWithPostProcess: int-or-string becomes type [integer, string].
    types: intOrString ? ['integer', 'string'] : p.type ? [p.type] : [],
    nullable: p.nullable === true,
    format: keptFormat(p.type, p.format),
    default: 'default' in p ? { value: p.default } : undefined,
    enum: p.enum,
    maximum: p.maximum,
    exclusiveMaximum: p.exclusiveMaximum === true,
    minimum: p.minimum,
    exclusiveMinimum: p.exclusiveMinimum === true,
    multipleOf: p.multipleOf,
    maxLength: p.maxLength,
    minLength: p.minLength,
    pattern: p.pattern ? compilePattern(p.pattern) : undefined,
    maxItems: p.maxItems,
    minItems: p.minItems,
    uniqueItems: p.uniqueItems === true,
    maxProperties: p.maxProperties,
    minProperties: p.minProperties,
    required: p.required ?? [],
    allOf: (p.allOf ?? []).map(compileStructural),
    anyOf: (p.anyOf ?? []).map(compileStructural),
    oneOf: (p.oneOf ?? []).map(compileStructural),
    not: p.not ? compileStructural(p.not) : undefined,
    preserveUnknownFields: p['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: p['x-kubernetes-embedded-resource'] === true,
    intOrString,
    listType: p['x-kubernetes-list-type'],
    listMapKeys: p['x-kubernetes-list-map-keys'] ?? [],
    mapType: p['x-kubernetes-map-type'],
    celRules: p['x-kubernetes-validations'] ?? [],
  };
  if (p.properties) {
    node.properties = new Map(Object.entries(p.properties).map(([k, v]) => [k, compileStructural(v)]));
  }
  if (typeof p.additionalProperties === 'boolean') node.additionalProperties = p.additionalProperties;
  else if (p.additionalProperties) node.additionalProperties = compileStructural(p.additionalProperties);
  // A list of item schemas (JSON Schema tuples) is not allowed in structural schemas; only the
  // single-schema form is kept.
  if (p.items && !Array.isArray(p.items)) node.items = compileStructural(p.items);
  return node;
}

/** The schema additionalProperties gives other keys, when it is a schema (structural.go `StructuralOrBool.Structural`). */
export function additionalSchema(s: Structural): Structural | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** A decoded JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
