/**
 * Moving a client-side applier's field ownership to its server-side apply
 * manager, as kubectl 1.26+ does after `apply --server-side` on an object
 * that client-side apply managed: client-go's util/csaupgrade
 * (`UpgradeManagedFieldsPatch`, `FindFieldsOwners`). Without it the old
 * `Update` manager keeps owning every field the file once set, so a field
 * removed from the file is never removed from the object.
 *
 * `fieldsV1` is a trie in JSON: `f:<field>`, `k:<key>`, `v:<value>`,
 * `i:<index>` children, `.` marking a node that is itself owned, and `{}` a
 * leaf (structured-merge-diff's fieldpath `Set.ToJSON`).
 */
import type { KubeObject } from '../../protocol/events.js';

/** One `metadata.managedFields` entry. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

/** A `fieldsV1` trie. */
export type FieldsV1 = { [child: string]: FieldsV1 };

/** A JSON patch operation. */
export interface JsonPatchOperation {
  op: 'replace';
  path: string;
  value: unknown;
}

/** The object's managed fields (none when absent). */
export function managedFieldsOf(object: KubeObject): ManagedFieldsEntry[] {
  const entries = object.metadata?.managedFields;
  return Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : [];
}

/**
 * The entries of `operation` owning the field at `path` (`['metadata',
 * 'annotations', 'x']`): csaupgrade `FindFieldsOwners` with a one-path set.
 */
export function fieldOwners(
  entries: ManagedFieldsEntry[],
  operation: 'Apply' | 'Update',
  path: readonly string[],
): ManagedFieldsEntry[] {
  return entries.filter((e) => e.operation === operation && owns(e.fieldsV1 ?? {}, path));
}

function owns(fields: FieldsV1, path: readonly string[]): boolean {
  let node: FieldsV1 | undefined = fields;
  for (const name of path) {
    node = node[`f:${name}`];
    if (!node) return false;
  }
  // A leaf (`{}`) or a node marked `.` is a member of the set; a node with only children is not.
  return Object.keys(node).length === 0 || '.' in node;
}

/**
 * The JSON patch kubectl sends to give the fields of the `Update` managers
 * `csaManagers` to the `Apply` manager `ssaManager` (its entry, or the most
 * recent of theirs renamed and turned into `Apply`), or undefined when there
 * is nothing to move. The patch replaces the whole list and sets
 * resourceVersion, so a concurrent write makes it fail with 409 instead of
 * losing that write's ownership.
 */
export function upgradeManagedFieldsPatch(
  object: KubeObject,
  csaManagers: Iterable<string>,
  ssaManager: string,
  subresource = '',
): JsonPatchOperation[] | undefined {
  const before = managedFieldsOf(object);
  let entries = before;
  for (const csaManager of [...new Set(csaManagers)].sort()) {
    entries = upgraded(entries, csaManager, ssaManager, subresource);
  }
  if (JSON.stringify(entries) === JSON.stringify(before)) return undefined;
  return [
    { op: 'replace', path: '/metadata/managedFields', value: entries },
    { op: 'replace', path: '/metadata/resourceVersion', value: object.metadata?.resourceVersion ?? '' },
  ];
}

/** csaupgrade `upgradedManagedFields`, on a copy. */
function upgraded(
  entries: ManagedFieldsEntry[],
  csaManager: string,
  ssaManager: string,
  subresource: string,
): ManagedFieldsEntry[] {
  const copy = entries.map((e) => ({ ...e }));
  const isCsa = (e: ManagedFieldsEntry) =>
    e.manager === csaManager && e.operation === 'Update' && (e.subresource ?? '') === subresource;
  let target = copy.findIndex(
    (e) => e.manager === ssaManager && e.operation === 'Apply' && (e.subresource ?? '') === subresource,
  );
  if (target < 0) {
    // No Apply entry yet: the most recent CSA entry (managedFields are newest first) becomes it.
    target = copy.findIndex(isCsa);
    if (target < 0) return copy;
    copy[target] = { ...copy[target], operation: 'Apply', manager: ssaManager };
  }
  // Only the CSA entry of the target's apiVersion is merged; the others are dropped.
  const source = copy.find((e) => isCsa(e) && e.apiVersion === copy[target].apiVersion);
  if (source) copy[target].fieldsV1 = unionFields(copy[target].fieldsV1 ?? {}, source.fieldsV1 ?? {});
  return copy.filter((e) => !isCsa(e));
}

/** The union of two field sets, children in structured-merge-diff's order. */
export function unionFields(a: FieldsV1, b: FieldsV1): FieldsV1 {
  const out: FieldsV1 = {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareChildren);
  for (const key of keys) {
    const left = a[key];
    const right = b[key];
    out[key] = left && right ? unionFields(left, right) : structuredClone(left ?? right);
  }
  return out;
}

/** `.` first, then field names, keys, values and indexes (fieldpath's PathElement order), each sorted. */
function compareChildren(x: string, y: string): number {
  const rank = (k: string) => (k === '.' ? 0 : 1 + 'fkvi'.indexOf(k[0]));
  return rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0);
}
