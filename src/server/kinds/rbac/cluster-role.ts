/**
 * The ClusterRole (rbac.authorization.k8s.io/v1): rules that may name non-resource URLs and an
 * aggregation rule (pkg/apis/rbac/validation `ValidateClusterRole`), its strategy
 * (pkg/registry/rbac/clusterrole/strategy.go: a PUT may create; an update keeps accepting
 * selector values the stored object already had wrong, `hasInvalidLabelValueInLabelSelector`)
 * and the default Table (Name, Created At).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { str } from '../access.js';
import { builtinKind } from '../builtin.js';
import type { FieldError, ResourceKind } from '../types.js';
import { defaultRole } from './defaults.js';
import { declaredRuleErrors, validateAggregationRule, validateRoleRules } from './validation.js';

/** `ValidateClusterRole`: metadata, rules (non-resource URLs allowed) and aggregation rule. */
export function validateClusterRole(obj: KubeObject, old?: KubeObject): FieldError[] {
  let aggregation = validateAggregationRule(obj);
  // An update whose stored selectors already fail validates with
  // AllowInvalidLabelValueInSelector: expression values are not checked (a selector they make
  // unparseable is still reported as a whole).
  if (old && validateAggregationRule(old).length > 0) {
    aggregation = aggregation.filter((e) => !/\.values\[\d+\]$/.test(e.field));
  }
  return [...validateRoleRules(obj, false), ...aggregation, ...declaredRuleErrors(obj)];
}

/** The ClusterRole's entry in the served kinds. */
export const clusterRoleKind: ResourceKind = builtinKind('rbac.authorization.k8s.io', 'v1', 'clusterroles', {
  defaults: defaultRole,
  validate: validateClusterRole,
  cells: { 'Created At': (o) => str(o.metadata?.creationTimestamp) },
  allowCreateOnUpdate: true,
});
