/**
 * Field errors as kube-apiserver reports them (apimachinery `field.Error`),
 * the 422 message built from them (`errors.NewInvalid`), and the name, label
 * and annotation rules every kind shares (`ValidateObjectMeta`).
 *
 * A {@link FieldError}'s `message` is kube's `ErrorBody()`, e.g.
 * `Invalid value: -1: must be greater than or equal to 0`: exactly what a
 * Status cause carries, so `field + ": " + message` is the error's full text.
 */

import type { StatusCause } from '../../protocol/status.js';
import { isObject, objects, rec, str } from './access.js';
import { fieldValueText, type GoRendered, goNamedString, goQuote, goStruct } from './field-value.js';
import type { FieldError, ResourceKind } from './types.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  type NameCheck,
} from './validation-names.js';

/** The `reason` of each cause type (apimachinery `field.ErrorType`). */
export const FieldErrorType = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Duplicate: 'FieldValueDuplicate',
  TooLong: 'FieldValueTooLong',
  Forbidden: 'FieldValueForbidden',
} as const;

function withDetail(body: string, detail: string | undefined): string {
  return detail ? `${body}: ${detail}` : body;
}

/** `field.Required`: `<field>: Required value[: detail]`. */
export function required(field: string, detail?: string): FieldError {
  return { type: FieldErrorType.Required, field, message: withDetail('Required value', detail) };
}

/** `field.Invalid`: `<field>: Invalid value: <value>: detail`. */
export function invalid(field: string, value: unknown, detail: string): FieldError {
  return {
    type: FieldErrorType.Invalid,
    field,
    message: withDetail(`Invalid value: ${fieldValueText(value)}`, detail),
  };
}

/**
 * `field.NotSupported`: `<field>: Unsupported value: "x": supported values: "a", "b"`. The enums
 * kube checks so are named string types (`core.RestartPolicy`), which ErrorBody marshals as JSON.
 */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map(goQuote).join(', ')}` : '';
  return {
    type: FieldErrorType.NotSupported,
    field,
    message: withDetail(
      `Unsupported value: ${fieldValueText(typeof value === 'string' ? goNamedString(value) : value)}`,
      detail,
    ),
  };
}

/** `field.Duplicate`: `<field>: Duplicate value: "x"`. */
export function duplicate(field: string, value: unknown): FieldError {
  return { type: FieldErrorType.Duplicate, field, message: `Duplicate value: ${fieldValueText(value)}` };
}

/** `field.TooLong`: `<field>: Too long: may not be more than N bytes` (the value itself is never echoed). */
export function tooLong(field: string, maxBytes: number): FieldError {
  return { type: FieldErrorType.TooLong, field, message: `Too long: may not be more than ${maxBytes} bytes` };
}

/** `field.Forbidden`: `<field>: Forbidden: detail`. */
export function forbidden(field: string, detail: string): FieldError {
  return { type: FieldErrorType.Forbidden, field, message: withDetail('Forbidden', detail) };
}

/** The full text of one error, as Go's `field.Error.Error()`. */
export function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${e.message}`;
}

/**
 * The message of kube's 422 Invalid Status (`errors.NewInvalid`):
 * `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
 * Several errors are joined as an aggregate, `[a, b]`, with duplicates dropped.
 */
export function formatInvalidMessage(
  kind: Pick<ResourceKind, 'kind' | 'group'>,
  name: string,
  errors: readonly FieldError[],
): string {
  const qualified = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  const head = `${qualified} ${JSON.stringify(name)} is invalid`;
  const texts = [...new Set(errors.map(fieldErrorText))];
  if (texts.length === 0) return head;
  return `${head}: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`;
}

/** The `details.causes` of the 422 Status, as kube-apiserver fills them. */
export function invalidCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }));
}

