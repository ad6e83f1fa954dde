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
  /**
   * What the reference kube-apiserver serves for a type where the table above and the type table
   * alone would say otherwise (openapi-extras.generated.ts): enums and their description lines,
   * defaults, list and map extensions, unions, the scalars' `oneOf`. Loaded with the texts.
   */
  readonly extras?: Readonly<Record<string, OpenApiTypeExtras>>;
}

/**
 * One type's schema parts as the reference serves them: `top` replaces the type's own keys (all
 * but `properties`); each of `properties` holds the keys of that property's schema that differ
 * (null: a key the reference leaves out).
 */
export interface OpenApiTypeExtras {
  readonly top?: Readonly<Record<string, unknown>>;
  readonly properties?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * What `/openapi/v2` takes from the reference kube-apiserver as data (openapi-v2.generated.ts,
 * by scripts/openapi-v2-reference.ts): the texts and shapes no table of ours gives.
 */
export interface OpenApiV2Reference {
  /** The document's `info`, `securityDefinitions` and `security`. */
  readonly info: Readonly<Record<string, unknown>>;
  readonly securityDefinitions: Readonly<Record<string, unknown>>;
  readonly security: readonly unknown[];
  /** The parameters of the resource routes, by label (`pretty`, `fieldManager@patch`), each as the reference writes it. */
  readonly parameters: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Per `x-kubernetes-action`, the labels of the parameters its route takes beyond `name`, `namespace`, `pretty` and a kind body. */
  readonly actionParameters: Readonly<Record<string, readonly string[]>>;
  /** `<group>/<plural>` of the resources whose delete answers the object, not a Status. */
  readonly deleteReturnsObject: readonly string[];
  /** The server's own paths (`/api/`, `/apis/`, `/version/`, OIDC discovery), parameters inline. */
  readonly staticPaths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The special subresources' paths (exec, log, proxy, token, eviction, ...), parameters inline. */
  readonly subresourcePaths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * The texts of each built-in kind's List (by definition name; `''`: the apiVersion and kind
   * texts every List shares), from which openapi-v2.ts builds it.
   */
  readonly lists: Readonly<Record<string, V2ListTexts>>;
  /** Definitions the type table and the List rule do not build as the reference serves them (meta types), whole. */
  readonly definitions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A List definition's texts: its own, its `items`', its `metadata`'s (null: none). */
export type V2ListTexts = readonly [string | null, string | null, string | null];

/**
 * What the `/openapi/v3` documents take from the reference kube-apiserver as data
 * (openapi-v3.generated.ts, by scripts/openapi-v3-reference.ts); their paths come from the v2
 * routes (openapi-v3-paths.ts), their schemas by rule (openapi-v3-components.ts).
 */
export interface OpenApiV3Reference {
  /** A built-in document's `info`. */
  readonly info: Readonly<Record<string, unknown>>;
  /** A built-in document's `components.securitySchemes`. */
  readonly securitySchemes: Readonly<Record<string, unknown>>;
  /** Schemas the type table and the List rule do not build as the reference serves them, whole. */
  readonly definitions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The meta types apiextensions-apiserver's documents write otherwise (from the whole scheme). */
  readonly customDefinitions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}
