/**
 * Merging an applied configuration into an object (structured-merge-diff typed/merge.go
 * `mergingWalker` with `ruleKeepRHS`, as `TypedValue.Merge` runs it): the right side wins on
 * scalars and atomic maps and lists; granular maps merge key by key; associative lists merge item
 * by item, identified by key or value, in the order smd's `visitListItems` produces (left items
 * keep their places, right items shared with the left follow the right's order, new right items
 * come where the right puts them). An empty or absent map or list on both sides is a leaf.
 *
 * A side that is absent is not walked: the other side is the result as it is (smd's walk of one
 * side copies it unchanged), which keeps a merge proportional to the configuration's size.
 */
import type { ListNode, MergeNode } from './merge-schema.js';
import { fieldElement as fieldPE, type PathElement } from './path-element.js';
import {
  childNode,
  isListLeaf,
  isMapLeaf,
  isObject,
  type JSONObject,
  listItemElement,
  printPath,
  rememberItem,
  resolveNode,
  type TypedError,
  TypedValueError,
} from './typed-node.js';

/** smd `TypedValue.Merge(rhs)`: `rhs` merged onto `lhs`. Throws {@link TypedValueError} for duplicate keys on the right. */
export function merge(lhs: unknown, rhs: unknown, node: MergeNode): unknown {
  const errors: TypedError[] = [];
  const out = mergeValue(lhs, rhs, node, [], errors);
  if (errors.length > 0) throw new TypedValueError(errors);
  return out;
}

/** The merged value, or undefined when nothing is left (smd leaves `out` nil). */
function mergeValue(
  l: unknown,
  r: unknown,
  node: MergeNode,
  path: PathElement[],
  errors: TypedError[],
): unknown {
  if (r === undefined) return l;
  if (l === undefined) return r;
  // Where the two sides deduce to different kinds (untyped only), smd walks both; only the
  // right side's walk sets the result.
  const n = resolveNode(node, r);
  if (n.kind === 'scalar') return r;
  if (n.kind === 'map') {
    const lm = isObject(l) ? l : null;
    const rm = isObject(r) ? r : null;
    if (isMapLeaf(n, lm, rm)) return r;
    const out: JSONObject = {};
    let count = 0;
    if (lm !== null) {
      for (const k in lm) {
        const rv = rm === null ? undefined : rm[k];
        let v: unknown;
        if (rv === undefined) v = lm[k];
        else {
          path.push(fieldPE(k));
          v = mergeValue(lm[k], rv, childNode(n, k), path, errors);
          path.pop();
        }
        if (v !== undefined) {
          out[k] = v;
          count++;
        }
      }
    }
    if (rm !== null) {
      for (const k in rm) {
        if (lm !== null && lm[k] !== undefined) continue;
        out[k] = rm[k];
        count++;
      }
    }
    return count > 0 ? out : undefined;
  }
  const ll = Array.isArray(l) ? l : null;
  const rl = Array.isArray(r) ? r : null;
  if (isListLeaf(n, ll, rl)) return r;
  return mergeList(n, ll ?? [], rl ?? [], path, errors);
}

/** An item seen twice on the left: smd records it as an explicit null. */
const DUPLICATE = null;

interface Indexed {
  pes: PathElement[];
  /** Element text to the item (or {@link DUPLICATE}). */
  observed: Map<string, unknown>;
  /** The position of each element in `pes`, for the left side's `At(i)`. */
  items: unknown[];
}

function indexList(
  n: ListNode,
  list: unknown[],
  allowDuplicates: boolean,
  path: PathElement[],
  errors: TypedError[],
): Indexed {
  const pes: PathElement[] = [];
  const items: unknown[] = [];
  const observed = new Map<string, unknown>();
  for (let i = 0; i < list.length; i++) {
    const child = list[i];
    const pe = listItemElement(n, child);
    if (typeof pe === 'string') {
      errors.push({ path: printPath(path), message: `element ${i}: ${pe}` });
      continue;
    }
    const found = observed.has(pe.text);
    if (found && !allowDuplicates) {
      errors.push({ path: printPath(path), message: `duplicate entries for key ${pe.toString()}` });
      continue;
    }
    observed.set(pe.text, found ? DUPLICATE : child);
    pes.push(pe);
    items.push(child);
  }
  return { pes, observed, items };
}

/** smd `mergingWalker.visitListItems`, step for step. */
function mergeList(
  n: ListNode,
  lhs: unknown[],
  rhs: unknown[],
  path: PathElement[],
  errors: TypedError[],
): unknown {
  const before = errors.length;
  const right = indexList(n, rhs, false, path, errors);
  const left = indexList(n, lhs, true, path, errors);
  if (errors.length > before) return undefined;

  const shared: PathElement[] = [];
  for (const pe of right.pes) if (left.observed.has(pe.text)) shared.push(pe);
  let sharedAt = 0;
  let nextShared: PathElement | undefined = shared[sharedAt++];

  const out: unknown[] = [];
  const mergedRight = new Set<string>();
  const lLen = left.pes.length;
  const rLen = right.pes.length;
  let lI = 0;
  let rI = 0;
  let v: unknown;
  while (lI < lLen || rI < rLen) {
    if (lI < lLen && rI < rLen) {
      const pe = left.pes[lI] as PathElement;
      if (pe.text === (right.pes[rI] as PathElement).text) {
        mergedRight.add(pe.text);
        v = mergeItem(n, pe, left.observed.get(pe.text), right.observed.get(pe.text), path);
        if (v !== undefined) out.push(v);
        lI++;
        rI++;
        nextShared = shared[sharedAt++];
        continue;
      }
      if (right.observed.has(pe.text) && nextShared !== undefined && nextShared.text !== pe.text) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const pe = left.pes[lI] as PathElement;
      if (!right.observed.has(pe.text)) {
        v = mergeItem(n, pe, left.items[lI], undefined, path);
        if (v !== undefined) out.push(v);
        lI++;
        continue;
      }
      if (mergedRight.has(pe.text)) lI++;
    }
    if (rI < rLen) {
      const pe = right.pes[rI] as PathElement;
      mergedRight.add(pe.text);
      const lChild = left.observed.has(pe.text) ? left.observed.get(pe.text) : undefined;
      v = mergeItem(n, pe, lChild, right.observed.get(pe.text), path);
      if (v !== undefined) out.push(v);
      rI++;
      if (nextShared !== undefined && nextShared.text === pe.text) nextShared = shared[sharedAt++];
    }
  }
  return out.length > 0 ? out : undefined;
}

function mergeItem(n: ListNode, pe: PathElement, l: unknown, r: unknown, path: PathElement[]): unknown {
  path.push(pe);
  // smd drops the errors of an item's merge (visitListItems appends them to a shadowed slice).
  const out = mergeValue(l, r, n.items, path, []);
  path.pop();
  if (out !== l && out !== r) rememberItem(out, pe);
  return out;
}
