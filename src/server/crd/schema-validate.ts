/**
 * Validation of a custom object against its compiled schema, as kube-apiserver runs it:
 * k8s.io/kube-openapi pkg/validation/validate (schema.go `SchemaValidator.Validate` runs, in
 * order, the type, allOf/anyOf/oneOf/not, string, format, number, slice, enum and object
 * validators that apply to the value's kind), then apiextensions-apiserver
 * pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors` turns each message
 * into a field error; then, as pkg/registry/customresource/strategy.go `Validate` orders them,
 * embedded resources are checked (objectmeta `Validate`, schema-embedded.ts), duplicates in
 * `x-kubernetes-list-type` set and map lists are found (listtype `ValidateListSetsAndMaps`,
 * schema-list-type.ts), and the CEL hook runs only when nothing blocking was found.
 *
 * Paths are kube-openapi's: `spec.size`, `spec.items[0].name`; `required` and additional
 * properties are named `<parent>.<key>` even at the root, whose leading `.` the conversion trims.
 * Where upstream iterates a Go map (properties, keys) the order here is the schema's or the
 * object's; kube's own order is random.
 */
import type { FieldError } from '../kinds/types.js';
import { goQuote } from '../schema/go-text.js';
import {
  IN,
  jsonEqual,
  type OpenAPIError,
  validateEnum,
  validateFormat,
  validateNumber,
  validateString,
  validateType,
} from './schema-checks.js';
import { validateEmbeddedResources } from './schema-embedded.js';
import {
  CrdErrorType,
  invalidError,
  notSupportedError,
  requiredError,
  tooLongError,
  tooManyError,
  typeInvalidError,
} from './schema-errors.js';
import { validateListSetsAndMaps } from './schema-list-type.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';

/**
 * Hook for `x-kubernetes-validations`: called with each node's rules and value after the
 * OpenAPI checks. CEL is not implemented here; a caller may supply an evaluator.
 */
export type CelHook = (rules: readonly unknown[], value: unknown, path: string) => FieldError[];

/** Options of {@link validateCustomObject}. */
export interface ValidateOptions {
  /** The path the value sits at (`status` for the status subresource); the object root when absent. */
  fieldPath?: string;
  /** Evaluates CEL rules; without it `x-kubernetes-validations` are not checked. */
  cel?: CelHook;
}

/**
 * The field errors of `value` against `schema`, as validation.go `ValidateCustomResource`
 * followed by listtype `ValidateListSetsAndMaps` report them.
 */
export function validateCustomObject(
  schema: Structural,
  value: unknown,
  options: ValidateOptions = {},
): FieldError[] {
  const base = options.fieldPath;
  const errors = validateNode(schema, value, '').map((e) => toFieldError(e, base));
  // The strategy's embedded-resource and list checks run on the whole object only.
  if (isJsonObject(value) && base === undefined) {
    errors.push(...validateEmbeddedResources(schema, value));
    errors.push(...validateListSetsAndMaps('', schema, value));
  }
  if (options.cel) {
    // strategy.go `hasBlockingErr`: CEL is skipped once an error makes its input unreliable.
    if (errors.some((e) => BLOCKING.has(e.type))) errors.push(invalidError('<nil>', null, CEL_SKIPPED));
    else errors.push(...runCel(schema, value, base ?? '', options.cel));
  }
  return errors;
}

const BLOCKING: ReadonlySet<string> = new Set([
  CrdErrorType.NotSupported,
  CrdErrorType.Required,
  CrdErrorType.TooLong,
  CrdErrorType.TooMany,
  CrdErrorType.TypeInvalid,
]);
const CEL_SKIPPED =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/** validation.go `kubeOpenAPIResultToFieldErrors`, one error. */
function toFieldError(err: OpenAPIError, base: string | undefined): FieldError {
  const name = err.name.startsWith('.') ? err.name.slice(1) : err.name;
  // field.Path: a nil path prints `<nil>`; Child on a nil path starts a new one.
  const root = base ?? '<nil>';
  const path = err.code !== 'composite' && name !== '' ? (base ? `${base}.${name}` : name) : root;
  const value = err.value ?? '';
  switch (err.code) {
    case 'required':
      return requiredError(path);
    case 'enum':
      return notSupportedError(path, err.value, err.values ?? []);
    case 'tooLong':
      return tooLongError(path, err.valid ?? -1);
    case 'maxItems':
    case 'tooManyProperties':
      return tooManyError(path, typeof err.value === 'number' ? err.value : -1, err.valid ?? -1);
    case 'type':
      return typeInvalidError(path, value, err.message);
    case 'composite':
      return invalidError(root, '', err.message);
    default:
      return invalidError(path, value, err.message);
  }
}

/** kube-openapi `SchemaValidator.Validate`: the validators that apply to the value's kind. */
function validateNode(s: Structural, data: unknown, path: string): OpenAPIError[] {
  const out: OpenAPIError[] = [];
  const typed = s.types.length > 0 || s.format !== undefined;
  if (data === null || data === undefined) {
    // Only the type and common (enum) validators see a null.
    if (typed) out.push(...validateType(s, null, path));
    out.push(...validateEnum(s, null, path));
    return out;
  }
  if (typed) out.push(...validateType(s, data, path));
  out.push(...validateSchemaProps(s, data, path));
  if (typeof data === 'string') {
    out.push(...validateString(s, data, path));
    if (s.format !== undefined) out.push(...validateFormat(s.format, data, path));
  }
  if (typeof data === 'number') out.push(...validateNumber(s, data, path));
  if (Array.isArray(data)) out.push(...validateSlice(s, data, path));
  out.push(...validateEnum(s, data, path));
  if (isJsonObject(data)) out.push(...validateObject(s, data, path));
  return out;
}

