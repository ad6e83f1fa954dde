/**
 * The shape of the generated Kubernetes type table (openapi-types.generated.ts). Its own module
 * so that the generated table and the code reading it (openapi-schemas.ts) both point here, and
 * never at each other (issue #14: openapi-schemas.ts imported the table, which imported its
 * types back from openapi-schemas.ts).
 */

/**
 * A field's type in the type table: `string`, `integer` or `boolean`; the name of another
 * entry (`io.k8s.api.core.v1.Container`); `[]<type>` for a list; `{}<type>` for a map.
 */
export type ApiFieldType = string;

/** One named Kubernetes API type: a struct with its JSON fields, or a scalar with a JSON form of its own. */
export type ApiType =
  | { fields: Record<string, ApiFieldType>; required?: string[] }
  | { scalar: 'string' | 'date-time' | 'int-or-string' | 'object' };
