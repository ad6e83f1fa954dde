/**
 * The ControllerRevision (apps/v1): validation (pkg/apis/apps/validation
 * `ValidateControllerRevisionCreate`, `ValidateControllerRevisionUpdate`: data a JSON object,
 * fixed once written; a non-negative revision), strategy
 * (pkg/registry/apps/controllerrevision/strategy.go: no create on update) and Table (printers.go
 * `printControllerRevision`: the controller as `kind.group/name`, the revision).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import { GoRendered } from '../field-value.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, required, validateNonNegative, validateObjectMeta } from '../validation.js';

/** `validateControllerRevision`: the metadata and a non-negative revision. */
function validateRevision(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validateNonNegative(obj.revision, 'revision')];
}

/** `ValidateControllerRevisionCreate`: and data that is a JSON object. */
export function validateControllerRevisionCreate(obj: KubeObject): FieldError[] {
  const errors = validateRevision(obj);
  if (obj.data === undefined || obj.data === null) errors.push(required('data', 'data is mandatory'));
  else if (!isObject(obj.data)) errors.push(required('data', 'data must be a valid JSON object'));
  return errors;
}

/**
 * `ValidateControllerRevisionUpdate`'s data rule: it never changes. The bad value is the raw
 * JSON as sent (a RawExtension marshals its bytes, compacted, keys in their order).
 */
export function validateControllerRevisionData(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = JSON.stringify(obj.data ?? null);
  if (now === JSON.stringify(old.data ?? null)) return [];
  return [invalid('data', new GoRendered(now), 'field is immutable')];
}

/** printers.go: the controller owner as `kind.group/name` in lower case, or `<none>`. */
function controllerCell(obj: KubeObject): string {
  const ref = objects(obj.metadata?.ownerReferences).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  const kind = str(ref.kind);
  if (kind === '' && group === '') return str(ref.name);
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${str(ref.name)}`;
}

/** The ControllerRevision's entry in the served kinds. */
export const controllerRevisionKind: ResourceKind = builtinKind('apps', 'v1', 'controllerrevisions', {
  validate: (obj, old) => (old ? validateRevision(obj) : validateControllerRevisionCreate(obj)),
  validateUpdate: validateControllerRevisionData,
  cells: {
    Controller: controllerCell,
    Revision: (o) => (typeof o.revision === 'number' ? o.revision : 0),
    Age: ageColumn.cell,
  },
});
