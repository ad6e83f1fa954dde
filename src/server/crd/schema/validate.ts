/**
 * Validation of a custom object against its compiled schema, as kube-apiserver runs it:
 * k8s.io/kube-openapi pkg/validation/validate (schema.go `SchemaValidator.Validate` runs, in
 * order, the type, allOf/anyOf/oneOf/not, string, format, number, slice, enum and object
 * validators that apply to the value's kind), then apiextensions-apiserver
 * pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors` turns each message
 * into a field error; then, as pkg/registry/customresource/strategy.go `Validate` orders them,
 * embedded resources are checked (objectmeta `Validate`, embedded.ts), duplicates in
 * `x-kubernetes-list-type` set and map lists are found (listtype `ValidateListSetsAndMaps`,
 * list-type.ts), and the CEL hook runs only when nothing blocking was found. On update
 * (`oldObject`), errors in values left unchanged are ratcheted away (ratcheting.go).
 *
 * Paths are kube-openapi's: `spec.size`, `spec.items[0].name`; `required` and additional
 * properties are named `<parent>.<key>` even at the root, whose leading `.` the conversion trims.
 * Where upstream iterates a Go map (properties, keys) the order here is the schema's or the
 * object's; kube's own order is random.
 */
import type { FieldError } from '../../kinds/types.js';
import { goQuote } from '../../schema/go-text.js';
import { type CelHook, type Old, oldItem, runCel } from './cel-walk.js';
import {
  IN,
  jsonEqual,
  type OpenAPIError,
  typeFailure,
  validateEnum,
  validateFormat,
  validateNumber,
  validateString,
  validateType,
} from './checks.js';
import { validateEmbeddedResources } from './embedded.js';
import {
  CrdErrorType,
  invalidError,
  notSupportedError,
  requiredError,
  tooLongError,
  tooManyError,
  typeInvalidError,
} from './errors.js';
import { formatChecker } from './formats.js';
import { validateListSetsAndMaps } from './list-type.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';

export type { CelHook, CelNode } from './cel-walk.js';

