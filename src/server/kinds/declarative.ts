/**
 * The errors of declarative validation (apimachinery pkg/api/validate: the `+k8s:` tags that
 * zz_generated.validations.go applies) where their text is not the handwritten rule's. kube-apiserver
 * (k8s.io/apiserver pkg/registry/rest/validate.go `ValidateDeclarativelyWithMigrationChecks`)
 * drops each handwritten error a declarative one covers and appends the declarative errors after
 * the handwritten ones, so a kind's validation lists these last.
 */

import type { FieldError } from './types.js';
import { FieldErrorType, invalid } from './validation.js';

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const CASELESS_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`, 'i');

/** `field.TooLongCharacters` (`+k8s:maxLength`): `Too long: may not be more than N characters`. */
export function tooLongCharacters(field: string, max: number): FieldError {
  return {
    type: FieldErrorType.TooLong,
    field,
    message: `Too long: may not be more than ${max} ${max === 1 ? 'character' : 'characters'}`,
  };
}

/** `+k8s:maxLength`: the string's length in characters (runes) above `max`. */
export function maxLength(value: string, field: string, max: number): FieldError[] {
  return [...value].length > max ? [tooLongCharacters(field, max)] : [];
}

/** `field.TooMany` (`+k8s:maxItems`): `Too many: 5: must have at most 4 items`. */
export function tooMany(field: string, actual: number, max: number): FieldError {
  return {
    type: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
  };
}

/** `+k8s:maxItems`: a list longer than `max`. */
export function maxItems(list: unknown, field: string, max: number): FieldError[] {
  return Array.isArray(list) && list.length > max ? [tooMany(field, list.length, max)] : [];
}

/**
 * `+k8s:format=k8s-long-name-caseless` (validate.LongNameCaseless, content
 * `IsDNS1123SubdomainCaseless`): a DNS subdomain in either case, at most 253 characters.
 */
export function longNameCaseless(value: string, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (value.length > 253) errors.push(invalid(field, value, 'must be no more than 253 characters'));
  if (!CASELESS_SUBDOMAIN_RE.test(value)) {
    errors.push(
      invalid(
        field,
        value,
        "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '" +
          DNS1123_SUBDOMAIN_FMT +
          "')",
      ),
    );
  }
  return errors;
}

/** `+k8s:immutable` (validate.Immutable): the value is not echoed. */
export function immutable(field: string): FieldError {
  return invalid(field, null, 'field is immutable');
}
