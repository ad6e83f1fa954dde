/**
 * metav1.Condition lists as apimachinery's meta/v1 validation checks them
 * (`ValidateConditions`, `ValidateCondition` in pkg/apis/meta/v1/validation/validation.go):
 * one condition per type, each with a qualified-name type, a True/False/Unknown status, a
 * transition time, a CamelCase reason and a message of at most 32 KiB.
 */

import { isObject, objects, str } from '../access.js';
import type { FieldError } from '../types.js';
import { duplicate, invalid, notSupported, required, tooLong } from '../validation.js';
import { isQualifiedName } from '../validation-names.js';

const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);
const MAX_REASON = 1024;
const MAX_MESSAGE = 32 * 1024;

/** `IsValidConditionReason`'s message, as RegexError writes it. */
const REASON_MESSAGE =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";

/** `ValidateConditions` of the list at `field`. */
export function validateConditions(conditions: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  objects(conditions).forEach((c, i) => {
    const path = `${field}[${i}]`;
    const type = str(c.type);
    if (seen.has(type)) errors.push(duplicate(path, type));
    else seen.add(type);
    errors.push(...validateCondition(c, path));
  });
  return errors;
}

/** `ValidateCondition`: one condition. */
function validateCondition(c: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(c.type);
  if (type === '') errors.push(required(`${path}.type`, 'is required'));
  else for (const msg of isQualifiedName(type)) errors.push(invalid(`${path}.type`, type, msg));
  const status = str(c.status);
  if (status === '') errors.push(required(`${path}.status`));
  else if (!['False', 'True', 'Unknown'].includes(status)) {
    errors.push(notSupported(`${path}.status`, status, ['False', 'True', 'Unknown']));
  }
  if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) {
    errors.push(
      invalid(`${path}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'),
    );
  }
  if (!isObject(c) || typeof c.lastTransitionTime !== 'string' || c.lastTransitionTime === '') {
    errors.push(required(`${path}.lastTransitionTime`));
  }
  const reason = str(c.reason);
  if (reason === '') errors.push(required(`${path}.reason`));
  else {
    if (!REASON_RE.test(reason)) errors.push(invalid(`${path}.reason`, reason, REASON_MESSAGE));
    if (reason.length > MAX_REASON) errors.push(tooLong(`${path}.reason`, MAX_REASON));
  }
  if (str(c.message).length > MAX_MESSAGE) errors.push(tooLong(`${path}.message`, MAX_MESSAGE));
  return errors;
}