/** schema_props.go `schemaPropsValidator.Validate`: allOf, anyOf, oneOf and not. */
function validateSchemaProps(s: Structural, data: unknown, path: string): OpenAPIError[] {
  const out: OpenAPIError[] = [];
  const composite = (message: string): OpenAPIError => ({ code: 'composite', name: path, message });
  if (s.anyOf.length > 0) {
    // Upstream keeps the failure that matched most validators; this keeps the first failure.
    let firstFailure: OpenAPIError[] | undefined;
    let ok = false;
    for (const sub of s.anyOf) {
      const r = validateNode(sub, data, path);
      if (r.length === 0) {
        ok = true;
        break;
      }
      firstFailure ??= r;
    }
    if (!ok)
      out.push(
        composite(`${goQuote(path)} must validate at least one schema (anyOf)`),
        ...(firstFailure ?? []),
      );
  }
  if (s.oneOf.length > 0) {
    let validated = 0;
    let firstFailure: OpenAPIError[] | undefined;
    for (const sub of s.oneOf) {
      const r = validateNode(sub, data, path);
      if (r.length === 0) validated++;
      else if (validated === 0) firstFailure ??= r;
    }
    if (validated !== 1) {
      const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      out.push(composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${more}`));
      if (validated === 0) out.push(...(firstFailure ?? []));
    }
  }
  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateNode(sub, data, path);
      if (r.length === 0) validated++;
      out.push(...r);
    }
    if (validated !== s.allOf.length) {
      const more = validated === 0 ? '. None validated' : '';
      out.push(composite(`${goQuote(path)} must validate all the schemas (allOf)${more}`));
    }
  }
  if (s.not && validateNode(s.not, data, path).length === 0) {
    out.push(composite(`${goQuote(path)} must not validate the schema (not)`));
  }
  return out;
}

/** slice_validator.go `schemaSliceValidator.Validate`: items, then minItems, maxItems, uniqueItems. */
function validateSlice(s: Structural, data: unknown[], path: string): OpenAPIError[] {
  const out: OpenAPIError[] = [];
  if (s.items)
    data.forEach((v, i) => {
      out.push(...validateNode(s.items!, v, `${path}[${i}]`));
    });
  const size = data.length;
  if (s.minItems !== undefined && size < s.minItems) {
    out.push({
      code: 'other',
      name: path,
      value: size,
      message: `${path} in ${IN} should have at least ${s.minItems} items`,
    });
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    const message = `${path} in ${IN} should have at most ${s.maxItems} items`;
    out.push({ code: 'maxItems', name: path, value: size, valid: s.maxItems, message });
  }
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) {
    out.push({ code: 'other', name: path, message: `${path} in ${IN} shouldn't contain duplicates` });
  }
  return out;
}

/** object_validator.go `objectValidator.Validate`. */
function validateObject(s: Structural, data: Record<string, unknown>, path: string): OpenAPIError[] {
  const out: OpenAPIError[] = [];
  const keys = Object.keys(data);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    const message = `${path} in ${IN} should have at least ${s.minProperties} properties`;
    out.push({ code: 'other', name: path, value: keys.length, message });
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    const message = `${path} in ${IN} should have at most ${s.maxProperties} properties`;
    out.push({ code: 'tooManyProperties', name: path, value: keys.length, valid: s.maxProperties, message });
  }
  const extra = additionalSchema(s);
  for (const key of keys) {
    if (s.properties?.has(key)) continue;
    if (s.additionalProperties === false) {
      out.push({
        code: 'other',
        name: path,
        value: key,
        message: `${path}.${key} in ${IN} is a forbidden property`,
      });
    } else if (extra) {
      out.push(...validateNode(extra, data[key], `${path}.${key}`));
    }
  }
  for (const [name, prop] of s.properties ?? []) {
    if (name in data) out.push(...validateNode(prop, data[name], path === '' ? name : `${path}.${name}`));
  }
  for (const name of s.required) {
    if (!(name in data))
      out.push({
        code: 'required',
        name: `${path}.${name}`,
        message: `${path}.${name} in ${IN} is required`,
      });
  }
  return out;
}

/** Each node's CEL rules handed to the hook, walking the value as the schema describes it. */
function runCel(s: Structural, value: unknown, path: string, cel: CelHook): FieldError[] {
  const out: FieldError[] = s.celRules.length > 0 ? cel(s.celRules, value, path) : [];
  if (Array.isArray(value) && s.items) {
    value.forEach((v, i) => {
      out.push(...runCel(s.items!, v, `${path}[${i}]`, cel));
    });
  } else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const sub = s.properties?.get(k) ?? additionalSchema(s);
      if (sub) out.push(...runCel(sub, v, path === '' ? k : `${path}.${k}`, cel));
    }
  }
  return out;
}
