/**
 * The typed decoder's input: a small structural schema of a built-in Go type, read off the
 * generated type table (builtin-schemas.ts) and compiled into a checker (compile.ts). A
 * CustomResourceDefinition's `openAPIV3Schema` is not mapped onto it: crd/schema/ applies that
 * as apiextensions-apiserver does, and uses this engine only for a custom object's `metadata`
 * (crd/schema/objectmeta.ts).
 *
 * A schema says what JSON a field takes and, for built-in types, which Go type kube-apiserver
 * decodes it into (`goType`): the decoder's error messages name that type
 * (`... of type v1.PodSpec`), so the engine must know it to answer with kube's words.
 */

/** A string field; `format` is a Go type with a string form of its own. */
export interface StringSchema {
  type: 'string';
  /**
   * `byte`: a []byte, base64 in JSON; `date-time`: a metav1.Time (RFC 3339);
   * `date-time-micro`: a metav1.MicroTime (RFC 3339 with exactly six fractional digits);
   * `quantity`: a resource.Quantity (a string or a number).
   */
  format?: 'byte' | 'date-time' | 'date-time-micro' | 'quantity';
}

/** An integer field, with the Go integer type's range. */
export interface IntegerSchema {
  type: 'integer';
  format: 'int32' | 'int64';
}

/** A float64 field. */
export interface NumberSchema {
  type: 'number';
}

/** A bool field. */
export interface BooleanSchema {
  type: 'boolean';
}

/** An intstr.IntOrString (`x-kubernetes-int-or-string`): an int32 or a string. */
export interface IntOrStringSchema {
  type: 'int-or-string';
}

/**
 * An object: a struct when it has `properties` (any other key is an unknown field, dropped),
 * a map when it has `additionalProperties` (every value of that schema).
 * `preserveUnknownFields` keeps keys that are not properties, unchecked.
 */
export interface ObjectSchema {
  type: 'object';
  properties?: Readonly<Record<string, SchemaRef>>;
  additionalProperties?: SchemaRef;
  preserveUnknownFields?: boolean;
  /** The Go struct's name, `PodSpec`: the `Struct` of a decoder error inside it. */
  goName?: string;
  /**
   * The fields promoted from embedded Go structs, with the Go field names of the structs they
   * are reached through (`apiGroups` of a RuleWithOperations → `Rule`): a decoder error's field
   * path names them (encoding/json `decodeState.object` since Go 1.24).
   */
  embeddedIn?: Readonly<Record<string, string>>;
}

/** A list, every item of one schema. */
export interface ArraySchema {
  type: 'array';
  items: SchemaRef;
}

/** Any JSON at all (FieldsV1, RawExtension, a preserve-unknown-fields node without a type). */
export interface AnySchema {
  type: 'any';
}

/** A named schema of the same set, resolved when compiled: built-in types share and nest them. */
export interface RefSchema {
  $ref: string;
}

/** One node of a structural schema. */
export type Schema = (
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | IntOrStringSchema
  | ObjectSchema
  | ArraySchema
  | AnySchema
) & {
  /** The Go type a value decodes into, `v1.PodSpec`, `map[string]string`; set for built-in types. */
  goType?: string;
};

/** A schema or a reference to one. */
export type SchemaRef = Schema | RefSchema;

/** Where named schemas come from: `$ref`s are looked up here, once each. */
export interface SchemaSource {
  /** The schema of `name`; throws when there is none (a bug in the table). */
  resolve(name: string): Schema;
}

/** True for a `$ref` node. */
export function isRef(s: SchemaRef): s is RefSchema {
  return '$ref' in s;
}
