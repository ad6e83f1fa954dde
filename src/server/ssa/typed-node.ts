/**
 * What the typed walks (to-field-set, merge, compare, remove) share: the node a value is walked
 * by, the element that names a list item, and the errors smd reports (structured-merge-diff
 * typed/helpers.go `resolveSchema`/`deduceAtom`, `listItemToPathElement`,
 * `keyedAssociativeListItemToPathElement`, `setItemToPathElement`; typed/validate.go errors).
 */
import type { ListNode, MapNode, MergeNode } from './merge-schema.js';
import { SCALAR, UNTYPED } from './merge-schema.js';
import {
  type KeyField,
  keyElement,
  type Path,
  type PathElement,
  pathToString,
  valueElement,
} from './path-element.js';

/** A plain JSON object. */
export type JSONObject = Record<string, unknown>;

/** smd `ValidationError`: a path and what is wrong there. */
export interface TypedError {
  readonly path: string;
  readonly message: string;
}

/** smd `ValidationErrors.Error`: one line per error, `path: message`. */
export function typedErrorsText(errors: readonly TypedError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

/** Thrown when a value cannot be walked by its schema (duplicate keys, a list item without its keys). */
export class TypedValueError extends Error {
  constructor(readonly errors: readonly TypedError[]) {
    super(typedErrorsText(errors));
    this.name = 'TypedValueError';
  }
}

/** smd's deduced map (`schema.Deduced` as a map): granular, every value deduced. */
const DEDUCED_MAP: MapNode = {
  kind: 'map',
  relationship: 'separable',
  field: () => undefined,
  values: UNTYPED,
};
/** smd's deduced list: atomic. */
const DEDUCED_LIST: ListNode = { kind: 'list', relationship: 'atomic', keys: [], items: UNTYPED };

/**
 * smd `deduceAtom` for the untyped node: an object (or null, which smd's union atom resolves as a
 * map) is a granular map, an array an atomic list, anything else a scalar. Typed nodes are themselves.
 */
export function resolveNode(node: MergeNode, value: unknown): MapNode | ListNode | typeof SCALAR {
  if (node.kind !== 'untyped') return node;
  if (value === null || value === undefined) return DEDUCED_MAP;
  if (Array.isArray(value)) return DEDUCED_LIST;
  return typeof value === 'object' ? DEDUCED_MAP : SCALAR;
}

/** The node of a map's key: its named field, else the map's values, else a scalar leaf (an unknown field is owned whole). */
export function childNode(node: MapNode, key: string): MergeNode {
  return node.field(key) ?? node.values ?? SCALAR;
}

/** True for a JSON object (not an array, not null). */
export function isObject(v: unknown): v is JSONObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function quoteList(keys: readonly string[]): string {
  return `[${keys.map((k) => JSON.stringify(k)).join(' ')}]`;
}

/**
 * smd `listItemToPathElement` for an associative list: the `k:` element of a keyed item (key
 * fields in schema order, those missing skipped, then sorted) or the `v:` element of a set item.
 * Returns a string (the error message) when the item cannot be named. Built once per item.
 */
export function listItemElement(node: ListNode, item: unknown): PathElement | string {
  const keys = node.keys;
  if (keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isObject(item)) return 'associative list with keys may not have non-map elements';
    if (itemKeys !== null) {
      const known = itemKeys.get(item);
      if (known !== undefined) return known;
    }
    const fields: KeyField[] = [];
    for (const name of keys) {
      const v = item[name];
      if (v !== undefined) fields.push({ name, value: v });
      else {
        // smd keys a missing field by its schema default, when it has one.
        const d = node.keyDefaults?.[name];
        if (d !== undefined && d !== null) fields.push({ name, value: d });
      }
    }
    if (fields.length === 0) {
      return `associative list with keys has an element that omits all key fields ${quoteList(keys)} (and doesn't have default values for any key fields)`;
    }
    const pe = keyElement(fields);
    itemKeys?.set(item, pe);
    return pe;
  }
  if (isObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return valueElement(item);
}

// The elements of keyed-list items met during one write, by item: the live object's items are
// walked by merge and compare, the configuration's by merge and toFieldSet, the merged object's by
// compare and prune; each item's key is built once. Objects do not change during a write.
let itemKeys: Map<object, PathElement> | null = null;

/** Runs `fn` with keyed-list item elements remembered for its duration (one write). */
export function withItemKeys<T>(fn: () => T): T {
  if (itemKeys !== null) return fn();
  itemKeys = new Map();
  try {
    return fn();
  } finally {
    itemKeys = null;
  }
}

/** Records the element of a keyed-list item built by a walk (a merged item is a new object). */
export function rememberItem(item: unknown, pe: PathElement): void {
  if (itemKeys !== null && item !== null && typeof item === 'object') itemKeys.set(item, pe);
}

/** The printed path of `path` (smd `Path.String`), for error messages. */
export function printPath(path: Path): string {
  return pathToString(path);
}

/** smd `value.Equals` of two JSON values (numbers by value, maps by keys and values). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const vb = (b as JSONObject)[k];
    if (vb === undefined || !deepEqual((a as JSONObject)[k], vb)) return false;
  }
  return true;
}

/**
 * smd's "big leaf" rule of the merge and compare walks (`doMap`/`doList`): an atomic map or list,
 * or one that is absent or empty on both sides, is handled as one leaf.
 */
export function isMapLeaf(n: MapNode, lm: JSONObject | null, rm: JSONObject | null): boolean {
  return (
    n.relationship === 'atomic' || ((lm === null || isEmptyObject(lm)) && (rm === null || isEmptyObject(rm)))
  );
}

/** As {@link isMapLeaf}, for lists. */
export function isListLeaf(n: ListNode, ll: unknown[] | null, rl: unknown[] | null): boolean {
  return (
    n.relationship === 'atomic' || ((ll === null || ll.length === 0) && (rl === null || rl.length === 0))
  );
}

/** True for an object with no keys. */
export function isEmptyObject(o: object): boolean {
  for (const _ in o) return false;
  return true;
}
