/**
 * The subject cells of a binding's wide Table (printers.go `printRoleBinding` with rbac
 * `SubjectsStrings`): users, groups and `namespace/name` service accounts, each list joined by
 * `, `.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { objects, rec, str } from '../access.js';
import type { ColumnCells } from '../builtin.js';

function subjectsOf(obj: KubeObject, kind: string): string[] {
  return objects(obj.subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(s.namespace)}/${str(s.name)}` : str(s.name)));
}

/** The cells of a binding's `Role`, `Users`, `Groups` and `ServiceAccounts` columns. */
export const bindingCells: Omit<ColumnCells, 'Age'> = {
  Role: (o) => `${str(rec(o.roleRef).kind)}/${str(rec(o.roleRef).name)}`,
  Users: (o) => subjectsOf(o, 'User').join(', '),
  Groups: (o) => subjectsOf(o, 'Group').join(', '),
  ServiceAccounts: (o) => subjectsOf(o, 'ServiceAccount').join(', '),
};