/** Options of {@link validateCustomObject}. */
export interface ValidateOptions {
  /** The path the value sits at (`status` for the status subresource); the object root when absent. */
  fieldPath?: string;
  /** Evaluates CEL rules; without it `x-kubernetes-validations` are not checked. */
  cel?: CelHook;
  /**
   * On update, the stored object (or, with `fieldPath`, its part): errors in values left as
   * they were are ratcheted away (validation.go `ValidateCustomResourceUpdate` with
   * CRDValidationRatcheting, GA since 1.33; ratcheting.go `ratchetingValueValidator`).
   */
  oldObject?: unknown;
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
  // result.go `AddErrors`: a message already reported is not reported again.
  const seen = new Set<string>();
  const unique = isClean(schema, value)
    ? []
    : validateNode(
        schema,
        value,
        '',
        options.oldObject === undefined ? undefined : { value: options.oldObject },
      ).errors.filter((e) => !seen.has(e.message) && seen.add(e.message));
  const errors = unique.map((e) => toFieldError(e, base));
  // The strategy's embedded-resource and list checks run on the whole object only.
  if (isJsonObject(value) && base === undefined) {
    errors.push(...validateEmbeddedResources(schema, value));
    // strategy.go `ValidateUpdate`: list duplicates count only when the old object had none.
    const old = options.oldObject;
    if (!isJsonObject(old) || validateListSetsAndMaps('', schema, old).length === 0) {
      errors.push(...validateListSetsAndMaps('', schema, value));
    }
  }
  if (options.cel) {
    // strategy.go `hasBlockingErr`: CEL is skipped once an error makes its input unreliable.
    if (errors.some((e) => BLOCKING.has(e.type))) errors.push(invalidError('<nil>', null, CEL_SKIPPED));
    else {
      const old = options.oldObject;
      const correlated = old === undefined || old === null ? undefined : { value: old };
      errors.push(...runCel(schema, value, base ?? '', options.cel, correlated));
    }
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

/**
 * A validator's findings and its `MatchCount` (result.go `Result`): how many validators
 * applied and passed below, which decides which failed anyOf/oneOf branch is reported.
 */
interface Result {
  errors: OpenAPIError[];
  count: number;
}

/**
 * kube-openapi `SchemaValidator.Validate`: the validators that apply to the value's kind, each
 * counted (`result.Inc()`); the type validator adds a match only when it passes, the number and
 * slice validators one of their own, the object validator its children's.
 */
function validateNode(s: Structural, data: unknown, path: string, old: Old, branch = false): Result {
  const r: Result = { errors: [], count: 0 };
  const typed = s.types.length > 0 || s.format !== undefined;
  if (data === null || data === undefined) {
    // Only the type and common (enum) validators see a null, uncounted.
    if (typed) {
      const errors = validateType(s, null, path);
      add(r, errors, errors.length === 0 ? 1 : 0);
    }
    add(r, validateEnum(s, null, path), 0);
    return ratchet(r, data, old, branch);
  }
  if (typed) {
    const errors = validateType(s, data, path);
    add(r, errors, errors.length === 0 ? 2 : 1);
  }
  // The schema-props validator counts 1 of its own plus its branches' matches.
  if (hasComposites(s)) {
    const props = validateSchemaProps(s, data, path, old);
    add(r, props.errors, props.count + 1);
  } else r.count += 2;
  if (typeof data === 'string') {
    add(r, validateString(s, data, path), 1);
    if (s.format !== undefined && formatChecker(s.format)) add(r, validateFormat(s.format, data, path), 1);
  }
  if (typeof data === 'number') add(r, validateNumber(s, data, path), 2);
  if (Array.isArray(data)) {
    const slice = validateSlice(s, data, path, old);
    add(r, slice.errors, slice.count + 1);
  }
  add(r, validateEnum(s, data, path), 1);
  if (isJsonObject(data)) {
    const object = validateObject(s, data, path, old);
    add(r, object.errors, object.count + 1);
  }
  r.count++;
  return ratchet(r, data, old, branch);
}

/*
 * The walk's helpers are module functions, not closures made per node: a closure per call
 * costs an allocation (and, under a keepNames build such as tsx's, a defineProperty) per node.
 */

/** Adds a validator's errors and matches to `r`. */
function add(r: Result, errors: readonly OpenAPIError[], count: number): void {
  for (const e of errors) r.errors.push(e);
  r.count += count;
}

/** Whether any of allOf, anyOf, oneOf or not is set. */
function hasComposites(s: Structural): boolean {
  return s.anyOf.length > 0 || s.oneOf.length > 0 || s.allOf.length > 0 || s.not !== undefined;
}

/**
 * ratcheting.go `ratchetingValueValidator.Validate`: a value that fails but equals its old
 * value has its errors turned into warnings (dropped here), its match count kept. An anyOf,
 * allOf or oneOf branch is a plain validator upstream (only its children are correlated).
 */
function ratchet(r: Result, data: unknown, old: Old, branch: boolean): Result {
  if (branch || old === undefined || r.errors.length === 0 || !jsonEqual(data ?? null, old.value ?? null))
    return r;
  return { errors: [], count: r.count };
}

/** `CorrelatedObject.Key`: the old object's value at a key; never for apiVersion and kind at the root. */
function oldField(old: Old, key: string, path: string): Old {
  if (old === undefined) return undefined;
  if (!isJsonObject(old.value) || !(key in old.value)) return undefined;
  if (path === '' && (key === 'apiVersion' || key === 'kind')) return undefined;
  return { value: old.value[key] };
}

/** The failure kept for an anyOf/oneOf: the one that matched most, the first among equals. */
function better(best: Result | undefined, r: Result): Result {
  return best === undefined || r.count > best.count ? r : best;
}

/** schema_props.go `schemaPropsValidator.Validate`: allOf, anyOf, oneOf and not. */
function validateSchemaProps(s: Structural, data: unknown, path: string, old: Old): Result {
  const out: Result = { errors: [], count: 1 };
  if (s.anyOf.length > 0) {
    let best: Result | undefined;
    let success: Result | undefined;
    for (const sub of s.anyOf) {
      const r = validateNode(sub, data, path, old, true);
      if (r.errors.length === 0) {
        success = r;
        break;
      }
      best = better(best, r);
    }
    if (success === undefined)
      out.errors.push(composite(path, `${goQuote(path)} must validate at least one schema (anyOf)`));
    merge(out, success ?? best);
  }
  if (s.oneOf.length > 0) {
    let validated = 0;
    let best: Result | undefined;
    let success: Result | undefined;
    for (const sub of s.oneOf) {
      const r = validateNode(sub, data, path, old, true);
      if (r.errors.length === 0) {
        validated++;
        best = undefined;
        success ??= r;
      } else if (validated === 0) best = better(best, r);
    }
    if (validated !== 1) {
      const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      out.errors.push(
        composite(path, `${goQuote(path)} must validate one and only one schema (oneOf). ${more}`),
      );
      merge(out, best);
    } else merge(out, success);
  }
  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateNode(sub, data, path, old, true);
      if (r.errors.length === 0) validated++;
      merge(out, r);
    }
    if (validated !== s.allOf.length) {
      const more = validated === 0 ? '. None validated' : '';
      out.errors.push(composite(path, `${goQuote(path)} must validate all the schemas (allOf)${more}`));
    }
  }
  if (s.not && validateNode(s.not, data, path, old, true).errors.length === 0) {
    out.errors.push(composite(path, `${goQuote(path)} must not validate the schema (not)`));
  }
  return out;
}

