/**
 * A CRD's selectable fields (`ValidateCustomResourceSelectableFields` in
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go):
 * each jsonPath must resolve in the schema (`cel.ValidFieldPath` of
 * pkg/apiserver/schema/cel/validation.go, array notation off), outside
 * metadata, to a string, boolean or integer; at most 8 distinct.
 */
import { isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import type { FieldError } from '../../kinds/types.js';
import { duplicate, invalid, required, tooMany } from './errors.js';

/** `MaxSelectableFields`. */
export const MAX_SELECTABLE_FIELDS = 8;

/** `cel.ValidFieldPath` without array notation: the field path and the schema it reaches, or the error text. */
export function resolveFieldPath(
  jsonPath: string,
  root: unknown,
): { path: string; root: string; schema: JsonObject | undefined } | string {
  const tokens = jsonPath.match(/[.[\]]|[^.[\]]+/g) ?? [];
  let schema: JsonObject | undefined = isObject(root) ? root : undefined;
  let path = '';
  let first = '';
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === '[') return 'array notation is not allowed';
    if (tok !== '.') return `expected [ or . but got: ${tok}`;
    const name = tokens[++i];
    if (name === undefined) return 'unexpected end of JSON path';
    if (schema === undefined) return 'does not refer to a valid field';
    if (isObject(schema.properties)) {
      if (!(name in schema.properties)) return 'does not refer to a valid field';
      schema = rec(schema.properties[name]);
      path = path === '' ? name : `${path}.${name}`;
    } else if (
      schema.additionalProperties !== undefined &&
      schema.additionalProperties !== null &&
      schema.additionalProperties !== false
    ) {
      schema = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
      path = `${path}[${name}]`;
    } else {
      return 'does not refer to a valid field';
    }
    if (first === '') first = name;
  }
  return { path, root: first, schema };
}

/** `ValidateCustomResourceSelectableFields`; `allowTooMany` when an unchanged list was already over the limit. */
export function validateSelectableFields(
  fields: unknown[],
  schema: unknown,
  path: string,
  allowTooMany: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${path}[${i}].jsonPath`;
    const jsonPath = str(rec(f).jsonPath);
    if (jsonPath === '') {
      errs.push(required(at));
      return;
    }
    const found = resolveFieldPath(jsonPath, schema);
    if (typeof found === 'string') {
      errs.push(invalid(at, jsonPath, `is an invalid path: ${found}`));
      return;
    }
    if (found.root === 'metadata') errs.push(invalid(at, jsonPath, 'must not point to fields in metadata'));
    const type = str(found.schema?.type);
    if (!['string', 'boolean', 'integer'].includes(type)) {
      errs.push(
        invalid(
          at,
          jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    }
    if (unique.has(found.path)) errs.push(duplicate(at, jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany)
    errs.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}
