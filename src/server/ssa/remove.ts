/**
 * Removing or extracting the fields of a set from a value (structured-merge-diff typed/remove.go
 * `removingWalker`, `TypedValue.RemoveItems` / `ExtractItems`). Removing drops every path that is
 * a member of the set (with what is under it) and walks into prefixes; extracting keeps only them.
 * A map or list left with nothing becomes null, as smd leaves it (`w.out` nil).
 */
import type { FieldSet } from './field-set.js';
import type { MergeNode } from './merge-schema.js';
import { fieldElement } from './path-element.js';
import { childNode, isObject, type JSONObject, listItemElement, resolveNode } from './typed-node.js';

/** smd `TypedValue.RemoveItems`. */
export function removeItems(value: unknown, set: FieldSet, node: MergeNode): unknown {
  return walk(value, set, node, false);
}

/** smd `TypedValue.ExtractItems`: only the fields of `set`. */
export function extractItems(value: unknown, set: FieldSet, node: MergeNode): unknown {
  return walk(value, set, node, true);
}

function walk(value: unknown, toRemove: FieldSet, node: MergeNode, extract: boolean): unknown {
  const n = resolveNode(node, value);
  if (n.kind === 'scalar') return value;
  if (n.kind === 'list') {
    if (!Array.isArray(value)) return null;
    if (value.length === 0 || n.relationship === 'atomic') return extract ? value : null;
    const out: unknown[] = [];
    for (const item of value) {
      const pe = listItemElement(n, item);
      if (typeof pe === 'string') {
        // smd walks on with an empty element, which no set holds: the item stays, and is not extracted.
        if (!extract) out.push(item);
        continue;
      }
      const exact = toRemove.hasMember(pe);
      const sub = toRemove.child(pe);
      const prefix = sub !== undefined && !sub.empty();
      if (extract) {
        const v = prefix ? walk(item, sub as FieldSet, n.items, true) : item;
        if (exact || prefix) out.push(v);
      } else {
        if (exact) continue;
        out.push(prefix ? walk(item, sub as FieldSet, n.items, false) : item);
      }
    }
    return out.length > 0 ? out : null;
  }
  if (!isObject(value)) return null;
  let empty = true;
  for (const _ in value) {
    empty = false;
    break;
  }
  if (empty || n.relationship === 'atomic') return extract ? value : null;
  const out: JSONObject = {};
  let count = 0;
  for (const k in value) {
    const pe = fieldElement(k);
    const v = value[k];
    if (toRemove.hasMember(pe)) {
      if (extract) {
        // smd passes the whole set here, not the subset under the key (remove.go doMap).
        out[k] = walk(v, toRemove, childNode(n, k), true);
        count++;
      }
      continue;
    }
    const sub = toRemove.child(pe);
    if (sub !== undefined && !sub.empty()) {
      out[k] = walk(v, sub, childNode(n, k), extract);
      count++;
    } else if (!extract) {
      out[k] = v;
      count++;
    }
  }
  return count > 0 ? out : null;
}
