/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), the format
 * of kubectl's client-side `apply` and `set image`, following
 * k8s.io/apimachinery `pkg/util/strategicpatch`. It is JSON merge patch plus:
 * lists that carry a patch merge key merge element by element, `$patch`,
 * `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>` and
 * `$retainKeys` directives. Which lists merge is type metadata (the
 * `patchStrategy`/`patchMergeKey` struct tags of k8s.io/api), kept as a
 * table of field paths in strategic-rules.ts; the list helpers (directive
 * keys, `$patch` elements, element order) are in strategic-lists.ts. This
 * file merges a patch into an object, map by map and list by list, and
 * re-exports the rest, so it stays the one module path importers use.
 */
import { cloneJson, getOwn, isJsonObject, type JsonObject, jsonEqual, jsonKind, setOwn } from './merge.js';
import {
  applyElementOrder,
  arrange,
  bad,
  byMergeKey,
  type ListDirectives,
  PATCH,
  parseListDirective,
  RETAIN_KEYS,
  sameKey,
  show,
  splitPatchList,
  unionOfPrimitives,
} from './strategic-lists.js';
import { type CompiledRules, type FieldPatchStrategy, rulesFor, strategyAt } from './strategic-rules.js';

export {
  applyElementOrder,
  arrange,
  bad,
  byMergeKey,
  DELETE_FROM_PRIMITIVE_LIST,
  type Identify,
  NO_ID,
  PATCH,
  parseListDirective,
  RETAIN_KEYS,
  SET_ELEMENT_ORDER,
  type SplitPatchList,
  sameId,
  sameKey,
  show,
  splitPatchList,
  unionOfPrimitives,
} from './strategic-lists.js';
export {
  type CompiledRules,
  type FieldPatchStrategy,
  fieldStrategyFor,
  isStrategicMergeKind,
  mergeKeyFor,
  rulesFor,
  strategyAt,
} from './strategic-rules.js';

/**
 * Applies a strategic merge patch to an object of `kind`. Malformed patches
 * (bad directives, merge-list elements without their key) are 400 BadRequest.
 * Pure: neither input is changed and the result shares no structure with them.
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown, kind: string): unknown {
  if (!isJsonObject(patch)) throw bad(`strategic merge patch must be a JSON object, not ${jsonKind(patch)}`);
  const start = isJsonObject(target) ? cloneJson(target) : {};
  return mergeMap(start, patch, [], rulesFor(kind));
}

/** Merges `patch` into `orig` (owned by the caller, changed in place) and returns the result. */
function mergeMap(orig: JsonObject, patch: JsonObject, path: string[], rules: CompiledRules): JsonObject {
  const directive = getOwn(patch, PATCH);
  if (directive === 'replace') {
    const { [PATCH]: _, ...rest } = patch;
    return mergeMap({}, rest, path, rules);
  }
  // kube-apiserver leaves an empty map behind, not a missing key.
  if (directive === 'delete') return {};
  if (directive !== undefined && directive !== 'merge') {
    throw bad(`unknown ${PATCH} directive ${JSON.stringify(directive)} at ${show(path)}`);
  }
  applyRetainKeys(orig, patch, path);

  const directives = new Map<string, ListDirectives>();
  const fields: string[] = [];
  for (const key of Object.keys(patch)) {
    if (key === PATCH || key === RETAIN_KEYS) continue;
    const parsed = parseListDirective(key, patch[key], path);
    if (!parsed) {
      fields.push(key);
      continue;
    }
    const entry = directives.get(parsed.field) ?? {};
    entry[parsed.kind] = parsed.list;
    directives.set(parsed.field, entry);
  }

  for (const key of fields) {
    const value = patch[key];
    const childPath = [...path, key];
    const current = getOwn(orig, key);
    const strategy = strategyAt(rules, childPath);
    if (value === null) {
      delete orig[key];
    } else if (Array.isArray(value) && strategy?.merge) {
      const { order, deletes } = directives.get(key) ?? {};
      const list = Array.isArray(current)
        ? patchMergeList(current, value, deletes, order, childPath, strategy, rules)
        : orderNewList(materialize(value, childPath, rules) as unknown[], value, order, childPath, strategy);
      setOwn(orig, key, list);
    } else if (isJsonObject(value) && isJsonObject(current)) {
      setOwn(orig, key, mergeMap(current, value, childPath, rules));
    } else {
      setOwn(orig, key, materialize(value, childPath, rules));
    }
    directives.delete(key);
  }

  // Directives whose list is not in the patch reorder or prune the current list alone.
  for (const [key, { order, deletes }] of directives) {
    const current = getOwn(orig, key);
    if (!Array.isArray(current)) continue;
    const strategy = strategyAt(rules, [...path, key]) ?? {};
    setOwn(orig, key, patchMergeList(current, undefined, deletes, order, [...path, key], strategy, rules));
  }
  return orig;
}

