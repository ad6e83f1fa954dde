/**
 * The VolumeAttributesClass (storage.k8s.io/v1, cluster-scoped): validation
 * (pkg/apis/storage/validation `ValidateVolumeAttributesClass`, `ValidateVolumeAttributesClassUpdate`:
 * the driver and parameters are fixed), the StorageObjectInUseProtection admission plugin's
 * `kubernetes.io/vac-protection` finalizer and the columns (printers.go
 * `printVolumeAttributesClass`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import type { FieldError, ResourceKind } from '../types.js';
import { forbidden, validateObjectMeta } from '../validation.js';
import { addFinalizer, sameStringMap, validateParameters, validateProvisioner } from './class-rules.js';

/** The finalizer StorageObjectInUseProtection gives every new class (volumeutil.VACProtectionFinalizer). */
export const VAC_PROTECTION_FINALIZER = 'kubernetes.io/vac-protection';

/** `ValidateVolumeAttributesClass`: the driver name and at least one parameter. */
export function validateVolumeAttributesClass(obj: KubeObject): FieldError[] {
  const o = obj as Record<string, unknown>;
  return [
    ...validateObjectMeta(obj),
    ...validateProvisioner(o.driverName, 'driverName'),
    ...validateParameters(o.parameters, false, 'parameters'),
  ];
}

/**
 * `ValidateVolumeAttributesClassUpdate`'s own rules, which upstream reports before the class's
 * (so they are given as the whole update validation, the class's after them).
 */
export function validateVolumeAttributesClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const o = obj as Record<string, unknown>;
  const p = old as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (str(o.driverName) !== str(p.driverName))
    errors.push(forbidden('driverName', 'updates to driverName are forbidden.'));
  if (!sameStringMap(o.parameters, p.parameters) || (o.parameters == null) !== (p.parameters == null)) {
    errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  }
  return [...errors, ...validateVolumeAttributesClass(obj)];
}

/** The VolumeAttributesClass's entry in the served kinds. */
export const volumeAttributesClassKind: ResourceKind = builtinKind(
  'storage.k8s.io',
  'v1',
  'volumeattributesclasses',
  {
    validate: (obj, old) => (old ? [] : validateVolumeAttributesClass(obj)),
    validateUpdate: validateVolumeAttributesClassUpdate,
    admitCreate: (obj) => addFinalizer(obj, VAC_PROTECTION_FINALIZER),
    withAdmissionPluginsOff: (disabled) =>
      disabled.has('StorageObjectInUseProtection') ? { admitCreate: undefined } : undefined,
    cells: {
      DriverName: (o) => str((o as Record<string, unknown>).driverName),
      Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    },
  },
);
