/**
 * Field ownership on a write (structured-merge-diff merge/update.go `Updater`): `update` records a
 * non-apply write (the writer takes what it changed, others lose what changed, never a conflict);
 * `apply` merges a configuration, drops the fields this applier stopped applying that nobody else
 * owns (`prune`), and refuses, unless forced, a change to a field another manager owns.
 *
 * One schema serves every version here: a manager's set recorded at another apiVersion is compared
 * against the same object (smd converts the object to each manager's version first; the servers'
 * versions of one kind share their field layout, and watchmark does not convert between them).
 * A set recorded in another group (an events.k8s.io/v1 write's, seen through core/v1) is dropped:
 * the endpoint's converter knows only its own group's versions, and smd drops a manager whose
 * version it cannot convert to (`IsMissingVersionError`).
 */
import { type Comparison, compare, excludeFields } from './compare.js';
import { type Conflict, ConflictsError, conflictsFromManagers } from './conflict.js';
import { FieldSet } from './field-set.js';
import { fieldsV1ToSet, setToFieldsV1 } from './fields-v1.js';
import { rawEmpty, rawHasAny, rawWithin } from './fields-v1-raw.js';
import { type VersionedSet, withSet } from './managed-fields.js';
import { merge } from './merge.js';
import type { ListNode, MapNode, MergeNode } from './merge-schema.js';
import { ElementType } from './path-element.js';
import { reconcileFieldsV1 } from './reconcile.js';
import { removeItems } from './remove.js';
import { toFieldSet, toFieldSetLenient } from './to-field-set.js';
import { deepEqual, resolveNode } from './typed-node.js';

/** Manager identifier to its versioned set (smd `fieldpath.ManagedFields`). */
export type ManagerSets = Map<string, VersionedSet>;

/** What the updater needs besides the objects. */
export interface UpdaterOptions {
  readonly node: MergeNode;
  /** The version written (smd `fieldpath.APIVersion`). */
  readonly apiVersion: string;
  /** Fields the write may not own (the strategy's reset fields, smd `IgnoredFields`), e.g. `status` on the main resource. */
  readonly ignoredFields?: FieldSet | undefined;
}

/** The group of an apiVersion (`''` for `v1`). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** smd `Updater.update`: managers other than `workflow` lose changed fields; conflicts unless `force`. */
function updateManagers(
  live: unknown,
  next: unknown,
  managers: ManagerSets,
  workflow: string,
  force: boolean,
  opts: UpdaterOptions,
): Comparison {
  const cmp = excludeFields(compare(live, next, opts.node), opts.ignoredFields);
  const changed = cmp.modified.union(cmp.added);
  const conflicts = new Map<string, FieldSet>();
  const removedFrom: string[] = [];
  const anyRemoved = !cmp.removed.empty();
  const group = groupOf(opts.apiVersion);
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    if (vs.apiVersion !== opts.apiVersion && groupOf(vs.apiVersion) !== group) {
      managers.delete(manager);
      continue;
    }
    // An entry read as it was stored is asked on its FieldsV1 first: most share nothing with the change.
    if (vs.raw === undefined || rawHasAny(vs.raw, changed)) {
      const conflict = vs.set.intersection(changed);
      if (!conflict.empty()) conflicts.set(manager, conflict);
    }
    if (anyRemoved && (vs.raw === undefined || rawHasAny(vs.raw, cmp.removed))) removedFrom.push(manager);
  }
  if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
  for (const [manager, conflict] of conflicts) {
    const vs = managers.get(manager) as VersionedSet;
    managers.set(manager, withSet(vs, vs.set.difference(conflict)));
  }
  for (const manager of removedFrom) {
    const vs = managers.get(manager) as VersionedSet;
    managers.set(manager, withSet(vs, vs.set.difference(cmp.removed)));
  }
  for (const [manager, vs] of managers) {
    if (vs.raw !== undefined ? rawEmpty(vs.raw) : vs.set.empty()) managers.delete(manager);
  }
  return cmp;
}

/**
 * update.go `reconcileManagedFieldsWithSchemaChanges`, the first step of Update and Apply: each
 * manager's set in line with the current schema (reconcile.ts). In place; sets read from storage
 * are only read, and replaced only when they change.
 */
function reconcileManagers(managers: ManagerSets, node: MergeNode): void {
  for (const [manager, vs] of managers) {
    const reconciled = reconcileFieldsV1(vs.raw ?? setToFieldsV1(vs.set), node);
    if (reconciled === undefined) continue;
    managers.set(manager, { set: fieldsV1ToSet(reconciled), apiVersion: vs.apiVersion, applied: vs.applied });
  }
}