/** `$retainKeys`: clear every key of `orig` not listed; the patch itself may only set listed keys. */
function applyRetainKeys(orig: JsonObject, patch: JsonObject, path: string[]): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const listed = patch[RETAIN_KEYS];
  if (!Array.isArray(listed)) throw bad(`${RETAIN_KEYS} at ${show(path)} must be a list`);
  const keep = new Set(listed.filter((k): k is string => typeof k === 'string'));
  for (const key of Object.keys(patch)) {
    if (patch[key] === null || key.startsWith('$')) continue;
    if (!keep.has(key)) throw bad(`field "${key}" at ${show(path)} is set but not listed in ${RETAIN_KEYS}`);
  }
  for (const key of Object.keys(orig)) if (!keep.has(key)) delete orig[key];
}

/** A patch value placed where nothing merges with it: directives are carried out, nulls dropped. */
function materialize(value: unknown, path: string[], rules: CompiledRules): unknown {
  if (isJsonObject(value)) return mergeMap({}, value, path, rules);
  if (!Array.isArray(value)) return value;
  // Upstream takes a new list as sent, so duplicates of a merge key (port 53 TCP + UDP) survive.
  const keyed = strategyAt(rules, path)?.mergeKey !== undefined;
  return value
    .filter((item) => !(keyed && isJsonObject(item) && ['delete', 'replace'].includes(item[PATCH] as string)))
    .map((item) => (isJsonObject(item) ? mergeMap({}, item, path, rules) : cloneJson(item)));
}

/** A merge list after the patch list and its parallel `$deleteFromPrimitiveList`/`$setElementOrder` lists. */
function patchMergeList(
  current: unknown[],
  patchList: unknown[] | undefined,
  deletes: unknown[] | undefined,
  order: unknown[] | undefined,
  path: string[],
  strategy: FieldPatchStrategy,
  rules: CompiledRules,
): unknown[] {
  let list = deletes ? current.filter((item) => !deletes.some((d) => jsonEqual(d, item))) : current;
  if (patchList) list = mergeList(list, patchList, path, strategy, rules);
  if (order && strategy.merge) {
    list = applyElementOrder(list, current, patchList ?? [], order, path, strategy);
  }
  return list;
}

/** A merge list the server did not have, put in `$setElementOrder` order when one came along. */
function orderNewList(
  list: unknown[],
  patchList: unknown[],
  order: unknown[] | undefined,
  path: string[],
  strategy: FieldPatchStrategy,
): unknown[] {
  return order ? applyElementOrder(list, [], patchList, order, path, strategy) : list;
}

/** Merges a patch list into a merge list (upstream `mergeSlice`). */
function mergeList(
  current: unknown[],
  patchList: unknown[],
  path: string[],
  strategy: FieldPatchStrategy,
  rules: CompiledRules,
): unknown[] {
  if (current.length === 0 && patchList.length === 0) return current;
  const key = strategy.mergeKey;
  if (key === undefined) return unionOfPrimitives(current, patchList, path);

  const { server, items, replace } = splitPatchList(current, patchList, key, path, [undefined, 'merge']);
  if (replace) return items.map((item) => mergeMap({}, item, path, rules));

  const merged = [...server];
  for (const item of items) {
    const at = merged.findIndex((m) => sameKey(m, item, key));
    if (at >= 0) merged[at] = mergeMap(merged[at] as JsonObject, item, path, rules);
    else merged.push(mergeMap({}, item, path, rules));
  }
  return arrange(merged, items, server, byMergeKey(key));
}