/** `ValidateNonnegativeField`: integers below zero are invalid. */
export function validateNonNegative(value: unknown, field: string): FieldError[] {
  return typeof value === 'number' && value < 0
    ? [invalid(field, value, 'must be greater than or equal to 0')]
    : [];
}

/** `ValidateLabels`: qualified-name keys and valid label values; every error names the map's path. */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(rec(labels))) {
    for (const msg of isQualifiedName(key)) errors.push(invalid(field, key, msg));
    for (const msg of isValidLabelValue(str(value))) errors.push(invalid(field, value, msg));
  }
  return errors;
}

/** kube's `TotalAnnotationSizeLimitB`: keys plus values, 256 KiB. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** `ValidateAnnotations`: keys are qualified names in any case; all keys and values fit in 256 KiB. */
export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(rec(annotations))) {
    for (const msg of isQualifiedName(key.toLowerCase())) errors.push(invalid(field, key, msg));
    size += Buffer.byteLength(key) + Buffer.byteLength(str(value));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errors.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errors;
}

/**
 * `ValidateObjectMeta` as far as clients can get it wrong: the name (the
 * generic layer has already turned generateName into a name, so a missing
 * name is an error), the namespace's form when present, generation, labels
 * and annotations. `nameCheck` is the kind's rule (DNS-1123 subdomain for most).
 */
export function validateObjectMeta(obj: unknown, nameCheck: NameCheck = isDNS1123Subdomain): FieldError[] {
  const meta = rec(rec(obj).metadata);
  const errors: FieldError[] = [];
  const name = str(meta.name);
  if (name === '') errors.push(required('metadata.name', 'name or generateName is required'));
  else for (const msg of nameCheck(name)) errors.push(invalid('metadata.name', name, msg));
  const namespace = str(meta.namespace);
  if (namespace !== '') {
    for (const msg of isDNS1123Label(namespace)) errors.push(invalid('metadata.namespace', namespace, msg));
  }
  errors.push(...validateNonNegative(meta.generation, 'metadata.generation'));
  errors.push(...validateLabels(meta.labels, 'metadata.labels'));
  errors.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  return errors;
}

/**
 * A `*metav1.LabelSelector` as a bad value: json.Marshal writes its fields in declaration order
 * (`matchLabels`, then `matchExpressions` with `key`, `operator`, `values`), leaving empty ones
 * out (omitempty), and a nil selector as `null`.
 */
export function labelSelectorValue(selector: unknown): GoRendered | null {
  if (!isObject(selector)) return null;
  const fields: Array<[string, unknown]> = [];
  if (isObject(selector.matchLabels) && Object.keys(selector.matchLabels).length > 0) {
    fields.push(['matchLabels', selector.matchLabels]);
  }
  const expressions = objects(selector.matchExpressions);
  if (expressions.length > 0) {
    const requirement = (r: Record<string, unknown>) =>
      goStruct([
        ['key', str(r.key)],
        ['operator', str(r.operator)],
        ...(Array.isArray(r.values) && r.values.length > 0
          ? [['values', r.values] as [string, unknown]]
          : []),
      ]);
    fields.push(['matchExpressions', expressions.map(requirement)]);
  }
  return goStruct(fields);
}

/** `ValidateLabelSelector` for a metav1.LabelSelector (`spec.selector` of workloads). */
export function validateLabelSelector(selector: unknown, field: string): FieldError[] {
  if (!isObject(selector)) return [];
  const errors = validateLabels(selector.matchLabels, `${field}.matchLabels`);
  objects(selector.matchExpressions).forEach((expr, i) => {
    const path = `${field}.matchExpressions[${i}]`;
    const operator = str(expr.operator);
    const values = Array.isArray(expr.values) ? expr.values : [];
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) {
        errors.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      }
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) {
        errors.push(
          forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
    } else {
      errors.push(invalid(`${path}.operator`, expr.operator, 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(str(expr.key))) errors.push(invalid(`${path}.key`, expr.key, msg));
  });
  return errors;
}
