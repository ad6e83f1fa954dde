/**
 * The admission policies' and their bindings' validation
 * (pkg/apis/admissionregistration/validation/validation.go: `validateValidatingAdmissionPolicySpec`,
 * `validateMutatingAdmissionPolicySpec`, `validateMatchResources`, the bindings' specs and
 * `validateParamRef`), with the CEL compile check of policy-cel.ts.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, str } from '../access.js';
import type { FieldError } from '../types.js';
import { duplicate, invalid, notSupported, required, validateObjectMeta } from '../validation.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../validation-names.js';
import { mutatingOperations, validateMatchResources } from './match-resources.js';
import { type CelResult, type CelVariables, celCompileError } from './policy-cel.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
/** `maxAuditAnnotationValueExpressionLength`. */
const MAX_AUDIT_VALUE_EXPRESSION = 5 * 1024;
/** `maxAuditAnnotations`. */
const MAX_AUDIT_ANNOTATIONS = 20;

const CEL_RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);

/** `isCELIdentifier`. */
function isCelIdentifier(name: string): boolean {
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !CEL_RESERVED.has(name);
}

/** `ValidateQualifiedName`'s errors at `field`. */
function qualifiedName(value: string, field: string): FieldError[] {
  return isQualifiedName(value).map((msg) => invalid(field, value, msg));
}

/** A CEL compile error as `convertCELErrorToValidationError` words it (an Invalid value). */
function celErrors(
  expression: string,
  field: string,
  vars: CelVariables,
  result?: CelResult,
  value = expression,
): FieldError[] {
  const error = celCompileError(expression, vars, result);
  return error === undefined ? [] : [invalid(field, value, error)];
}

/** `validateParamKind`. */
function validateParamKind(pk: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = str(pk.apiVersion);
  if (apiVersion === '') errors.push(required(`${field}.apiVersion`));
  else {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1)
      errors.push(
        invalid(`${field}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`),
      );
    else {
      const [group, version] =
        apiVersion === '/' ? ['', ''] : slashes === 0 ? ['', apiVersion] : apiVersion.split('/');
      if (group !== '') {
        const errs = isDNS1123Subdomain(group!);
        if (errs.length > 0) errors.push(invalid(`${field}.apiVersion`, group, errs.join(',')));
      }
      if (version === '')
        errors.push(invalid(`${field}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const errs = isDNS1035Label(version!);
        if (errs.length > 0) errors.push(invalid(`${field}.apiVersion`, version, errs.join(',')));
      }
    }
  }
  const kind = str(pk.kind);
  if (kind === '') errors.push(required(`${field}.kind`));
  else {
    const errs = isDNS1035Label(kind.toLowerCase());
    if (errs.length > 0)
      errors.push(
        invalid(`${field}.kind`, kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`),
      );
  }
  return errors;
}

/** `validateMatchConditions` (the stateless compiler: no `variables`). */
function validateMatchConditions(conditions: unknown, params: boolean, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const list = objects(conditions);
  if (list.length > 64)
    errors.push({
      type: 'FieldValueTooMany',
      field,
      message: `Too many: ${list.length}: must have at most 64 items`,
    });
  const names = new Set<string>();
  list.forEach((c, i) => {
    const at = `${field}[${i}]`;
    const expression = str(c.expression).trim();
    if (expression === '') errors.push(required(`${at}.expression`));
    else
      errors.push(
        ...celErrors(
          expression,
          `${at}.expression`,
          { params, authorizer: true, composition: false },
          'bool',
        ),
      );
    const name = str(c.name);
    if (name === '') errors.push(required(`${at}.name`));
    else errors.push(...qualifiedName(name, `${at}.name`));
    if (name !== '') {
      if (names.has(name)) errors.push(duplicate(`${at}.name`, name));
      else names.add(name);
    }
  });
  return errors;
}

