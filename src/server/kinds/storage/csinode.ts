/**
 * The CSINode (storage.k8s.io/v1, cluster-scoped, named after its node): validation
 * (pkg/apis/storage/validation `ValidateCSINode`, `ValidateCSINodeUpdate`: a driver named again
 * keeps all but its allocatable count, MutableCSINodeAllocatableCount being on), its strategy
 * (pkg/registry/storage/csinode/strategy.go: updates need a resourceVersion) and the columns
 * (printers.go `printCSINode`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, child, isObject, rec, sameJson, specOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { validateCSIDriverName } from '../core/volume/sources.js';
import { goStruct } from '../field-value.js';
import type { FieldError, ResourceKind } from '../types.js';
import { duplicate, invalid, required, validateNonNegative, validateObjectMeta } from '../validation.js';
import { isQualifiedName } from '../validation-names.js';

/**
 * The spec as the v1 type writes it: `drivers` has no omitempty, so a spec without drivers is
 * answered as `{"drivers": null}`.
 */
export function completeCSINode(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec && !('drivers' in spec)) spec.drivers = null;
}

/** `validateCSINodeDriver` of each driver: name, node ID, allocatable count, topology keys. */
function validateDrivers(drivers: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  arr(drivers).forEach((d, i) => {
    const driver = rec(d);
    const path = `spec.drivers[${i}]`;
    const name = str(driver.name);
    errors.push(...validateCSIDriverName(name, `${path}.name`));
    const nodeID = str(driver.nodeID);
    if (nodeID === '') errors.push(required(`${path}.nodeID`));
    if (nodeID.length > 256) errors.push(invalid(`${path}.nodeID`, nodeID, 'must be 256 characters or less'));
    const count = rec(driver.allocatable).count;
    if (typeof count === 'number') errors.push(...validateNonNegative(count, `${path}.allocatable.count`));
    if (names.has(name)) errors.push(duplicate(`${path}.name`, name));
    names.add(name);
    const keys = new Set<string>();
    for (const k of arr(driver.topologyKeys).map(str)) {
      if (k === '') errors.push(required(path));
      if (keys.has(k)) errors.push(duplicate(path, k));
      keys.add(k);
      for (const msg of isQualifiedName(k)) errors.push(invalid(path, k, msg));
    }
  });
  return errors;
}

/** `ValidateCSINode`: a node's name, and the drivers. */
export function validateCSINode(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validateDrivers(specOf(obj).drivers)];
}

/** A CSINodeDriver as its internal struct marshals, without its allocatable count. */
function goDriver(d: Record<string, unknown>): unknown {
  const alloc = rec(d.allocatable);
  return {
    Name: str(d.name),
    NodeID: str(d.nodeID),
    TopologyKeys: Array.isArray(d.topologyKeys) ? d.topologyKeys : null,
    Allocatable: isObject(d.allocatable) ? { Count: alloc.count ?? null } : null,
  };
}

/** `ValidateCSINodeUpdate`'s own rule: a driver named in both keeps all but its allocatable count. */
export function validateCSINodeUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const o of arr(specOf(old).drivers).map(rec)) {
    for (const n of arr(specOf(obj).drivers).map(rec)) {
      if (str(o.name) !== str(n.name)) continue;
      const a = { ...rec(goDriver(n)), Allocatable: null };
      const b = { ...rec(goDriver(o)), Allocatable: null };
      if (!sameJson(a, b))
        errors.push(invalid('spec.drivers', goStruct(Object.entries(a)), 'field is immutable'));
    }
  }
  return errors;
}

/** The CSINode's entry in the served kinds. */
export const csiNodeKind: ResourceKind = builtinKind('storage.k8s.io', 'v1', 'csinodes', {
  defaults: completeCSINode,
  validate: validateCSINode,
  validateUpdate: validateCSINodeUpdate,
  allowUnconditionalUpdate: false,
  cells: {
    Drivers: (o) => arr(specOf(o).drivers).length,
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
