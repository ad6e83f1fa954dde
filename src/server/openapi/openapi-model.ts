/**
 * The shape of the generated Kubernetes type tables (openapi-types.generated.ts and
 * openapi-descriptions.generated.ts). Its own module so that the generated tables and the code
 * reading them (openapi-schemas.ts) both point here, and never at each other.
 */

/**
 * A field's type in the type table: a primitive, `string`, `boolean`, `int32`, `int64`, `number`
 * (a float64) or `bytes` (a []byte: base64 in JSON); the name of another entry
 * (`io.k8s.api.core.v1.Container`); `[]<type>` for a list; `{}<type>` for a map.
 */
export type ApiFieldType = string;

/**
 * One named Kubernetes API type: a struct with its JSON fields, or a scalar with a JSON form of its
 * own: `object` a free-form JSON object (FieldsV1, RawExtension); `json` any JSON value
 * (apiextensions `JSON`); `schema-or-bool`, `schema-or-array`, `schema-or-string-array` the
 * apiextensions unions (a JSONSchemaProps, or a boolean, a list of them, a list of strings), each
 * decoded by its own UnmarshalJSON (apiextensions/v1 marshal.go).
 */
export type ApiType =
  | { fields: Record<string, ApiFieldType>; required?: string[] }
  | {
      scalar:
        | 'string'
        | 'date-time'
        | 'int-or-string'
        | 'object'
        | 'json'
        | 'schema-or-bool'
        | 'schema-or-array'
        | 'schema-or-string-array';
    };

/**
 * The upstream descriptions of the types: each distinct text once in `texts`; per type (by
 * OpenAPI name), each field's index into `texts`, the type's own description under `''`.
 */
export interface ApiDescriptionTable {
  readonly texts: readonly string[];
  readonly types: Readonly<Record<string, Readonly<Record<string, number>>>>;
}
