/**
 * The list side of strategic merge patch (the helpers of upstream
 * `mergeSlice`): the directive keys, `$patch` elements of a merge-keyed list,
 * sets of primitives, `$setElementOrder` and upstream's order rule, with the
 * error helpers every part of the patch shares. Used by strategic.ts to apply
 * a patch and by threeway.ts to build one.
 */
import { StatusError } from '../status.js';
import { getOwn, isJsonObject, type JsonObject, jsonEqual, jsonKind } from './merge.js';
import type { FieldPatchStrategy } from './strategic-rules.js';

// The directive keys, and the list helpers exported below, are shared with threeway.ts;
// the package's API is what index.ts exports.
export const PATCH = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** The list directives addressed to one field of a map patch. */
export interface ListDirectives {
  order?: unknown[];
  deletes?: unknown[];
}

/** Recognises `$setElementOrder/<field>` and `$deleteFromPrimitiveList/<field>` keys. */
export function parseListDirective(
  key: string,
  value: unknown,
  path: string[],
): { kind: keyof ListDirectives; field: string; list: unknown[] } | undefined {
  const prefix = key.startsWith(SET_ELEMENT_ORDER)
    ? SET_ELEMENT_ORDER
    : key.startsWith(DELETE_FROM_PRIMITIVE_LIST)
      ? DELETE_FROM_PRIMITIVE_LIST
      : undefined;
  if (!prefix) return undefined;
  const field = key.slice(prefix.length + 1);
  if (key[prefix.length] !== '/' || field === '') {
    throw bad(`invalid directive key "${key}" at ${show(path)}: expected "${prefix}/<list field>"`);
  }
  if (!Array.isArray(value)) throw bad(`"${key}" at ${show(path)} must be a list, not ${jsonKind(value)}`);
  return { kind: prefix === SET_ELEMENT_ORDER ? 'order' : 'deletes', field, list: value };
}

/** A patch list of a merge-keyed list, its `$patch` elements carried out. */
export interface SplitPatchList {
  /** The list the patch merges into, without the elements `$patch: delete` names. */
  server: unknown[];
  /** The patch's elements that merge (by `key`) into `server`. */
  items: JsonObject[];
  /** A `$patch: replace` element: the list is `items` alone. */
  replace: boolean;
}

/**
 * Separates the `$patch` elements of a merge-keyed patch list (upstream
 * `mergeSliceWithSpecialElements`). Elements whose directive is in `plain`
 * merge like elements without one; other directives are 400 BadRequest.
 */
export function splitPatchList(
  server: unknown[],
  patchList: unknown[],
  key: string,
  path: string[],
  plain: readonly unknown[],
): SplitPatchList {
  const split: SplitPatchList = { server, items: [], replace: false };
  patchList.forEach((item, i) => {
    if (!isJsonObject(item)) throw bad(`${show(path)}[${i}]: elements merged by "${key}" must be objects`);
    const directive = getOwn(item, PATCH);
    if (directive === 'replace') {
      split.replace = true;
      return;
    }
    if (!Object.hasOwn(item, key)) throw bad(`${show(path)}[${i}]: missing merge key "${key}"`);
    if (directive === 'delete') {
      split.server = split.server.filter((s) => !sameKey(s, item, key));
    } else if (plain.includes(directive)) {
      split.items.push(item);
    } else {
      throw bad(`${show(path)}[${i}]: unknown ${PATCH} directive ${JSON.stringify(directive)}`);
    }
  });
  return split;
}

/**
 * A merge list of primitives with the patch list's values added once each
 * (upstream `mergeSlice` for scalars), in upstream's order: values the patch
 * names follow the patch, the others keep their place.
 */
export function unionOfPrimitives(current: unknown[], patchList: unknown[], path: string[]): unknown[] {
  patchList.forEach((item, i) => {
    if (typeof item === 'object' && item !== null) {
      throw bad(`${show(path)}[${i}]: a merge list of primitives cannot hold ${jsonKind(item)}`);
    }
  });
  const merged = [...current];
  for (const item of patchList) if (!merged.some((m) => jsonEqual(m, item))) merged.push(item);
  return arrange(merged, patchList, current, identity);
}

/** `$setElementOrder/<list>`: list items in the given order, server-only items kept near their old place. */
export function applyElementOrder(
  list: unknown[],
  original: unknown[],
  patchList: unknown[],
  order: unknown[],
  path: string[],
  strategy: FieldPatchStrategy,
): unknown[] {
  const key = strategy.mergeKey;
  const shape = key === undefined ? 'a primitive' : `an object with "${key}"`;
  order.forEach((item, i) => {
    const ok =
      key === undefined ? typeof item !== 'object' || item === null : byMergeKey(key)(item) !== NO_ID;
    if (!ok) throw bad(`${SET_ELEMENT_ORDER}/${path.at(-1)}[${i}] must be ${shape}`);
  });
  const id = key === undefined ? identity : byMergeKey(key);
  // The patch list must follow the order list (deletions and other directive items aside).
  const ordered = patchList.filter((item) => !(isJsonObject(item) && Object.hasOwn(item, PATCH)));
  let p = 0;
  for (let s = 0; p < ordered.length && s < order.length; s++) {
    if (sameId(id(ordered[p]), id(order[s]))) p++;
  }
  if (p < ordered.length) {
    throw bad(`the order of ${show(path)} in the patch does not match its $setElementOrder list`);
  }
  return arrange(list, order, original, id);
}

/** What identifies a list element: its merge key value, or the value itself for primitives. */
export type Identify = (item: unknown) => unknown;
export const NO_ID = Symbol('no identity');
const identity: Identify = (item) => item;
export const byMergeKey =
  (key: string): Identify =>
  (item) =>
    isJsonObject(item) && Object.hasOwn(item, key) ? item[key] : NO_ID;

export function sameId(a: unknown, b: unknown): boolean {
  return a !== NO_ID && b !== NO_ID && jsonEqual(a, b);
}

export function sameKey(a: unknown, b: unknown, key: string): boolean {
  const id = byMergeKey(key);
  return sameId(id(a), id(b));
}

function positionIn(list: unknown[], item: unknown, id: Identify): number {
  const wanted = id(item);
  return list.findIndex((other) => sameId(id(other), wanted));
}

/**
 * Upstream's order rule (`normalizeElementOrder` + `mergeSortedSlice`): items
 * named in `wanted` follow its order; the others keep their relative order and
 * are interleaved by their position in `serverOrder`. Items new to the server
 * therefore land before the remaining server-only items, as on a real cluster.
 */
export function arrange(
  merged: unknown[],
  wanted: unknown[],
  serverOrder: unknown[],
  id: Identify,
): unknown[] {
  const patchItems: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of merged) (positionIn(wanted, item, id) >= 0 ? patchItems : serverOnly).push(item);
  const rank = new Map(patchItems.map((item) => [item, positionIn(wanted, item, id)]));
  patchItems.sort((a, b) => rank.get(a)! - rank.get(b)!);

  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (j >= patchItems.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(patchItems[j++]);
    else {
      const left = positionIn(serverOrder, serverOnly[i], id);
      const right = positionIn(serverOrder, patchItems[j], id);
      out.push(left >= 0 && right >= 0 && left < right ? serverOnly[i++] : patchItems[j++]);
    }
  }
  return out;
}

/** `spec.template.spec.containers`, or `<root>`. */
export function show(path: string[]): string {
  return path.length === 0 ? '<root>' : path.join('.');
}

/** A 400 BadRequest StatusError: the patch, or a document it is built from, is malformed. */
export function bad(message: string): StatusError {
  return StatusError.of('BadRequest', message);
}