/** `validateVariable`. */
function validateVariable(v: Record<string, unknown>, params: boolean, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = str(v.name);
  if (name.trim() === '') errors.push(required(`${field}.name`, 'name is not specified'));
  else if (!isCelIdentifier(name))
    errors.push(invalid(`${field}.name`, name, 'must be a valid CEL identifier'));
  const expression = str(v.expression);
  if (expression.trim() === '') errors.push(required(`${field}.expression`, 'expression is not specified'));
  else
    errors.push(
      ...celErrors(expression, `${field}.expression`, { params, authorizer: true, composition: true }),
    );
  return errors;
}

/** `validateValidation`. */
function validateValidation(
  v: Record<string, unknown>,
  params: boolean,
  composition: boolean,
  field: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const expression = str(v.expression);
  if (expression.trim() === '') errors.push(required(`${field}.expression`, 'expression is not specified'));
  else
    errors.push(
      ...celErrors(expression, `${field}.expression`, { params, authorizer: true, composition }, 'bool'),
    );
  const messageExpression = str(v.messageExpression);
  if (messageExpression.length > 0 && messageExpression.trim() === '')
    errors.push(invalid(`${field}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '')
    errors.push(
      ...celErrors(
        messageExpression,
        `${field}.messageExpression`,
        { params, authorizer: false, composition },
        'string',
      ),
    );
  const message = str(v.message);
  if (message.length > 0 && message.trim() === '')
    errors.push(invalid(`${field}.message`, message, 'must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim()))
    errors.push(invalid(`${field}.message`, message, 'must not contain line breaks'));
  if (v.reason !== undefined && v.reason !== null && !REASONS.includes(str(v.reason)))
    errors.push(notSupported(`${field}.reason`, v.reason, REASONS));
  return errors;
}

/** `validateAuditAnnotation`. */
function validateAuditAnnotation(
  name: string,
  a: Record<string, unknown>,
  params: boolean,
  composition: boolean,
  field: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const key = str(a.key);
  if (name !== '') errors.push(...qualifiedName(`${name}/${key}`, `${field}.key`));
  else errors.push(invalid(`${field}.key`, key, 'requires metadata.name be non-empty'));
  const value = str(a.valueExpression);
  const trimmed = value.trim();
  if (trimmed === '') errors.push(required(`${field}.valueExpression`, 'valueExpression is not specified'));
  else if (trimmed.length > MAX_AUDIT_VALUE_EXPRESSION)
    errors.push(
      required(`${field}.valueExpression`, `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION} bytes in length`),
    );
  else
    errors.push(
      ...celErrors(
        trimmed,
        `${field}.valueExpression`,
        { params, authorizer: true, composition },
        'string-or-null',
        value,
      ),
    );
  return errors;
}

/** The failure policy, paramKind and matchConstraints checks both policy kinds share. */
function validatePolicyCommon(spec: Record<string, unknown>, errors: FieldError[]): void {
  if (spec.failurePolicy === undefined || spec.failurePolicy === null)
    errors.push(required('spec.failurePolicy'));
  else if (!FAILURE_POLICIES.includes(str(spec.failurePolicy)))
    errors.push(notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (isObject(spec.paramKind)) errors.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (!isObject(spec.matchConstraints)) errors.push(required('spec.matchConstraints'));
  else {
    errors.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    // At least one resource rule gives the expressions their type information.
    if (arr(spec.matchConstraints.resourceRules).length === 0)
      errors.push(required('spec.matchConstraints.resourceRules'));
  }
}

/** `ValidateValidatingAdmissionPolicy` (and its update form, which ignores nothing a create checks here). */
export function validateValidatingAdmissionPolicy(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  const params = isObject(spec.paramKind);
  validatePolicyCommon(spec, errors);
  errors.push(...validateMatchConditions(spec.matchConditions, params, 'spec.matchConditions'));
  const variables = objects(spec.variables);
  const composition = variables.length > 0;
  variables.forEach((v, i) => {
    errors.push(...validateVariable(v, params, `spec.variables[${i}]`));
  });
  const validations = objects(spec.validations);
  const audits = objects(spec.auditAnnotations);
  if (validations.length === 0 && audits.length === 0) {
    const msg = 'validations or auditAnnotations must contain at least one item';
    errors.push(required('spec.validations', msg), required('spec.auditAnnotations', msg));
    return errors;
  }
  validations.forEach((v, i) => {
    errors.push(...validateValidation(v, params, composition, `spec.validations[${i}]`));
  });
  if (audits.length > MAX_AUDIT_ANNOTATIONS)
    errors.push(
      invalid(
        'spec.auditAnnotations',
        spec.auditAnnotations,
        `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`,
      ),
    );
  const name = str(rec(obj.metadata).name);
  const keys = new Set<string>();
  audits.forEach((a, i) => {
    errors.push(...validateAuditAnnotation(name, a, params, composition, `spec.auditAnnotations[${i}]`));
    const key = str(a.key);
    if (keys.has(key)) errors.push(duplicate(`spec.auditAnnotations[${i}].key`, key));
    keys.add(key);
  });
  return errors;
}

/**
 * `validateMutation`: the patch type and its one body. The expressions' compile check is left
 * out: they build `Object{...}` and `JSONPatch{...}` values, which this check's library cannot parse.
 */
function validateMutation(m: Record<string, unknown>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const patchType = str(m.patchType);
  if (patchType === '') return [required(`${field}.patchType`)];
  const body = (key: string) => {
    const v = m[key];
    if (!isObject(v))
      return [required(`${field}.${key}`, `must be specified when patchType is ${patchType}`)];
    return str(v.expression).trim() === '' ? [required(`${field}.${key}.expression`)] : [];
  };
  if (patchType === 'JSONPatch') {
    errors.push(...body('jsonPatch'));
    if (isObject(m.applyConfiguration))
      errors.push(
        invalid(
          `${field}.applyConfiguration`,
          '{applyConfiguration}',
          'must not be specified when patchType is JSONPatch',
        ),
      );
  } else if (patchType === 'ApplyConfiguration') {
    errors.push(...body('applyConfiguration'));
    if (isObject(m.jsonPatch))
      errors.push(
        invalid(
          `${field}.jsonPatch`,
          '{jsonPatch}',
          'must not be specified when patchType is ApplyConfiguration',
        ),
      );
  } else errors.push(notSupported(`${field}.patchType`, patchType, PATCH_TYPES));
  return errors;
}

/** `ValidateMutatingAdmissionPolicy`. */
export function validateMutatingAdmissionPolicy(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  const params = isObject(spec.paramKind);
  validatePolicyCommon(spec, errors);
  if (isObject(spec.matchConstraints))
    errors.push(...mutatingOperations(spec.matchConstraints, 'spec.matchConstraints'));
  errors.push(...validateMatchConditions(spec.matchConditions, params, 'spec.matchConditions'));
  objects(spec.variables).forEach((v, i) => {
    errors.push(...validateVariable(v, params, `spec.variables[${i}]`));
  });
  const mutations = objects(spec.mutations);
  if (mutations.length === 0)
    errors.push(required('spec.mutations', 'mutations must contain at least one item'));
  mutations.forEach((m, i) => {
    errors.push(...validateMutation(m, `spec.mutations[${i}]`));
  });
  const reinvocation = str(spec.reinvocationPolicy);
  if (reinvocation === '') errors.push(required('spec.reinvocationPolicy'));
  else if (!REINVOCATION_POLICIES.includes(reinvocation))
    errors.push(notSupported('spec.reinvocationPolicy', reinvocation, REINVOCATION_POLICIES));
  return errors;
}

/** `ValidateValidatingAdmissionPolicyStatusUpdate`: each type-checking warning names its field and says something. */
export function validateValidatingAdmissionPolicyStatus(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  objects(rec(rec(obj.status).typeChecking).expressionWarnings).forEach((w, i) => {
    const at = `status.typeChecking.expressionWarnings[${i}]`;
    if (str(w.warning) === '') errors.push(required(`${at}.warning`));
    if (str(w.fieldRef).trim() === '') errors.push(required(`${at}.fieldRef`));
  });
  return errors;
}
