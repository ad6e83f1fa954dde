/**
 * Field sets recorded under an older schema, brought in line with the current one before every
 * update and apply (structured-merge-diff typed/reconcile_schema.go `ReconcileFieldSetWithSchema`,
 * called by merge/update.go `reconcileManagedFieldsWithSchemaChanges`): where the schema now says
 * a list or a map is atomic (`x-kubernetes-list-type: atomic`, `x-kubernetes-map-type: atomic`)
 * but a manager's set owns fields inside it, the manager owns the list or map itself instead, as
 * one leaf. The reverse change (atomic to granular) needs nothing: the leaf stays a leaf.
 *
 * A CRD whose author changes a list from `map` or `set` to `atomic` is the case in practice:
 * without this, a manager that owned items keeps owning item paths no write compares any more,
 * and another manager's apply to the list would not conflict with it.
 *
 * The walk reads a manager's FieldsV1 as stored (smd's own form), so an entry that needs no change,
 * nearly all of them, is never decoded into a set.
 */
import type { FieldsV1 } from './fields-v1.js';
import type { ListNode, MapNode, MergeNode } from './merge-schema.js';

type Raw = Record<string, unknown>;

function hasChildren(raw: Raw): boolean {
  for (const k in raw) if (k !== '.') return true;
  return false;
}

/**
 * The FieldsV1 of a whole object with every owned subtree under an atomic list or map collapsed
 * into that list or map, or undefined when nothing changes (smd returns nil then).
 */
export function reconcileFieldsV1(raw: FieldsV1, node: MergeNode): FieldsV1 | undefined {
  if (node.kind !== 'map' && node.kind !== 'list') return undefined;
  return reconcileChildren(raw as Raw, node) as FieldsV1 | undefined;
}

/** The value at one path (its FieldsV1 object), reconciled; undefined when unchanged. */
function reconcileAt(raw: Raw, node: MergeNode): Raw | undefined {
  // A path owned as a leaf (`{}`) is already atomic (smd: `isAtomic` is member without children).
  if (!hasChildren(raw)) return undefined;
  switch (node.kind) {
    case 'scalar':
    case 'untyped':
      // reconcile_schema.go `doScalar` does nothing; an untyped node is smd's deduced map, which
      // `isUntypedDeducedMap` leaves alone.
      return undefined;
    case 'list':
    case 'map':
      // `doList`/`doMap`: granular to atomic, the manager owns the root and none of its fields.
      if (node.relationship === 'atomic') return {};
      return reconcileChildren(raw, node);
  }
}

/** `visitMapItems`/`visitListItems`: each child by its node; fields the schema does not know are left. */
function reconcileChildren(raw: Raw, node: MapNode | ListNode): Raw | undefined {
  let out: Raw | undefined;
  for (const key in raw) {
    if (key === '.') continue;
    // `typeRefAtPath`: a named field's type, else the map's element type (none: skipped).
    const child =
      node.kind === 'list'
        ? node.items
        : key.startsWith('f:')
          ? (node.field(key.slice(2)) ?? node.values)
          : node.values;
    if (child === undefined) continue;
    const value = raw[key];
    if (value === null || typeof value !== 'object') continue;
    const reconciled = reconcileAt(value as Raw, child);
    if (reconciled === undefined) continue;
    out ??= { ...raw };
    out[key] = reconciled;
  }
  return out;
}
