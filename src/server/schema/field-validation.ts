/**
 * The `fieldValidation` query parameter of a write: what the server says about fields a typed
 * object does not have. Whatever it says, they are dropped: kube-apiserver decodes built-in
 * kinds into Go structs, which have nowhere to keep them.
 *
 * - `Warn` (the default, `handlers/rest.go fieldValidation`): the answer carries a `Warning`
 *   header per field, `unknown field "spec.foo"`;
 * - `Ignore`: nothing is said;
 * - `Strict`: the write is refused, every unknown field listed.
 */
import { StatusError } from '../../protocol/status.js';

/** The three directives. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The options type whose validation refuses a bad value, by verb. */
export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

const SUPPORTED = ['', 'Ignore', 'Strict', 'Warn'];

/**
 * The directive a write asked for. Anything else is refused as kube-apiserver's options
 * validation does (apimachinery meta/v1/validation `ValidateFieldValidation`, reported by the
 * handlers with `errors.NewInvalid(<Kind>Options.meta.k8s.io, "", errs)`): 422.
 */
export function fieldValidationOf(query: URLSearchParams, options: WriteOptionsKind): FieldValidation {
  const value = query.get('fieldValidation') ?? '';
  if (value === '') return 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  const message = `Unsupported value: ${JSON.stringify(value)}: supported values: ${SUPPORTED.map((s) => JSON.stringify(s)).join(', ')}`;
  throw StatusError.of('Invalid', `${options}.meta.k8s.io "" is invalid: fieldValidation: ${message}`, {
    group: 'meta.k8s.io',
    kind: options,
    causes: [{ reason: 'FieldValueNotSupported', message, field: 'fieldValidation' }],
  });
}
