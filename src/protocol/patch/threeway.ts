/**
 * The strategic merge patch of kubectl's client-side `apply`, following
 * k8s.io/apimachinery `strategicpatch.CreateThreeWayMergePatch`: one diff of
 * the applied manifest against the live object for additions and changes,
 * one against the last-applied configuration for deletions, and the two
 * halves combined into a single patch the way upstream combines them.
 */
import { cloneJson, getOwn, isJsonObject, type JsonObject, jsonEqual, jsonKind, setOwn } from './merge.js';
import {
  applyElementOrder,
  arrange,
  bad,
  byMergeKey,
  type CompiledRules,
  DELETE_FROM_PRIMITIVE_LIST,
  type FieldPatchStrategy,
  NO_ID,
  PATCH,
  parseListDirective,
  RETAIN_KEYS,
  rulesFor,
  SET_ELEMENT_ORDER,
  sameId,
  sameKey,
  show,
  splitPatchList,
  strategyAt,
  unionOfPrimitives,
} from './strategic.js';

/** Which differences a diff pass keeps (upstream `DiffOptions`). */
interface DiffOptions {
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  /** The map being diffed is a `retainKeys` field: emit `$retainKeys`. */
  buildRetainKeys: boolean;
}

/**
 * The strategic merge patch kubectl's client-side `apply` sends
 * (`CreateThreeWayMergePatch` with overwrite): fields of `modified` that differ
 * from `current` are set, fields in `original` (the last-applied
 * configuration) but not in `modified` are deleted, and changes made by others
 * to fields never applied are left alone. Returns `{}` when nothing changes.
 */
export function createThreeWayMergePatch(
  original: unknown,
  modified: unknown,
  current: unknown,
  kind: string,
): Record<string, unknown> {
  const rules = rulesFor(kind);
  const [o, m, c] = [
    asDocument(original, 'original'),
    asDocument(modified, 'modified'),
    asDocument(current, 'current'),
  ];
  // Additions and changes come from current -> modified, deletions only from original -> modified,
  // so a field another writer added (and we never applied) is not removed.
  const delta = diffMaps(c, m, [], rules, {
    ignoreChangesAndAdditions: false,
    ignoreDeletions: true,
    buildRetainKeys: false,
  });
  const deletions = diffMaps(o, m, [], rules, {
    ignoreChangesAndAdditions: true,
    ignoreDeletions: false,
    buildRetainKeys: false,
  });
  return combinePatches(deletions, delta, [], rules);
}

function asDocument(value: unknown, role: string): JsonObject {
  if (value === null || value === undefined) return {};
  if (!isJsonObject(value)) {
    throw bad(`the ${role} configuration must be a JSON object, not ${jsonKind(value)}`);
  }
  return value;
}

/** A patch taking `original` to `modified`, within what `opts` keeps (upstream `diffMaps`). */
function diffMaps(
  original: JsonObject,
  modified: JsonObject,
  path: string[],
  rules: CompiledRules,
  opts: DiffOptions,
): JsonObject {
  const patch: JsonObject = {};
  const retainKeys: string[] = [];
  for (const key of Object.keys(modified)) {
    const to = modified[key];
    if (opts.buildRetainKeys && to !== null) retainKeys.push(key);
    const childPath = [...path, key];
    if (!Object.hasOwn(original, key) || jsonKind(original[key]) !== jsonKind(to)) {
      if (!opts.ignoreChangesAndAdditions) setOwn(patch, key, cloneJson(to));
      continue;
    }
    const from = original[key];
    const strategy = strategyAt(rules, childPath);
    if (isJsonObject(from) && isJsonObject(to)) {
      const sub = diffMaps(from, to, childPath, rules, {
        ...opts,
        buildRetainKeys: strategy?.retainKeys === true,
      });
      if (Object.keys(sub).length > 0) setOwn(patch, key, sub);
    } else if (Array.isArray(from) && Array.isArray(to) && strategy?.merge) {
      diffLists(from, to, key, patch, childPath, rules, strategy, opts);
    } else if (!opts.ignoreChangesAndAdditions && !jsonEqual(from, to)) {
      setOwn(patch, key, cloneJson(to));
    }
  }
  if (!opts.ignoreDeletions) {
    for (const key of Object.keys(original)) if (!Object.hasOwn(modified, key)) setOwn(patch, key, null);
  }
  // Sent when anything changed or when keys must be cleared, e.g. strategy.rollingUpdate on type: Recreate.
  const clears = Object.keys(original).some((k) => original[k] !== null && !Object.hasOwn(modified, k));
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || clears)) {
    patch[RETAIN_KEYS] = retainKeys.sort();
  }
  return patch;
}

