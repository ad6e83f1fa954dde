/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), the format
 * of kubectl's client-side `apply` and `set image`, following
 * k8s.io/apimachinery `pkg/util/strategicpatch`. It is JSON merge patch plus:
 * lists that carry a patch merge key merge element by element, `$patch`,
 * `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>` and
 * `$retainKeys` directives. Which lists merge is type metadata (the
 * `patchStrategy`/`patchMergeKey` struct tags of k8s.io/api), kept here as a
 * table of field paths.
 */
import { StatusError } from '../status.js';
import { cloneJson, getOwn, isJsonObject, type JsonObject, jsonEqual, jsonKind, setOwn } from './merge.js';

/** How one field patches, from its `patchStrategy`/`patchMergeKey` tags. */
export interface FieldPatchStrategy {
  /** The list merges instead of being replaced: by `mergeKey`, or as a set of primitives without one. */
  merge?: true;
  /** The element field that identifies a list element (`name` for containers). */
  mergeKey?: string;
  /** `retainKeys`: keys missing from a patch's `$retainKeys` are cleared (one-of unions like volume sources). */
  retainKeys?: true;
}

/** Field-path patterns (dotted, list elements transparent) to strategies. */
type Rules = Record<string, FieldPatchStrategy>;

const byKey = (mergeKey: string, retainKeys = false): FieldPatchStrategy =>
  retainKeys ? { merge: true, mergeKey, retainKeys: true } : { merge: true, mergeKey };
/** A merge list of primitives (set semantics), e.g. `metadata.finalizers`. */
const SET: FieldPatchStrategy = { merge: true };

/** Prefixes every pattern in `rules` with `prefix.`. */
function nest(prefix: string, rules: Rules): Rules {
  return Object.fromEntries(Object.entries(rules).map(([path, rule]) => [`${prefix}.${path}`, rule]));
}

const OBJECT_META: Rules = { finalizers: SET, ownerReferences: byKey('uid') };
const CONDITIONS: Rules = { conditions: byKey('type') };
/** core/v1 Container; EphemeralContainer carries the same tags. */
const CONTAINER: Rules = {
  ports: byKey('containerPort'),
  env: byKey('name'),
  volumeMounts: byKey('mountPath'),
  volumeDevices: byKey('devicePath'),
};
/** core/v1 PodSpec. `tolerations`, `readinessGates` and `resizePolicy` have no merge key: they are replaced. */
const POD_SPEC: Rules = {
  initContainers: byKey('name'),
  ...nest('initContainers', CONTAINER),
  containers: byKey('name'),
  ...nest('containers', CONTAINER),
  ephemeralContainers: byKey('name'),
  ...nest('ephemeralContainers', CONTAINER),
  volumes: byKey('name', true),
  imagePullSecrets: byKey('name'),
  hostAliases: byKey('ip'),
  topologySpreadConstraints: byKey('topologyKey'),
  resourceClaims: byKey('name', true),
  schedulingGates: byKey('name'),
};
const POD_STATUS: Rules = {
  ...CONDITIONS,
  podIPs: byKey('ip'),
  hostIPs: byKey('ip'),
  resourceClaimStatuses: byKey('name', true),
};
/** core/v1 PodTemplateSpec, shared by every workload kind. */
const POD_TEMPLATE: Rules = { ...nest('metadata', OBJECT_META), ...nest('spec', POD_SPEC) };
/** A workload: a pod template at spec.template and status conditions merged by type. */
const WORKLOAD: Rules = { ...nest('spec.template', POD_TEMPLATE), ...nest('status', CONDITIONS) };

/** Per-kind rules; every kind also gets ObjectMeta's at `metadata`. */
const KIND_RULES: Record<string, Rules> = {
  Pod: { ...nest('spec', POD_SPEC), ...nest('status', POD_STATUS) },
  Deployment: { ...WORKLOAD, 'spec.strategy': { retainKeys: true } },
  ReplicaSet: WORKLOAD,
  StatefulSet: WORKLOAD,
  DaemonSet: WORKLOAD,
  ReplicationController: WORKLOAD,
  Job: WORKLOAD,
  CronJob: {
    ...nest('spec.jobTemplate.metadata', OBJECT_META),
    ...nest('spec.jobTemplate.spec.template', POD_TEMPLATE),
  },
  PodTemplate: nest('template', POD_TEMPLATE),
  Service: { 'spec.ports': byKey('port'), ...nest('status', CONDITIONS) },
  Node: { 'spec.podCIDRs': SET, ...nest('status', CONDITIONS), 'status.addresses': byKey('type') },
  Namespace: nest('status', CONDITIONS),
  ConfigMap: {},
  Secret: {},
  Event: {},
  Lease: {},
};

/** Compiled lookup: kind -> JSON-encoded path -> strategy. JSON keys, since field names may contain dots. */
export type CompiledRules = ReadonlyMap<string, FieldPatchStrategy>;

const COMPILED = new Map<string, CompiledRules>(
  Object.entries(KIND_RULES).map(([kind, rules]) => [
    kind,
    new Map(
      Object.entries({ ...nest('metadata', OBJECT_META), ...rules }).map(([p, rule]) => [
        JSON.stringify(p.split('.')),
        rule,
      ]),
    ),
  ]),
);
/** Unknown kinds have no metadata: every list is replaced, as in JSON merge patch. */
const NO_RULES: CompiledRules = new Map();

/** The compiled rules of `kind`; none for kinds without strategic merge metadata. */
export function rulesFor(kind: string): CompiledRules {
  return COMPILED.get(kind) ?? NO_RULES;
}

/** The strategy of the field at `path` under `rules`. */
export function strategyAt(rules: CompiledRules, path: string[]): FieldPatchStrategy | undefined {
  return rules.size === 0 ? undefined : rules.get(JSON.stringify(path));
}

/** True when `kind` has built-in strategic merge metadata (others merge like JSON merge patch). */
export function isStrategicMergeKind(kind: string): boolean {
  return COMPILED.has(kind);
}

/** The patch strategy of the field at `path` (field names from the object root; list elements are transparent). */
export function fieldStrategyFor(kind: string, path: string[]): FieldPatchStrategy | undefined {
  return strategyAt(rulesFor(kind), path);
}

/** The patch merge key of the list at `path`, e.g. `name` for `['spec','template','spec','containers']`. */
export function mergeKeyFor(kind: string, path: string[]): string | undefined {
  return fieldStrategyFor(kind, path)?.mergeKey;
}

// The directive keys, and the list helpers exported below, are shared with threeway.ts;
// the package's API is what index.ts exports.
export const PATCH = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

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

/** The list directives addressed to one field of a map patch. */
interface ListDirectives {
  order?: unknown[];
  deletes?: unknown[];
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
