/**
 * The kube-openapi walk of a custom object against its compiled schema
 * (k8s.io/kube-openapi pkg/validation/validate: schema.go `SchemaValidator.Validate` runs, in
 * order, the type, allOf/anyOf/oneOf/not, string, format, number, slice, enum and object
 * validators that apply to the value's kind), with each validator's match count, which decides
 * which failed anyOf/oneOf branch is reported, and ratcheting on update (ratcheting.go): a value
 * that fails but equals its old value has its errors dropped.
 *
 * Paths are kube-openapi's: `spec.size`, `spec.items[0].name`; `required` and additional
 * properties are named `<parent>.<key>` even at the root. Where upstream iterates a Go map
 * (properties, keys) the order here is the schema's or the object's; kube's own order is random.
 */
import { goQuote } from '../../schema/go-text.js';
import { type Old, oldItem } from './cel-walk.js';
import {
  IN,
  jsonEqual,
  type OpenAPIError,
  validateEnum,
  validateFormat,
  validateNumber,
  validateString,
  validateType,
} from './checks.js';
import { formatChecker } from './formats.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';

/**
 * The messages of every validator that fails on `value` or below it, in kube-openapi's order;
 * with `old` (the stored value), those of values left unchanged are ratcheted away.
 */
export function openApiErrors(schema: Structural, value: unknown, old?: Old): OpenAPIError[] {
  return validateNode(schema, value, '', old).errors;
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

/*
/** Adds a validator's errors and matches to `r`. */
function add(r: Result, errors: readonly OpenAPIError[], count: number): void {
  for (const e of errors) r.errors.push(e);
  r.count += count;
}

/** Whether any of allOf, anyOf, oneOf or not is set. */
export function hasComposites(s: Structural): boolean {
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

/** The full walk's errors alone, without the quick check first (for tests that compare the two). */
export function fullWalkErrors(schema: Structural, value: unknown): readonly OpenAPIError[] {
  return validateNode(schema, value, '', undefined).errors;
}