/** Diffs a merge list into `patch[key]` plus its `$setElementOrder`/`$deleteFromPrimitiveList` lists. */
function diffLists(
  from: unknown[],
  to: unknown[],
  key: string,
  patch: JsonObject,
  path: string[],
  rules: CompiledRules,
  strategy: FieldPatchStrategy,
  opts: DiffOptions,
): void {
  if (from.length === 0) {
    if (to.length > 0 && !opts.ignoreChangesAndAdditions) setOwn(patch, key, cloneJson(to));
    return;
  }
  const mergeKey = strategy.mergeKey;
  let changes: unknown[] = [];
  let deletes: unknown[] = [];
  let order: unknown[] = [];
  if (mergeKey === undefined) {
    for (const item of [...from, ...to]) {
      if (typeof item === 'object' && item !== null) {
        throw bad(`${show(path)}: a merge list of primitives holds ${jsonKind(item)}`);
      }
    }
    if (!opts.ignoreChangesAndAdditions) changes = to.filter((v) => !from.includes(v));
    if (!opts.ignoreDeletions) deletes = [...new Set(from.filter((v) => !to.includes(v)))].sort(byString);
    if (
      (!opts.ignoreDeletions && deletes.length > 0) ||
      (!opts.ignoreChangesAndAdditions && !jsonEqual(from, to))
    ) {
      order = to;
    }
  } else {
    const id = byMergeKey(mergeKey);
    [...from, ...to].forEach((item) => {
      if (id(item) === NO_ID) throw bad(`${show(path)}: every element needs the merge key "${mergeKey}"`);
    });
    for (const item of to as JsonObject[]) {
      const old = from.find((f) => sameId(id(f), item[mergeKey])) as JsonObject | undefined;
      if (!old) {
        if (!opts.ignoreChangesAndAdditions) changes.push(cloneJson(item));
        continue;
      }
      const sub = diffMaps(old, item, path, rules, {
        ...opts,
        buildRetainKeys: strategy.retainKeys === true,
      });
      if (Object.keys(sub).length > 0) changes.push({ ...sub, [mergeKey]: cloneJson(item[mergeKey]) });
    }
    if (!opts.ignoreDeletions) {
      const gone = from.filter((f) => !to.some((t) => sameId(id(t), id(f)))).map(id);
      for (const value of gone.sort(byString)) {
        changes.push({ [mergeKey]: cloneJson(value), [PATCH]: 'delete' });
      }
    }
    const sameOrder = from.length === to.length && from.every((f, i) => sameId(id(f), id(to[i])));
    if (
      (!opts.ignoreChangesAndAdditions && (changes.length > 0 || !sameOrder)) ||
      (!opts.ignoreDeletions && changes.length > 0)
    ) {
      order = to.map((t) => ({ [mergeKey]: cloneJson(id(t)) }));
    }
  }
  if (changes.length > 0) setOwn(patch, key, changes);
  if (deletes.length > 0) setOwn(patch, `${DELETE_FROM_PRIMITIVE_LIST}/${key}`, deletes);
  if (order.length > 0) setOwn(patch, `${SET_ELEMENT_ORDER}/${key}`, cloneJson(order));
}

const byString = (a: unknown, b: unknown): number =>
  String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;

/**
 * Folds the changes half into the deletions half (owned, changed in place),
 * as upstream `mergeMap(deletions, delta, MergeOptions{})` does: both are
 * patches, so a null stays a null and parallel lists (`$setElementOrder`,
 * `$deleteFromPrimitiveList`, `$retainKeys`) are carried along rather than
 * carried out. A list element both halves touch is combined, so removing an
 * env var survives a change of the same container's image.
 */
function combinePatches(
  deletions: JsonObject,
  delta: JsonObject,
  path: string[],
  rules: CompiledRules,
): JsonObject {
  const directive = getOwn(delta, PATCH);
  if (directive !== undefined) return combineMapDirective(directive, delta, path);
  combineRetainKeys(deletions, delta, path);
  const done = combineOrderedLists(deletions, delta, path, rules);
  for (const key of Object.keys(delta)) {
    if (done.has(key) || key === RETAIN_KEYS) continue;
    const add = delta[key];
    const had = getOwn(deletions, key);
    const childPath = [...path, key];
    const strategy = strategyAt(rules, childPath);
    if (isJsonObject(had) && isJsonObject(add)) {
      setOwn(deletions, key, combinePatches(had, add, childPath, rules));
    } else if (Array.isArray(had) && Array.isArray(add) && strategy?.merge) {
      setOwn(deletions, key, combineLists(had, add, childPath, strategy, rules));
    } else {
      // New to the deletions, a different JSON type, a null, a replaced list or a
      // `$deleteFromPrimitiveList` (never in the changes half): the changes' value wins.
      setOwn(deletions, key, add);
    }
  }
  return deletions;
}

