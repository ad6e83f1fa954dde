/**
 * The IPAddress (networking.k8s.io/v1): validation (pkg/apis/networking/validation
 * `ValidateIPAddress`, `ValidateIPAddressUpdate`: the name an address in canonical form, the
 * parent reference required and immutable) and printers.go `printIPAddress` (its row's age
 * beyond its columns).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, rec, sameJson, specOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import type { FieldError } from '../types.js';
import { invalid, required, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../validation-names.js';
import { isValidIP } from './ip.js';

/**
 * `validateIPAddressParentReference`. Its Required errors are covered by declarative validation,
 * which reports them after the hand-written ones: they go to `late`.
 */
function validateParentRef(ref: unknown, late: FieldError[]): FieldError[] {
  if (!isObject(ref)) {
    late.push(required('spec.parentRef'));
    return [];
  }
  const path = 'spec.parentRef';
  const errors: FieldError[] = [];
  const group = str(ref.group);
  if (group !== '')
    for (const msg of isDNS1123Subdomain(group)) errors.push(invalid(`${path}.group`, group, msg));
  for (const f of ['resource', 'name'] as const) {
    const v = str(ref[f]);
    if (v === '') late.push(required(`${path}.${f}`));
    else for (const msg of isPathSegmentName(v)) errors.push(invalid(`${path}.${f}`, v, msg));
  }
  const namespace = str(ref.namespace);
  if (namespace !== '') {
    for (const msg of isPathSegmentName(namespace)) errors.push(invalid(`${path}.namespace`, namespace, msg));
  }
  return errors;
}

/**
 * `ValidateIPAddress`, and on an update `ValidateIPAddressUpdate`'s immutable parent, which
 * declarative validation reports (last, its value `null`).
 */
export function validateIPAddress(obj: KubeObject, old?: KubeObject): FieldError[] {
  const late: FieldError[] = [];
  const errors = [...validateObjectMeta(obj, isValidIP), ...validateParentRef(rec(obj.spec).parentRef, late)];
  if (old && !sameJson(rec(obj.spec).parentRef ?? null, specOf(old).parentRef ?? null)) {
    late.push(invalid('spec.parentRef', null, 'field is immutable'));
  }
  return [...errors, ...late];
}

/** The empty strings the Go type leaves out (`group`, `namespace` are `omitempty`). */
export function defaultIPAddress(obj: KubeObject): void {
  const ref = rec(obj.spec).parentRef;
  if (!isObject(ref)) return;
  for (const f of ['group', 'namespace']) if (ref[f] === '') delete ref[f];
}

/** `printIPAddress`'s parent: `resource.group/namespace/name`. */
function parentCell(o: KubeObject): string {
  const ref = specOf(o).parentRef;
  if (!isObject(ref)) return '<none>';
  const group = str(ref.group);
  let text = (group ? `${str(ref.resource)}.${group}` : str(ref.resource)).toLowerCase();
  if (str(ref.namespace) !== '') text += `/${str(ref.namespace)}`;
  return `${text}/${str(ref.name)}`;
}

/** The IPAddress's entry in the served kinds. */
export const ipAddressKind = builtinKind('networking.k8s.io', 'v1', 'ipaddresses', {
  defaults: defaultIPAddress,
  validate: validateIPAddress,
  cells: { ParentRef: parentCell },
  // printIPAddress appends the age, for which its column definitions have no column.
  trailingCells: (o, now) => [ageColumn.cell(o, now) as string],
});
