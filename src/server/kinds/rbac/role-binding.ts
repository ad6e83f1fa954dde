/**
 * The RoleBinding (rbac.authorization.k8s.io/v1): its defaults (defaults.ts), validation
 * (pkg/apis/rbac/validation `ValidateRoleBinding`, `ValidateRoleBindingUpdate`: the roleRef is
 * immutable), strategy (pkg/registry/rbac/rolebinding/strategy.go: a PUT may create) and Table
 * (printers.go `printRoleBinding`). The escalation check of its storage needs an authorizer;
 * watchmark's user is system:masters, which it lets through.
 */

import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import type { ResourceKind } from '../types.js';
import { defaultBinding } from './defaults.js';
import { bindingCells } from './subjects.js';
import { validateBinding, validateRoleRefUpdate } from './validation.js';

/** The RoleBinding's entry in the served kinds. */
export const roleBindingKind: ResourceKind = builtinKind('rbac.authorization.k8s.io', 'v1', 'rolebindings', {
  defaults: defaultBinding,
  validate: (obj) => validateBinding(obj, true),
  validateUpdate: validateRoleRefUpdate,
  cells: { ...bindingCells, Age: ageColumn.cell },
  allowCreateOnUpdate: true,
});
