/**
 * Custom-resource schema errors as kube-apiserver words them: kube-openapi's messages
 * (k8s.io/kube-openapi pkg/validation/errors/schema.go: `InvalidType`, `TooShort`,
 * `ExceedsMinimum`, ...) turned into apimachinery field errors by apiextensions-apiserver
 * pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`.
 *
 * A field error's text is apimachinery pkg/util/validation/field/errors.go `Error.ErrorBody`
 * ({@link fieldValueText}): `spec.size: Invalid value: 0: spec.size in body should be greater
 * than or equal to 1`.
 */

import { fieldValueText, goJsonMarshal, goQuote } from '../../kinds/field-value.js';
import type { FieldError } from '../../kinds/types.js';

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

function body(type: string, value: unknown, detail: string): string {
  const s = `${type}: ${fieldValueText(value)}`;
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
  const values = allowed.map((a) => goQuote(typeof a === 'string' ? a : goJsonMarshal(a)));
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
  return { type: CrdErrorType.Duplicate, field, message: `Duplicate value: ${fieldValueText(value)}` };
}
