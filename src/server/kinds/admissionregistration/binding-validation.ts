/**
 * The admission policy bindings' validation (pkg/apis/admissionregistration/validation/
 * validation.go: `validateValidatingAdmissionPolicyBindingSpec`,
 * `validateMutatingAdmissionPolicyBindingSpec`, `validateParamRef`, `validateValidationActions`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, rec, str } from '../access.js';
import type { FieldError } from '../types.js';
import { duplicate, forbidden, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../validation-names.js';
import { mutatingOperations, strictSelector, validateMatchResources } from './match-resources.js';

const ACTIONS = ['Audit', 'Deny', 'Warn'];

/** `validateParamRef` (a nil one is valid). */
function validateParamRef(pr: unknown, field: string): FieldError[] {
  if (!isObject(pr)) return [];
  const errors: FieldError[] = [];
  const name = str(pr.name);
  const hasSelector = isObject(pr.selector);
  if (name !== '') {
    for (const msg of isPathSegmentName(name)) errors.push(invalid(`${field}.name`, name, msg));
    if (hasSelector) errors.push(forbidden(`${field}.name`, 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errors.push(...strictSelector(pr.selector, `${field}.selector`));
    if (name !== '') errors.push(forbidden(`${field}.selector`, 'name and selector are mutually exclusive'));
  }
  if (name === '' && !hasSelector) errors.push(required(field, 'one of name or selector must be specified'));
  const action = str(pr.parameterNotFoundAction);
  if (action === '') errors.push(required(`${field}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow')
    errors.push(notSupported(`${field}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return errors;
}

/** `validateValidationActions`. */
function validateValidationActions(actions: unknown, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const list = arr(actions);
  list.forEach((a, i) => {
    const action = str(a);
    if (!ACTIONS.includes(action)) errors.push(notSupported(`${field}[${i}]`, action, ACTIONS));
    if (seen.has(action)) errors.push(duplicate(`${field}[${i}]`, action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errors.push(
      invalid(
        field,
        list,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  // Declarative validation's `+k8s:required` answers for it (beta in 1.37), without the hand-written detail.
  if (seen.size === 0) errors.push(required(field));
  return errors;
}

/** The policy name, paramRef and matchResources checks both binding kinds share. */
function validateBindingCommon(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  const policyName = str(spec.policyName);
  if (policyName === '') errors.push(required('spec.policyName'));
  else
    for (const msg of isDNS1123Subdomain(policyName))
      errors.push(invalid('spec.policyName', policyName, msg));
  errors.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  errors.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'));
  return errors;
}

/** `ValidateValidatingAdmissionPolicyBinding` (its update form is the same). */
export function validateValidatingAdmissionPolicyBinding(obj: KubeObject): FieldError[] {
  const errors = validateBindingCommon(obj);
  errors.push(...validateValidationActions(rec(obj.spec).validationActions, 'spec.validationActions'));
  return errors;
}

/** `ValidateMutatingAdmissionPolicyBinding` (its update form is the same). */
export function validateMutatingAdmissionPolicyBinding(obj: KubeObject): FieldError[] {
  const errors = validateBindingCommon(obj);
  const spec = rec(obj.spec);
  if (isObject(spec.matchResources))
    errors.push(...mutatingOperations(spec.matchResources, 'spec.matchResources'));
  return errors;
}