/**
 * A `$patch` on a map of the changes half both halves have. Upstream hands the
 * changes' map over without the directive (`replace`) or empties it
 * (`delete`); any other directive fails the apply.
 */
function combineMapDirective(directive: unknown, delta: JsonObject, path: string[]): JsonObject {
  if (directive === 'delete') return {};
  if (directive !== 'replace') {
    throw bad(`unknown ${PATCH} directive ${JSON.stringify(directive)} at ${show(path)}`);
  }
  const out: JsonObject = {};
  for (const key of Object.keys(delta)) if (key !== PATCH) setOwn(out, key, delta[key]);
  return out;
}

/** Both halves list the same keys (those of the manifest's map), so `$retainKeys` is kept once. */
function combineRetainKeys(deletions: JsonObject, delta: JsonObject, path: string[]): void {
  if (!Object.hasOwn(delta, RETAIN_KEYS)) return;
  if (!Object.hasOwn(deletions, RETAIN_KEYS)) {
    setOwn(deletions, RETAIN_KEYS, delta[RETAIN_KEYS]);
  } else if (!jsonEqual(deletions[RETAIN_KEYS], delta[RETAIN_KEYS])) {
    throw bad(`the deletions and changes of the three-way patch disagree on ${RETAIN_KEYS} at ${show(path)}`);
  }
}

/**
 * Each `$setElementOrder/<list>` of the changes half, with its list (upstream
 * `mergePatchIntoOriginal`): both halves take the order from the manifest, so
 * it must match when both carry it; the lists are combined and put in that
 * order. Returns the keys of `delta` done here.
 */
function combineOrderedLists(
  deletions: JsonObject,
  delta: JsonObject,
  path: string[],
  rules: CompiledRules,
): Set<string> {
  const done = new Set<string>();
  for (const key of Object.keys(delta)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const { field, list: order } = parseListDirective(key, delta[key], path)!;
    if (!Object.hasOwn(deletions, key)) {
      setOwn(deletions, key, order);
    } else if (!jsonEqual(deletions[key], order)) {
      throw bad(`the deletions and changes of the three-way patch disagree on "${key}" at ${show(path)}`);
    }
    done.add(key);
    const had = getOwn(deletions, field);
    const add = getOwn(delta, field);
    // Neither half has the list, or one has a non-list there (only a hand-written
    // directive can do that): left to the plain merge below.
    if (!isListOrAbsent(deletions, field) || !isListOrAbsent(delta, field)) continue;
    if (had === undefined && add === undefined) continue;
    const childPath = [...path, field];
    const strategy = strategyAt(rules, childPath) ?? {};
    const from = Array.isArray(had) ? had : [];
    const patchList = Array.isArray(add) ? add : [];
    let merged: unknown[];
    if (!Array.isArray(had)) merged = patchList;
    else if (!Array.isArray(add)) merged = had;
    else merged = strategy.merge ? combineLists(had, add, childPath, strategy, rules) : add;
    setOwn(deletions, field, applyElementOrder(merged, from, patchList, order, childPath, strategy));
    done.add(field);
  }
  return done;
}

function isListOrAbsent(obj: JsonObject, key: string): boolean {
  return !Object.hasOwn(obj, key) || Array.isArray(obj[key]);
}

/**
 * Combines two patch lists of a merge list (upstream `mergeSlice` without
 * parallel lists): primitives are unioned; elements with the same merge key
 * are combined recursively, so nested lists inside them are too. `$patch`
 * elements of the changes half act on the deletions' list as upstream has
 * them act: `delete` drops the element, `replace` keeps the changes' elements
 * only.
 */
function combineLists(
  had: unknown[],
  add: unknown[],
  path: string[],
  strategy: FieldPatchStrategy,
  rules: CompiledRules,
): unknown[] {
  if (had.length === 0 && add.length === 0) return had;
  const key = strategy.mergeKey;
  if (key === undefined) return unionOfPrimitives(had, add, path);

  // Unlike a server applying a patch, upstream refuses `$patch: merge` elements here.
  const split = splitPatchList(had, add, key, path, [undefined]);
  const [server, items] = split.replace ? [split.items, []] : [split.server, split.items];

  const merged = [...server];
  for (const item of items) {
    const at = merged.findIndex((m) => sameKey(m, item, key));
    if (at >= 0) merged[at] = combinePatches(merged[at] as JsonObject, item, path, rules);
    else merged.push(item);
  }
  return arrange(merged, items, server, byMergeKey(key));
}
