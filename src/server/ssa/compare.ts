/**
 * What changed between two values of one schema (structured-merge-diff typed/compare.go
 * `compareWalker`, `TypedValue.Compare`): the paths added, modified (a leaf whose value differs)
 * and removed. Atomic maps and lists compare as one leaf; items of associative lists are matched
 * by key or value; items that appear more than once on a side compare as a whole, as smd does.
 */
import { FieldSet } from './field-set.js';
import type { ListNode, MergeNode } from './merge-schema.js';
import { fieldElement, type PathElement } from './path-element.js';
import {
  childNode,
  deepEqual,
  isListLeaf,
  isMapLeaf,
  isObject,
  listItemElement,
  resolveNode,
} from './typed-node.js';

/** smd `typed.Comparison`. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/** smd `Comparison.IsSame`. */
export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.modified.empty() && c.removed.empty();
}

/** smd `Comparison.ExcludeFields`: the comparison without `fields` (recursively). */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (fields === undefined || fields.empty()) return c;
  return {
    added: c.added.recursiveDifference(fields),
    modified: c.modified.recursiveDifference(fields),
    removed: c.removed.recursiveDifference(fields),
  };
}

/** smd `TypedValue.Compare(rhs)`: from `lhs` to `rhs`. */
export function compare(lhs: unknown, rhs: unknown, node: MergeNode): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareValue(lhs, rhs, node, [], c);
  return c;
}

/** smd `compareWalker.compare`; returns nothing, records into `c`. */
function compareValue(l: unknown, r: unknown, node: MergeNode, path: PathElement[], c: Comparison): void {
  // The same value has no differences (the walk would find none); two absent sides are nothing
  // to compare (smd: "at least one of lhs and rhs must be provided").
  if (l === r) return;
  let inLeaf = false;
  const nr = r === undefined ? undefined : resolveNode(node, r);
  const nl = l === undefined ? undefined : resolveNode(node, l);
  if (nr === undefined) inLeaf = walk(nl as MergeNode, l, undefined, path, c);
  else if (nl === undefined || nl === nr) inLeaf = walk(nr, l, r, path, c);
  else {
    // Untyped values of different kinds: smd walks the left's kind on a copy (recording into the
    // same comparison), then the right's.
    walk(nl, l, r, path, c);
    inLeaf = walk(nr, l, r, path, c);
  }
  if (!inLeaf) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  }
}

/** Walks one kind; true when the value was compared as a leaf. */
function walk(n: MergeNode, l: unknown, r: unknown, path: PathElement[], c: Comparison): boolean {
  if (n.kind === 'scalar') return leaf(l, r, path, c);
  if (n.kind === 'map') {
    const lm = isObject(l) ? l : null;
    const rm = isObject(r) ? r : null;
    if (isMapLeaf(n, lm, rm)) {
      return leaf(l, r, path, c);
    }
    if (lm !== null) {
      for (const k in lm) {
        path.push(fieldElement(k));
        compareValue(lm[k], rm === null ? undefined : rm[k], childNode(n, k), path, c);
        path.pop();
      }
    }
    if (rm !== null) {
      for (const k in rm) {
        if (lm !== null && lm[k] !== undefined) continue;
        path.push(fieldElement(k));
        compareValue(undefined, rm[k], childNode(n, k), path, c);
        path.pop();
      }
    }
    return false;
  }
  if (n.kind !== 'list') return leaf(l, r, path, c);
  const ll = Array.isArray(l) ? l : null;
  const rl = Array.isArray(r) ? r : null;
  if (isListLeaf(n, ll, rl)) {
    return leaf(l, r, path, c);
  }
  compareList(n, ll ?? [], rl ?? [], path, c);
  return false;
}

/** smd `compareWalker.doLeaf`. */
function leaf(l: unknown, r: unknown, path: PathElement[], c: Comparison): boolean {
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!deepEqual(l, r)) c.modified.insert(path);
  return true;
}

/** smd `compareWalker.visitListItems`. */
function compareList(n: ListNode, lhs: unknown[], rhs: unknown[], path: PathElement[], c: Comparison): void {
  const order: PathElement[] = [];
  const lValues = new Map<string, unknown[]>();
  for (const item of lhs) {
    const pe = listItemElement(n, item);
    if (typeof pe === 'string') continue;
    const seen = lValues.get(pe.text);
    if (seen !== undefined) seen.push(item);
    else {
      lValues.set(pe.text, [item]);
      order.push(pe);
    }
  }
  const rValues = new Map<string, unknown[]>();
  for (const item of rhs) {
    const pe = listItemElement(n, item);
    if (typeof pe === 'string') continue;
    const seen = rValues.get(pe.text);
    if (seen !== undefined) seen.push(item);
    else {
      rValues.set(pe.text, [item]);
      if (!lValues.has(pe.text)) order.push(pe);
    }
  }
  for (const pe of order) {
    const lList = lValues.get(pe.text) ?? [];
    const rList = rValues.get(pe.text) ?? [];
    path.push(pe);
    if (lList.length <= 1 && rList.length <= 1) {
      compareValue(lList[0], rList[0], n.items, path, c);
    } else if (lList.length >= 2 && rList.length >= 2) {
      if (!deepEqual(lList, rList)) c.modified.insert(path);
    } else if (lList.length >= 2) {
      if (rList.length !== 0) compareValue(undefined, rList[0], n.items, path, c);
      c.removed.insert(path);
    } else {
      if (lList.length !== 0) compareValue(lList[0], undefined, n.items, path, c);
      c.added.insert(path);
    }
    path.pop();
  }
}
