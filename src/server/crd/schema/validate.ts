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
 * The walk itself is openapi-walk.ts, with clean.ts's quick check asked first; the paths it
 * reports are kube-openapi's, whose leading `.` at the root the conversion here trims.
 */
import type { FieldError } from '../../kinds/types.js';
import { type CelHook, runCel } from './cel-walk.js';
import type { OpenAPIError } from './checks.js';
import { isClean } from './clean.js';
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
import { validateListSetsAndMaps } from './list-type.js';
import { openApiErrors } from './openapi-walk.js';
import { isJsonObject, type Structural } from './structural.js';

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
    : openApiErrors(
        schema,
        value,
        options.oldObject === undefined ? undefined : { value: options.oldObject },
      ).filter((e) => !seen.has(e.message) && seen.add(e.message));
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
