import { StatusError } from '../../protocol/status.js';

const MAX_UINT64 = 18446744073709551615n;

/**
 * Why Go's `strconv.ParseUint(value, 10, 64)` rejects `value`, or undefined
 * when it accepts it: decimal digits only (no sign, no spaces), at most 2^64-1.
 */
function parseUintError(value: string): string | undefined {
  if (!/^\d+$/.test(value)) return `strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`;
  if (BigInt(value) > MAX_UINT64)
    return `strconv.ParseUint: parsing ${JSON.stringify(value)}: value out of range`;
  return undefined;
}

/**
 * Where a resourceVersion is parsed, which decides how a bad one is answered:
 * - `storage` (watch, get): the storage versioner's error reaches the client as
 *   it is, a 500 without a reason (k8s.io/apiserver/pkg/storage/api_object_versioner.go
 *   `ParseResourceVersion` returns a storage InvalidError, not an API status;
 *   responsewriters/status.go `ErrorToAPIStatus` makes it a bare 500);
 * - `list`: a 400 BadRequest prefixed `invalid resource version: `
 *   (k8s.io/apiserver/pkg/storage/cacher/delegator.go, the list path's parse).
 */
export type ResourceVersionUse = 'storage' | 'list';

/**
 * Parses a resourceVersion query value as the server orders them: decimal
 * integers. `undefined` and "" mean unset; anything else Go's ParseUint
 * refuses is an error shaped by `use`.
 */
export function parseResourceVersion(
  value: string | undefined,
  use: ResourceVersionUse = 'storage',
): number | undefined {
  if (value === undefined || value === '') return undefined;
  const why = parseUintError(value);
  if (why !== undefined) {
    const message = `resourceVersion: Invalid value: ${JSON.stringify(value)}: ${why}`;
    if (use === 'list') throw StatusError.of('BadRequest', `invalid resource version: ${message}`);
    throw StatusError.plain(message);
  }
  return Number(value);
}

/**
 * Go's `strconv.ParseInt(value, 10, 64)` as the parameter codec applies it to
 * `limit` and `timeoutSeconds`: a value it refuses is a 400 carrying its error
 * text (k8s.io/apimachinery/pkg/runtime/conversion.go `Convert_Slice_string_To_int64`,
 * turned into a BadRequest by endpoints/handlers/get.go).
 */
export function parseQueryInt64(value: string): number {
  const quoted = JSON.stringify(value);
  if (!/^[+-]?\d+$/.test(value)) {
    throw StatusError.of('BadRequest', `strconv.ParseInt: parsing ${quoted}: invalid syntax`);
  }
  const n = BigInt(value);
  if (n > 9223372036854775807n || n < -9223372036854775808n) {
    throw StatusError.of('BadRequest', `strconv.ParseInt: parsing ${quoted}: value out of range`);
  }
  return Number(n);
}

/** One ListOptions field error: `Forbidden` or `Unsupported value`. */
export interface ListOptionsError {
  field: string;
  reason: 'FieldValueForbidden' | 'FieldValueNotSupported';
  /** The cause's message, `Forbidden: ...` or `Unsupported value: ...`. */
  message: string;
}

export function forbidden(field: string, detail: string): ListOptionsError {
  return { field, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
}

export function notSupported(field: string, value: string, supported: string[]): ListOptionsError {
  const values = supported.map((s) => JSON.stringify(s)).join(', ');
  return {
    field,
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${values}`,
  };
}

/**
 * The 422 for ListOptions that fail validation, all errors at once, as
 * endpoints/handlers/get.go answers `ValidateListOptions`
 * (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation.go).
 */
export function invalidListOptions(errors: ListOptionsError[]): StatusError {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  const joined = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return StatusError.of('Invalid', `ListOptions.meta.k8s.io "" is invalid: ${joined}`, {
    kind: 'ListOptions',
    group: 'meta.k8s.io',
    causes: errors.map((e) => ({ reason: e.reason, message: e.message, field: e.field })),
  });
}
