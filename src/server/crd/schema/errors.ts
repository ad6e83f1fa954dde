/**
 * Custom-resource schema errors as kube-apiserver words them: kube-openapi's messages
 * (k8s.io/kube-openapi pkg/validation/errors/schema.go: `InvalidType`, `TooShort`,
 * `ExceedsMinimum`, ...) turned into apimachinery field errors by apiextensions-apiserver
 * pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`.
 *
 * A field error's text is apimachinery pkg/util/validation/field/errors.go `Error.ErrorBody`:
 * int64, float64 and bool values print with `%v`, strings with `%q`, anything else (maps,
 * slices, Go `int`s, nil) as JSON: `spec.size: Invalid value: 0: spec.size in body should be
 * greater than or equal to 1`.
 */
import type { FieldError } from '../../kinds/types.js';
import { goFloat, goQuote } from '../../schema/go-text.js';

/** The `reason` of each cause (field.ErrorType). */
export const CrdErrorType = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  TypeInvalid: 'FieldValueTypeInvalid',
  NotSupported: 'FieldValueNotSupported',
  Duplicate: 'FieldValueDuplicate',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
} as const;

/** A JSON number as Go prints the int64 or float64 it decodes to (`%v`). */
export function goNumberText(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : goFloat(n);
}

/** encoding/json `Marshal` of a decoded value: map keys sorted, `<`, `>`, `&` escaped. */
export function goJson(v: unknown): string {
  const sorted = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sorted);
    if (typeof x === 'object' && x !== null) {
      const o = x as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .sort()
          .map((k) => [k, sorted(o[k])]),
      );
    }
    return x;
  };
  return (JSON.stringify(sorted(v)) ?? 'null')
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/**
 * A bad value as `ErrorBody` prints it: a Go `int` (TooMany's count) goes through the JSON
 * branch, which prints the same digits as `%v` does for an int64.
 */
export function badValueText(v: unknown): string {
  if (typeof v === 'number') return goNumberText(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return goQuote(v);
  return goJson(v ?? null);
}

function body(type: string, value: unknown, detail: string): string {
  const s = `${type}: ${badValueText(value)}`;
  return detail ? `${s}: ${detail}` : s;
}

/** `field.Required(path, "")`: `Required value`. */
export function requiredError(field: string): FieldError {
  return { type: CrdErrorType.Required, field, message: 'Required value' };
}

/** `field.Invalid`: `Invalid value: <value>: <detail>`. */
export function invalidError(field: string, value: unknown, detail: string): FieldError {
  return { type: CrdErrorType.Invalid, field, message: body('Invalid value', value, detail) };
}

/** `field.TypeInvalid`: worded as Invalid (`ErrorType.String`), reason `FieldValueTypeInvalid`. */
export function typeInvalidError(field: string, value: unknown, detail: string): FieldError {
  return { type: CrdErrorType.TypeInvalid, field, message: body('Invalid value', value, detail) };
}

/**
 * `field.NotSupported` as validation.go builds it for an enum: string values as they are, others
 * as JSON, each quoted (`strconv.Quote`).
 */
export function notSupportedError(field: string, value: unknown, allowed: readonly unknown[]): FieldError {
  const values = allowed.map((a) => goQuote(typeof a === 'string' ? a : goJson(a)));
  const detail = values.length > 0 ? `supported values: ${values.join(', ')}` : '';
  return { type: CrdErrorType.NotSupported, field, message: body('Unsupported value', value, detail) };
}

/** `field.TooLong(path, "", max)`: the value is never echoed. */
export function tooLongError(field: string, max: number): FieldError {
  const detail =
    max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return { type: CrdErrorType.TooLong, field, message: `Too long: ${detail}` };
}

/** `field.TooMany(path, actual, max)`. */
export function tooManyError(field: string, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  const head = actual >= 0 ? `Too many: ${actual}` : 'Too many';
  return { type: CrdErrorType.TooMany, field, message: `${head}: ${detail}` };
}

/** `field.Duplicate`: `Duplicate value: <value>`. */
export function duplicateError(field: string, value: unknown): FieldError {
  return { type: CrdErrorType.Duplicate, field, message: `Duplicate value: ${badValueText(value)}` };
}
