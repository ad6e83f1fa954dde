/**
 * The managedFields of a write through the `scale` subresource, as kube-apiserver keeps them
 * (k8s.io/apimachinery pkg/util/managedfields scalehandler.go, called by the registries'
 * `scaleUpdatedObjectInfo`, e.g. pkg/registry/apps/deployment/storage/storage.go and
 * apiextensions-apiserver pkg/registry/customresource/etcd.go): the parent's entries that own
 * the replicas path become the Scale's `spec.replicas` (`ToSubresource`), the field manager runs
 * on the Scale, and the result goes back to the parent (`ToParent`).
 */

import { fieldsV1ToSet } from '../ssa/index.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  type Managed,
  type ManagedFieldsEntry,
  managerIdentifier,
} from '../ssa/managed-fields.js';

/** The FieldsV1 of a dotted path: `spec.replicas` is `{"f:spec":{"f:replicas":{}}}`. */
function pathFieldsV1(dotted: string): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  for (const part of dotted.split('.').filter(Boolean).reverse()) out = { [`f:${part}`]: out };
  return out;
}

/**
 * The parent's managedFields after a scale update by `manager` that set the replicas from
 * `before` to `after`. Only the replicas can change through a Scale, so the Scale's field manager
 * moves ownership only when they did: the writer's entry (`Update`, subresource `scale`) then
 * owns the replicas path alone, and every other entry loses it, dropped when left empty
 * (ToParent's "steal"). ToParent takes the new entry's time from the parent's entries, which
 * never hold the Scale's manager identifier (its apiVersion is autoscaling/v1): the entry has
 * no time, as on kube-apiserver. An untracked parent stays untracked (skipnonapplied.go).
 */
export function scaleManagedFields(
  parentEntries: unknown,
  parentApiVersion: string,
  replicasPath: string,
  manager: string,
  before: unknown,
  after: unknown,
): ManagedFieldsEntry[] | undefined {
  if (!Array.isArray(parentEntries) || parentEntries.length === 0) return parentEntries as undefined;
  if (before === after) return parentEntries as ManagedFieldsEntry[];
  let parent: Managed;
  try {
    parent = decodeManagedFields(parentEntries);
  } catch {
    // fieldmanager.go `UpdateNoErrors`: a failure leaves the managedFields as they were.
    return parentEntries as ManagedFieldsEntry[];
  }
  const path = fieldsV1ToSet(pathFieldsV1(replicasPath));
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    const set = vs.set.difference(path);
    if (set.empty()) continue;
    // A new versioned set (never a spread of the decoded one, which may carry its source FieldsV1).
    out.fields.set(id, { set, apiVersion: vs.apiVersion, applied: vs.applied });
    out.times.set(id, parent.times.get(id));
  }
  const scaleId = managerIdentifier({
    manager: manager === '' ? 'unknown' : manager,
    operation: 'Update',
    apiVersion: 'autoscaling/v1',
    subresource: 'scale',
  });
  out.fields.set(scaleId, { set: path, apiVersion: parentApiVersion, applied: false });
  out.times.set(scaleId, undefined);
  return encodeManagedFields(out);
}