function merge(out: Result, r: Result | undefined): void {
  if (r !== undefined) add(out, r.errors, r.count);
}

function composite(path: string, message: string): OpenAPIError {
  return { code: 'composite', name: path, message };
}

/** slice_validator.go `schemaSliceValidator.Validate`: items, then minItems, maxItems, uniqueItems. */
function validateSlice(s: Structural, data: unknown[], path: string, old: Old): Result {
  const out: Result = { errors: [], count: 1 };
  if (s.items) {
    for (let i = 0; i < data.length; i++) {
      const v = data[i];
      const r = validateNode(s.items, v, `${path}[${i}]`, oldItem(old, s, v));
      add(out, r.errors, r.count);
    }
  }
  const size = data.length;
  if (s.minItems !== undefined && size < s.minItems) {
    const message = `${path} in ${IN} should have at least ${s.minItems} items`;
    out.errors.push({ code: 'other', name: path, value: size, message });
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    const message = `${path} in ${IN} should have at most ${s.maxItems} items`;
    out.errors.push({ code: 'maxItems', name: path, value: size, valid: s.maxItems, message });
  }
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) {
    out.errors.push({ code: 'other', name: path, message: `${path} in ${IN} shouldn't contain duplicates` });
  }
  return out;
}

/** object_validator.go `objectValidator.Validate`. */
function validateObject(s: Structural, data: Record<string, unknown>, path: string, old: Old): Result {
  const out: Result = { errors: [], count: 0 };
  const keys = Object.keys(data);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    const message = `${path} in ${IN} should have at least ${s.minProperties} properties`;
    out.errors.push({ code: 'other', name: path, value: keys.length, message });
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    const message = `${path} in ${IN} should have at most ${s.maxProperties} properties`;
    out.errors.push({
      code: 'tooManyProperties',
      name: path,
      value: keys.length,
      valid: s.maxProperties,
      message,
    });
  }
  const extra = additionalSchema(s);
  for (const key of keys) {
    if (s.properties?.has(key)) continue;
    if (s.additionalProperties === false) {
      const message = `${path}.${key} in ${IN} is a forbidden property`;
      out.errors.push({ code: 'other', name: path, value: key, message });
    } else if (extra) {
      const r = validateNode(extra, data[key], `${path}.${key}`, oldField(old, key, path));
      add(out, r.errors, r.count);
    }
  }
  if (s.properties !== undefined) {
    for (const [name, prop] of s.properties) {
      if (!Object.hasOwn(data, name)) continue;
      const at = path === '' ? name : `${path}.${name}`;
      const r = validateNode(prop, data[name], at, oldField(old, name, path));
      add(out, r.errors, r.count);
    }
  }
  for (const name of s.required) {
    if (!Object.hasOwn(data, name)) {
      const message = `${path}.${name} in ${IN} is required`;
      out.errors.push({ code: 'required', name: `${path}.${name}`, message });
    }
  }
  return out;
}

