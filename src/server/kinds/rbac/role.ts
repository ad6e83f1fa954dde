/**
 * The Role (rbac.authorization.k8s.io/v1): namespaced rules (pkg/apis/rbac/validation
 * `ValidateRole`, `ValidateRoleUpdate`) and its strategy (pkg/registry/rbac/role/strategy.go: a
 * PUT may create, none needs a resourceVersion). No printer is registered for it, so its Table is
 * the default one: Name and Created At. The escalation check of its storage (policybased) needs an
 * authorizer; watchmark's user is system:masters, which it lets through.
 */

import { str } from '../access.js';
import { builtinKind } from '../builtin.js';
import type { ResourceKind } from '../types.js';
import { defaultRole } from './defaults.js';
import { declaredRuleErrors, validateRoleRules } from './validation.js';

/** The Role's entry in the served kinds. */
export const roleKind: ResourceKind = builtinKind('rbac.authorization.k8s.io', 'v1', 'roles', {
  defaults: defaultRole,
  validate: (obj) => [...validateRoleRules(obj, true), ...declaredRuleErrors(obj)],
  cells: { 'Created At': (o) => str(o.metadata?.creationTimestamp) },
  allowCreateOnUpdate: true,
});
