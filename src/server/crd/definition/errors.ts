/**
 * Field errors worded as apimachinery `field.Error.ErrorBody`
 * (pkg/util/validation/field/errors.go) words them ({@link fieldValueText}): a
 * string value quoted, a number or bool bare, anything else `json.Marshal`ed
 * (`["v1"]`, `null`), an internal struct as a `GoRendered`.
 */

import { fieldValueText, goQuote } from '../../kinds/field-value.js';
import type { FieldError } from '../../kinds/types.js';
import { FieldErrorType } from '../../kinds/validation.js';

function body(head: string, value: unknown, detail: string): string {
  const text = `${head}: ${fieldValueText(value)}`;
  return detail ? `${text}: ${detail}` : text;
}

/** `field.Invalid`. */
export function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: FieldErrorType.Invalid, field, message: body('Invalid value', value, detail) };
}

/** `field.Required`. */
export function required(field: string, detail = ''): FieldError {
  return {
    type: FieldErrorType.Required,
    field,
    message: detail ? `Required value: ${detail}` : 'Required value',
  };
}

/** `field.Forbidden`. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: FieldErrorType.Forbidden, field, message: detail ? `Forbidden: ${detail}` : 'Forbidden' };
}

/** `field.NotSupported`: the supported values quoted and joined. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map(goQuote).join(', ')}` : '';
  return { type: FieldErrorType.NotSupported, field, message: body('Unsupported value', value, detail) };
}

/** `field.Duplicate`. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: FieldErrorType.Duplicate, field, message: body('Duplicate value', value, '') };
}

/** `field.TooMany`: `Too many: 9: must have at most 8 items`. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  return {
    type: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
  };
}

/** `field.Path.Key`: `properties[spec]`. */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}
