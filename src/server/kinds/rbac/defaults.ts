/**
 * RBAC's defaults (pkg/apis/rbac/v1/defaults.go): a binding's roleRef is RBAC's group's
 * (`SetDefaults_RoleBinding`, `SetDefaults_ClusterRoleBinding`) and each subject gets its
 * kind's group (`SetDefaults_Subject`: none for a ServiceAccount, RBAC's for a User or Group).
 * A role's `rules` is not omitempty: Go writes a missing list as `null`.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, str } from '../access.js';
import { RBAC_GROUP } from './validation.js';

/** The defaults of a RoleBinding or ClusterRoleBinding. */
export function defaultBinding(obj: KubeObject): void {
  if (!isObject(obj.roleRef)) obj.roleRef = {};
  const ref = obj.roleRef as Record<string, unknown>;
  if (str(ref.apiGroup) === '') ref.apiGroup = RBAC_GROUP;
  for (const subject of objects(obj.subjects)) {
    if (str(subject.apiGroup) !== '') continue;
    if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = RBAC_GROUP;
  }
}

/** A Role's or ClusterRole's rules, `null` when none were sent (the json tag has no omitempty). */
export function defaultRole(obj: KubeObject): void {
  if (obj.rules === undefined) obj.rules = null;
}
