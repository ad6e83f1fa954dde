/**
 * The CSIStorageCapacity (storage.k8s.io/v1, namespaced): validation
 * (pkg/apis/storage/validation `ValidateCSIStorageCapacity`, `ValidateCSIStorageCapacityUpdate`:
 * the node topology and class are immutable), its strategy (updates need a resourceVersion) and
 * the default Table of its REST storage (Name, Created At).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, sameJson, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { validateClassName, validateNonNegativeQuantity } from '../core/volume/common.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, labelSelectorValue, validateLabelSelector, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain } from '../validation-names.js';

/** `ValidateCSIStorageCapacity`. */
export function validateCSIStorageCapacity(obj: KubeObject): FieldError[] {
  const o = obj as Record<string, unknown>;
  const errors = validateObjectMeta(obj);
  errors.push(...validateLabelSelector(o.nodeTopology, 'nodeTopology'));
  const cls = str(o.storageClassName);
  if (cls === '')
    for (const msg of isDNS1123Subdomain(cls)) errors.push(invalid('storageClassName', cls, msg));
  else errors.push(...validateClassName(cls, 'storageClassName'));
  if (o.capacity != null) errors.push(...validateNonNegativeQuantity(o.capacity, 'capacity'));
  return errors;
}

/** `ValidateCSIStorageCapacityUpdate`: the node topology and the class stay. */
export function validateCSIStorageCapacityUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const o = obj as Record<string, unknown>;
  const p = old as Record<string, unknown>;
  const errors: FieldError[] = [];
  const norm = (s: unknown) => (isObject(s) ? labelSelectorValue(s)?.text : null);
  if (norm(o.nodeTopology) !== norm(p.nodeTopology)) {
    errors.push(invalid('nodeTopology', labelSelectorValue(o.nodeTopology), 'field is immutable'));
  }
  if (!sameJson(str(o.storageClassName), str(p.storageClassName))) {
    errors.push(invalid('storageClassName', str(o.storageClassName), 'field is immutable'));
  }
  return errors;
}

/** The CSIStorageCapacity's entry in the served kinds. */
export const csiStorageCapacityKind: ResourceKind = builtinKind(
  'storage.k8s.io',
  'v1',
  'csistoragecapacities',
  {
    validate: validateCSIStorageCapacity,
    validateUpdate: validateCSIStorageCapacityUpdate,
    allowUnconditionalUpdate: false,
    cells: { 'Created At': (o) => o.metadata?.creationTimestamp ?? '' },
  },
);