/**
 * Whether {@link validateNode} would find nothing wrong with `data`: the same checks in the same
 * places, answered yes or no, without the paths, match counts and error objects the full walk
 * builds for every node. Almost every write is valid, so validation runs this first and the full
 * walk (which alone words errors, picks the anyOf/oneOf branch to report and ratchets unchanged
 * values on update) only when it says no. Ratcheting only ever removes errors, so a clean object
 * is clean with or without an old one.
 */
export function isClean(s: Structural, data: unknown): boolean {
  const typed = s.types.length > 0 || s.format !== undefined;
  if (data === null || data === undefined) {
    return (
      !(typed && typeFailure(s, null) !== 'none') &&
      !(s.enum && s.enum.length > 0 && validateEnum(s, null, '').length > 0)
    );
  }
  if (typed && typeFailure(s, data) !== 'none') return false;
  if (hasComposites(s) && !compositesClean(s, data)) return false;
  if (typeof data === 'string') {
    if (
      (s.maxLength !== undefined || s.minLength !== undefined || s.pattern !== undefined) &&
      validateString(s, data, '').length > 0
    )
      return false;
    if (s.format !== undefined && formatChecker(s.format) && validateFormat(s.format, data, '').length > 0)
      return false;
  } else if (typeof data === 'number') {
    if (validateNumber(s, data, '').length > 0) return false;
  } else if (Array.isArray(data)) {
    if (s.items) for (const v of data) if (!isClean(s.items, v)) return false;
    if (s.minItems !== undefined && data.length < s.minItems) return false;
    if (s.maxItems !== undefined && data.length > s.maxItems) return false;
    if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) return false;
  }
  if (s.enum && s.enum.length > 0 && validateEnum(s, data, '').length > 0) return false;
  return !isJsonObject(data) || objectClean(s, data);
}

/** {@link validateSchemaProps} as a yes or no: anyOf needs one branch, oneOf exactly one, allOf all, not none. */
function compositesClean(s: Structural, data: unknown): boolean {
  if (s.anyOf.length > 0 && !s.anyOf.some((sub) => isClean(sub, data))) return false;
  if (s.oneOf.length > 0) {
    let clean = 0;
    for (const sub of s.oneOf) if (isClean(sub, data)) clean++;
    if (clean !== 1) return false;
  }
  if (s.allOf.length > 0 && !s.allOf.every((sub) => isClean(sub, data))) return false;
  return !(s.not && isClean(s.not, data));
}

/** {@link validateObject} as a yes or no. */
function objectClean(s: Structural, data: Record<string, unknown>): boolean {
  if (s.minProperties !== undefined || s.maxProperties !== undefined) {
    const n = Object.keys(data).length;
    if (s.minProperties !== undefined && n < s.minProperties) return false;
    if (s.maxProperties !== undefined && n > s.maxProperties) return false;
  }
  const extra = additionalSchema(s);
  for (const key of Object.keys(data)) {
    const prop = s.properties?.get(key);
    if (prop !== undefined) {
      if (!isClean(prop, data[key])) return false;
    } else if (s.additionalProperties === false) return false;
    else if (extra && !isClean(extra, data[key])) return false;
  }
  for (const name of s.required) if (!Object.hasOwn(data, name)) return false;
  return true;
}

/** The full walk's errors alone, without the quick check first (for tests that compare the two). */
export function fullWalkErrors(schema: Structural, value: unknown): readonly OpenAPIError[] {
  return validateNode(schema, value, '', undefined).errors;
}