/** smd `Updater.Update`: `managers` is changed in place. Returns nothing; the object is `next`. */
export function updaterUpdate(
  live: unknown,
  next: unknown,
  managers: ManagerSets,
  manager: string,
  opts: UpdaterOptions,
): void {
  reconcileManagers(managers, opts.node);
  const cmp = updateManagers(live, next, managers, manager, true, opts);
  const previous = managers.get(manager)?.set ?? new FieldSet();
  let set = previous.difference(cmp.removed).union(cmp.modified).union(cmp.added);
  if (opts.ignoredFields !== undefined) set = set.recursiveDifference(opts.ignoredFields);
  if (set.empty()) managers.delete(manager);
  else managers.set(manager, { set, apiVersion: opts.apiVersion, applied: false });
}

/**
 * smd `Updater.Apply`: the merged and pruned object, or undefined when it equals `live` (a no-op,
 * smd's `returnInputOnNoop` unset). `managers` is changed in place, also when it throws (pass a
 * copy). Throws {@link ConflictsError} (not forced) and TypedValueError (a configuration with
 * duplicate or unnamed list items).
 */
export function updaterApply(
  live: unknown,
  config: unknown,
  managers: ManagerSets,
  manager: string,
  force: boolean,
  opts: UpdaterOptions,
): unknown {
  reconcileManagers(managers, opts.node);
  let next = merge(live, config, opts.node);
  const lastSet = managers.get(manager);
  let set = toFieldSet(config, opts.node);
  if (opts.ignoredFields !== undefined) set = set.recursiveDifference(opts.ignoredFields);
  managers.set(manager, { set, apiVersion: opts.apiVersion, applied: true });
  next = prune(next, managers, manager, lastSet, opts.node);
  updateManagers(live, next, managers, manager, force, opts);
  return deepEqual(live, next) ? undefined : next;
}

/** smd `Updater.prune` with `addBackOwnedItems` and `addBackDanglingItems`, in one version. */
function prune(
  merged: unknown,
  managers: ManagerSets,
  applier: string,
  lastSet: VersionedSet | undefined,
  node: MergeNode,
): unknown {
  if (lastSet === undefined || lastSet.set.empty()) return merged;
  // When the applier still applies every path it applied last time, nothing is pruned: each of
  // those paths (and every ancestor of one: list items and map keys are members, named fields are
  // made members) is owned, so addBackOwnedItems restores them all and addBackDanglingItems removes
  // nothing. The common re-apply skips the five walks below.
  const current = managers.get(applier)?.set;
  const unchanged =
    current !== undefined &&
    (lastSet.raw !== undefined ? rawWithin(lastSet.raw, current) : lastSet.set.isSubsetOf(current));
  if (unchanged) return merged;
  const last = ensureNamedFieldsAreMembers(lastSet.set, node);
  const pruned1 = removeItems(merged, last, node);
  // addBackOwnedItems: remove from merged only what pruning removed and no manager owns.
  let managed = new FieldSet();
  for (const vs of managers.values()) managed = managed.union(vs.set);
  const mergedSet = ensureNamedFieldsAreMembers(toFieldSetLenient(merged, node), node);
  const pruned1Set = ensureNamedFieldsAreMembers(toFieldSetLenient(pruned1, node), node);
  const pruned2 = removeItems(
    merged,
    mergedSet.difference(pruned1Set.union(ensureNamedFieldsAreMembers(managed, node))),
    node,
  );
  // addBackDanglingItems: of what is still removed, only what the last apply owned goes.
  const pruned2Set = ensureNamedFieldsAreMembers(toFieldSetLenient(pruned2, node), node);
  return removeItems(merged, mergedSet.difference(pruned2Set).intersection(last), node);
}

/**
 * smd `Set.EnsureNamedFieldsAreMembers`: a named struct field that is only a prefix in the set
 * becomes a member too, so removing the set removes the (emptied) struct field.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, node: MergeNode | undefined): FieldSet {
  const out = new FieldSet();
  if (set.members !== null) out.members = new Map(set.members);
  if (set.children === null) return out;
  const map =
    node !== undefined && node.kind !== 'untyped' && node.kind === 'map' ? (node as MapNode) : undefined;
  const list = node !== undefined && node.kind === 'list' ? (node as ListNode) : undefined;
  const deduced = node !== undefined && node.kind === 'untyped' ? resolveNode(node, {}) : undefined;
  out.children = new Map();
  for (const [k, c] of set.children) {
    let childNode: MergeNode | undefined;
    if (c.pe.type === ElementType.Field && (map !== undefined || deduced !== undefined)) {
      const m = (map ?? deduced) as MapNode;
      const named = m.field(c.pe.fieldName as string);
      if (named !== undefined) {
        out.insertMember(c.pe);
        childNode = named;
      } else childNode = m.values;
    } else if (c.pe.type === ElementType.Key && list !== undefined) {
      childNode = list.items;
    }
    out.children.set(k, { pe: c.pe, set: ensureNamedFieldsAreMembers(c.set, childNode) });
  }
  return out;
}

export type { Conflict };
