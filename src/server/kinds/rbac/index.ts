/** The rbac.authorization.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { clusterRoleKind } from './cluster-role.js';
import { clusterRoleBindingKind } from './cluster-role-binding.js';
import { roleKind } from './role.js';
import { roleBindingKind } from './role-binding.js';

/** The rbac.authorization.k8s.io group's kinds. */
export const rbacKinds: ResourceKind[] = [clusterRoleBindingKind, clusterRoleKind, roleBindingKind, roleKind];
