/**
 * The rules RBAC's four kinds share (pkg/apis/rbac/validation/validation.go): a policy rule's
 * verbs, groups, resources and non-resource URLs (`ValidatePolicyRule`), a binding's roleRef
 * and subjects (`ValidateRoleBinding`, `ValidateRoleBindingSubject`), and the immutable roleRef
 * of an update. Names of roles and bindings need only be path segments (`ValidateRBACName`).
 *
 * The required verbs, roleRef name and subject names are also declared on the v1 types
 * (pkg/apis/rbac/v1/zz_generated.validations.go, Beta): kube-apiserver drops the handwritten
 * errors they cover and appends the declarative ones, in the type's field order, after the rest
 * (apiserver registry/rest/validate.go `ValidateDeclarativelyWithMigrationChecks`). So those come
 * last here, as declarative `Required value`s without the handwritten detail.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, str } from '../access.js';
import { goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  validateLabels,
  validateObjectMeta,
} from '../validation.js';
import {
  isDNS1123Subdomain,
  isPathSegmentName,
  isQualifiedName,
  isValidLabelValue,
} from '../validation-names.js';

/** The group every roleRef and every User or Group subject names. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** `ValidateRBACName`: a name kube-apiserver can put in a request path. */
export const validateRBACName = isPathSegmentName;

/**
 * `ValidatePolicyRule`: at least one verb; a rule of non-resource URLs names no groups,
 * resources or resource names and is a cluster role's only; a resource rule names groups and
 * resources.
 */
