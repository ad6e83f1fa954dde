/**
 * The managedFields of a write through the `scale` subresource, as kube-apiserver keeps them
 * (k8s.io/apimachinery pkg/util/managedfields scalehandler.go `ScaleHandler`, called by the
 * registries' `scaleUpdatedObjectInfo.UpdatedObject`, e.g. pkg/registry/apps/deployment/storage/
 * storage.go and apiextensions-apiserver pkg/registry/customresource/etcd.go):
 *
 * 1. `ToSubresource`: the parent's entries that own its replicas path become Scale entries owning
 *    `spec.replicas`, at autoscaling/v1, under the same manager identifiers;
 * 2. the Scale's own field manager runs the write (an update, a patch or an apply, with conflicts
 *    against those entries) on the Scale;
 * 3. `ToParent`: a parent entry that owns the replicas path keeps it only if its identifier is
 *    still among the Scale's entries; every Scale entry owning `spec.replicas` comes back as an
 *    entry owning the parent's path, at the parent's version, with the time the parent had for
 *    that identifier (none for a new one).
 *
 * The identifiers are compared as upstream compares them: an `Update` identifier includes its
 * apiVersion, so a parent `Update` entry (apps/v1) and its Scale form (autoscaling/v1) differ.
 */

import type { FieldSet } from '../ssa/field-set.js';
import { fieldsV1ToSet } from '../ssa/fields-v1.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  type Managed,
  type ManagedFieldsEntry,
} from '../ssa/managed-fields.js';

/** The Scale's replicas path and version (scalehandler.go `replicasPathInScale`, `scaleGroupVersion`). */
const SCALE_API_VERSION = 'autoscaling/v1';

/**
 * scalehandler.go `ResourcePathMappings`: each group/version the parent kind has ever had, and
 * the dotted replicas path there (null: that version has no scale subresource).
 */
export type ReplicasPathMappings = ReadonlyMap<string, string | null>;

/** The field set of one dotted path: `spec.replicas` is `{"f:spec":{"f:replicas":{}}}`. */
function pathSet(dotted: string): FieldSet {
  let fields: Record<string, unknown> = {};
  for (const part of dotted.split('.').filter(Boolean).reverse()) fields = { [`f:${part}`]: fields };
  return fieldsV1ToSet(fields);
}

const REPLICAS_IN_SCALE = pathSet('spec.replicas');

/** smd `Set.Has` of the one path `path` holds. */
function has(set: FieldSet, path: FieldSet): boolean {
  const [only] = path.paths();
  return only !== undefined && set.has(only);
}

/**
 * `ToSubresource`: the Scale's managedFields from the parent's (undefined when none qualifies).
 * Throws a ManagedFieldsError for entries that cannot be decoded (a 500 upstream).
 */
export function toSubresourceEntries(
  parentEntries: unknown,
  mappings: ReplicasPathMappings,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    const path = mappings.get(vs.apiVersion);
    // An entry at a version the kind never had, or without /scale there, is left out.
    if (path === undefined || path === null) continue;
    if (has(vs.set, pathSet(path))) {
      out.fields.set(id, { set: REPLICAS_IN_SCALE, apiVersion: SCALE_API_VERSION, applied: vs.applied });
      out.times.set(id, parent.times.get(id));
    }
  }
  return encodeManagedFields(out);
}

/**
 * `ToParent`: the parent's managedFields after the Scale's field manager produced `scaleEntries`;
 * `requestApiVersion` is the parent's version the request named (apps/v1). Throws a
 * ManagedFieldsError for entries that cannot be decoded.
 */
export function toParentEntries(
  parentEntries: unknown,
  scaleEntries: unknown,
  mappings: ReplicasPathMappings,
  requestApiVersion: string,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale = decodeManagedFields(scaleEntries);
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    const path = mappings.get(vs.apiVersion);
    // An entry at a version the kind never had is dropped.
    if (path === undefined) continue;
    const replicas = path === null ? undefined : pathSet(path);
    if (replicas === undefined || !has(vs.set, replicas)) {
      out.fields.set(id, vs);
      out.times.set(id, parent.times.get(id));
      continue;
    }
    if (!scale.fields.has(id)) {
      // The Scale's write took the replicas from this entry ("steal"); an emptied entry goes.
      const rest = vs.set.difference(replicas);
      if (!rest.empty()) {
        out.fields.set(id, { set: rest, apiVersion: vs.apiVersion, applied: vs.applied });
        out.times.set(id, parent.times.get(id));
      }
    } else {
      out.fields.set(id, vs);
      out.times.set(id, parent.times.get(id));
      scale.fields.delete(id);
    }
  }
  const requestPath = mappings.get(requestApiVersion);
  for (const [id, vs] of scale.fields) {
    if (!has(vs.set, REPLICAS_IN_SCALE)) continue;
    out.fields.set(id, {
      set: requestPath ? pathSet(requestPath) : fieldsV1ToSet({}),
      apiVersion: requestApiVersion,
      applied: vs.applied,
    });
    out.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(out);
}
