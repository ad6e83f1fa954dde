/**
 * What the admission policies and their bindings share (pkg/apis/admissionregistration/validation/
 * validation.go): `validateMatchResources` with its named rules and strict selectors, and the
 * operations a mutating policy may match (`supportedMutatingOperations`).
 */

import { arr, isObject, objects, rec, str } from '../access.js';
import type { FieldError } from '../types.js';
import { duplicate, invalid, notSupported, required, validateLabelSelector } from '../validation.js';
import { isPathSegmentName, isValidLabelValue } from '../validation-names.js';
import { validateRule } from './validation.js';

const MATCH_POLICIES = ['Equivalent', 'Exact'];
/** `supportedMutatingOperations`: a mutating policy cannot match DELETE. */
const MUTATING_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'UPDATE'];

/**
 * `ValidateLabelSelector` as the policies ask for it, strictly (`LabelSelectorValidationOptions{}`):
 * the values of `In`/`NotIn` requirements must be label values too.
 */
export function strictSelector(selector: unknown, field: string): FieldError[] {
  const errors = validateLabelSelector(selector, field);
  objects(rec(selector).matchExpressions).forEach((expr, i) => {
    arr(expr.values).forEach((v, j) => {
      for (const msg of isValidLabelValue(str(v)))
        errors.push(invalid(`${field}.matchExpressions[${i}].values[${j}]`, v, msg));
    });
  });
  return errors;
}

/** `validateNamedRuleWithOperations`. */
function validateNamedRule(rule: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  arr(rule.resourceNames).forEach((raw, i) => {
    const name = str(raw);
    for (const msg of isPathSegmentName(name))
      errors.push(invalid(`${field}.resourceNames[${i}]`, name, msg));
    if (seen.has(name)) errors.push(duplicate(`${field}.resourceNames[${i}]`, name));
    else seen.add(name);
  });
  errors.push(...validateRule(rule, field));
  return errors;
}

/** `validateMatchResources` (a nil one is valid). */
export function validateMatchResources(mc: unknown, field: string): FieldError[] {
  if (!isObject(mc)) return [];
  const errors: FieldError[] = [];
  if (mc.matchPolicy === undefined || mc.matchPolicy === null) errors.push(required(`${field}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(str(mc.matchPolicy)))
    errors.push(notSupported(`${field}.matchPolicy`, mc.matchPolicy, MATCH_POLICIES));
  if (!isObject(mc.namespaceSelector)) errors.push(required(`${field}.namespaceSelector`));
  else errors.push(...strictSelector(mc.namespaceSelector, `${field}.namespaceSelector`));
  if (!isObject(mc.objectSelector)) errors.push(required(`${field}.objectSelector`));
  else errors.push(...strictSelector(mc.objectSelector, `${field}.objectSelector`));
  objects(mc.resourceRules).forEach((r, i) => {
    errors.push(...validateNamedRule(r, `${field}.resourceRules[${i}]`));
  });
  objects(mc.excludeResourceRules).forEach((r, i) => {
    errors.push(...validateNamedRule(r, `${field}.excludeResourceRules[${i}]`));
  });
  return errors;
}

/** The operations a mutating policy's (or binding's) resource rules may name. */
export function mutatingOperations(mc: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const rule of objects(rec(mc).resourceRules)) {
    for (const op of arr(rule.operations)) {
      if (!MUTATING_OPERATIONS.includes(str(op)))
        errors.push(notSupported(`${field}.resourceRules.operations`, op, MUTATING_OPERATIONS));
    }
  }
  return errors;
}