export function validatePolicyRule(rule: unknown, namespaced: boolean, field: string): FieldError[] {
  const r = rec(rule);
  const errors: FieldError[] = [];
  const urls = arr(r.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) {
      errors.push(
        invalid(`${field}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'),
      );
    }
    if (arr(r.apiGroups).length > 0 || arr(r.resources).length > 0 || arr(r.resourceNames).length > 0) {
      errors.push(
        invalid(
          `${field}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errors;
  }
  if (arr(r.apiGroups).length === 0) {
    errors.push(required(`${field}.apiGroups`, 'resource rules must supply at least one api group'));
  }
  if (arr(r.resources).length === 0) {
    errors.push(required(`${field}.resources`, 'resource rules must supply at least one resource'));
  }
  return errors;
}

/** `ValidateRole` / `ValidateClusterRole`'s metadata and rules. */
export function validateRoleRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errors = validateObjectMeta(obj, validateRBACName);
  arr(obj.rules).forEach((rule, i) => {
    errors.push(...validatePolicyRule(rule, namespaced, `rules[${i}]`));
  });
  return errors;
}

/** The declarative rule of a role's rules (`Validate_PolicyRule`): each rule names a verb. */
export function declaredRuleErrors(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  arr(obj.rules).forEach((rule, i) => {
    if (arr(rec(rule).verbs).length === 0) errors.push(required(`rules[${i}].verbs`));
  });
  return errors;
}

/**
 * metav1 `ValidateLabelSelector` with `AllowInvalidLabelValueInSelector` false: the shared
 * selector rules and each expression value a label value.
 */
function validateStrictLabelSelector(selector: unknown, field: string): FieldError[] {
  const s = rec(selector);
  const errors = validateLabels(s.matchLabels, `${field}.matchLabels`);
  objects(s.matchExpressions).forEach((expr, i) => {
    const path = `${field}.matchExpressions[${i}]`;
    const values = arr(expr.values);
    switch (str(expr.operator)) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errors.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errors.push(
            forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
          );
        }
        break;
      default:
        errors.push(invalid(`${path}.operator`, expr.operator ?? '', 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(str(expr.key))) errors.push(invalid(`${path}.key`, str(expr.key), msg));
    values.forEach((value, j) => {
      for (const msg of isValidLabelValue(str(value)))
        errors.push(invalid(`${path}.values[${j}]`, value, msg));
    });
  });
  return errors;
}

/**
 * `ValidateClusterRole`'s aggregation rule: at least one selector, each a valid label selector;
 * one metav1 `LabelSelectorAsSelector` cannot turn into a selector is reported again as a whole
 * (its value the nil selector, `null`).
 */
export function validateAggregationRule(obj: KubeObject): FieldError[] {
  if (!isObject(obj.aggregationRule)) return [];
  const field = 'aggregationRule.clusterRoleSelectors';
  const selectors = arr(obj.aggregationRule.clusterRoleSelectors);
  const errors: FieldError[] = [];
  if (selectors.length === 0) {
    errors.push(required(field, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  selectors.forEach((selector, i) => {
    const selectorErrors = validateStrictLabelSelector(selector, `${field}[${i}]`);
    errors.push(...selectorErrors);
    if (selectorErrors.length > 0) errors.push(invalid(`${field}[${i}]`, null, 'invalid label selector.'));
  });
  return errors;
}

/**
 * `ValidateRoleBinding` / `ValidateClusterRoleBinding`: the metadata, a roleRef to a Role or
 * ClusterRole (a ClusterRoleBinding: a ClusterRole) of RBAC's group by a path-segment name, and
 * each subject.
 */
export function validateBinding(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errors = validateObjectMeta(obj, validateRBACName);
  const ref = rec(obj.roleRef);
  const apiGroup = str(ref.apiGroup);
  if (apiGroup !== RBAC_GROUP) errors.push(notSupported('roleRef.apiGroup', apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(ref.kind);
  if (!kinds.includes(kind)) errors.push(notSupported('roleRef.kind', kind, kinds));
  const name = str(ref.name);
  for (const msg of name === '' ? [] : validateRBACName(name))
    errors.push(invalid('roleRef.name', name, msg));
  arr(obj.subjects).forEach((subject, i) => {
    errors.push(...validateSubject(subject, namespaced, `subjects[${i}]`));
  });
  // The declarative rules (`Validate_RoleBinding`): subjects' names, then the roleRef's.
  arr(obj.subjects).forEach((subject, i) => {
    if (str(rec(subject).name) === '') errors.push(required(`subjects[${i}].name`));
  });
  if (name === '') errors.push(required('roleRef.name'));
  return errors;
}

/**
 * `ValidateRoleBindingSubject` but the required name: a ServiceAccount's a DNS subdomain in the core group
 * (and in a ClusterRoleBinding with its namespace); a User or Group in RBAC's group.
 */
export function validateSubject(subject: unknown, namespaced: boolean, field: string): FieldError[] {
  const s = rec(subject);
  const errors: FieldError[] = [];
  const name = str(s.name);
  const apiGroup = str(s.apiGroup);
  // A missing name is the declarative rule's error (validateBinding).
  switch (str(s.kind)) {
    case 'ServiceAccount':
      // core validation `ValidateServiceAccountName`.
      if (name !== '')
        for (const msg of isDNS1123Subdomain(name)) errors.push(invalid(`${field}.name`, name, msg));
      if (apiGroup !== '') errors.push(notSupported(`${field}.apiGroup`, apiGroup, ['']));
      if (!namespaced && str(s.namespace) === '') errors.push(required(`${field}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errors.push(notSupported(`${field}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errors.push(notSupported(`${field}.kind`, str(s.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errors;
}

/**
 * `ValidateRoleBindingUpdate` / `ValidateClusterRoleBindingUpdate`: the roleRef never changes
 * (`ValidateImmutableField`; the internal RoleRef has no json tags, so its value prints under
 * the Go field names).
 */
export function validateRoleRefUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = rec(obj.roleRef);
  const was = rec(old.roleRef);
  const same = (['apiGroup', 'kind', 'name'] as const).every((k) => str(now[k]) === str(was[k]));
  if (same) return [];
  const value = goStruct([
    ['APIGroup', str(now.apiGroup)],
    ['Kind', str(now.kind)],
    ['Name', str(now.name)],
  ]);
  return [invalid('roleRef', value, 'field is immutable')];
}
