/**
 * The pieces of kube's messages about an {@link Issue}: its place in each of the notations
 * kube-apiserver's decoders use, and the Go type it was decoded into.
 */
import type { Schema } from './schema.js';
import type { Issue } from './walk.js';

/**
 * The place as encoding/json's UnmarshalTypeError names it (sigs.k8s.io/json decode.go
 * `addErrorContext`): the innermost struct (`PodSpec`) and the struct field names from the root,
 * embedded structs' Go names included, map keys and list indexes left out
 * (`spec.volumes.VolumeSource.configMap`). Undefined at the root.
 */
export function goStructField(issue: Issue): { struct: string; field: string } | undefined {
  const fields: string[] = [];
  let struct: string | undefined;
  for (const owner of issue.owners) {
    if (owner === undefined) continue;
    fields.push(owner.field);
    struct = owner.struct;
  }
  return struct === undefined ? undefined : { struct, field: fields.join('.') };
}

/**
 * The place as the strict decoders name an unknown field: keys joined by `.`, list indexes as
 * `[i]` (sigs.k8s.io/json kubernetes_patch.go `newFieldError`; runtime/converter.go `pushKey`,
 * `pushIndex`): `spec.containers[0].foo`.
 */
export function strictPath(issue: Issue): string {
  let path = '';
  for (const key of issue.keys) {
    if (typeof key === 'number') path += `[${key}]`;
    else path += path === '' ? key : `.${key}`;
  }
  return path;
}

/**
 * The place as structured-merge-diff prints a path (fieldpath `PathElement.String`): `.spec`,
 * `.containers`, `[0]`. Associative lists are keyed by their map keys upstream
 * (`[name="nginx"]`); the type table has no list-map keys, so every list shows its index.
 */
export function smdPath(issue: Issue): string {
  let path = '';
  for (const key of issue.keys) path += typeof key === 'number' ? `[${key}]` : `.${key}`;
  return path;
}

/** The Go type a schema decodes into, as `reflect.Type.String()` prints it. */
export function goTypeOf(schema: Schema): string {
  if (schema.goType) return schema.goType;
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return schema.format;
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'int-or-string':
      return 'intstr.IntOrString';
    case 'array':
      return '[]interface {}';
    case 'object':
      return 'map[string]interface {}';
    default:
      return 'interface {}';
  }
}

/**
 * The reflect.Kind of the Go type a schema decodes into, as `%v` prints it: a named type's
 * underlying kind (`v1.DNSPolicy` → `string`).
 */
export function goKindOf(schema: Schema): string {
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? 'slice' : schema.format === undefined ? 'string' : 'struct';
    case 'integer':
      return schema.goType === 'uint8' ? 'uint8' : schema.format;
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'int-or-string':
      return 'struct';
    case 'array':
      return 'slice';
    case 'object':
      return schema.properties ? 'struct' : 'map';
    default:
      return 'interface';
  }
}
