/**
 * The ClusterRoleBinding (rbac.authorization.k8s.io/v1): its defaults (defaults.ts), validation
 * (pkg/apis/rbac/validation `ValidateClusterRoleBinding`: a ClusterRole only, service accounts
 * with their namespace; `ValidateClusterRoleBindingUpdate`: the roleRef is immutable), strategy
 * (pkg/registry/rbac/clusterrolebinding/strategy.go: a PUT may create) and Table (printers.go
 * `printClusterRoleBinding`).
 */

import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import type { ResourceKind } from '../types.js';
import { defaultBinding } from './defaults.js';
import { bindingCells } from './subjects.js';
import { validateBinding, validateRoleRefUpdate } from './validation.js';

/** The ClusterRoleBinding's entry in the served kinds. */
export const clusterRoleBindingKind: ResourceKind = builtinKind(
  'rbac.authorization.k8s.io',
  'v1',
  'clusterrolebindings',
  {
    defaults: defaultBinding,
    validate: (obj) => validateBinding(obj, false),
    validateUpdate: validateRoleRefUpdate,
    cells: { ...bindingCells, Age: ageColumn.cell },
    allowCreateOnUpdate: true,
  },
);
