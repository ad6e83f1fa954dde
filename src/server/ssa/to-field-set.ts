/**
 * The fields a value sets, by its schema (structured-merge-diff typed/tofieldset.go
 * `toFieldSetWalker`): a scalar is a leaf; an atomic map or list is one leaf; a granular map owns
 * each key (a key is a member too when its value is null or `{}`, or when it is not a named struct
 * field); an associative-list item owns its element (`k:{...}` or `v:...`) and its fields. Items
 * of a keyed list that share a key are owned as one leaf and not descended, as smd does; they are
 * also reported, since smd's validation refuses them in an applied configuration.
 */
import { FieldSet } from './field-set.js';
import type { MergeNode } from './merge-schema.js';
import { fieldElement, type PathElement } from './path-element.js';
import {
  childNode,
  isEmptyObject,
  isObject,
  listItemElement,
  printPath,
  resolveNode,
  type TypedError,
  TypedValueError,
} from './typed-node.js';

/** The result of walking a value: the set of the paths below it, and whether its own path is a leaf. */
const SELF = 1;
type Walked = FieldSet | typeof SELF | null;

/** smd `TypedValue.ToFieldSet`. Throws {@link TypedValueError} for duplicate or unnamed list items. */
export function toFieldSet(value: unknown, node: MergeNode): FieldSet {
  const errors: TypedError[] = [];
  const path: PathElement[] = [];
  const walked = walk(value, node, path, errors);
  if (errors.length > 0) throw new TypedValueError(errors);
  return walked instanceof FieldSet ? walked : new FieldSet();
}

/** As {@link toFieldSet}, but duplicates and unnamed items are skipped instead of refused (live objects, smd `AllowDuplicates`). */
export function toFieldSetLenient(value: unknown, node: MergeNode): FieldSet {
  const walked = walk(value, node, [], null);
  return walked instanceof FieldSet ? walked : new FieldSet();
}

function walk(value: unknown, node: MergeNode, path: PathElement[], errors: TypedError[] | null): Walked {
  const n = resolveNode(node, value);
  if (n.kind === 'scalar') return SELF;
  if (n.kind === 'map') {
    if (n.relationship === 'atomic') return SELF;
    if (!isObject(value)) return null;
    let out: FieldSet | null = null;
    for (const key in value) {
      const v = value[key];
      const pe = fieldElement(key);
      const fieldNode = n.field(key);
      const named = fieldNode !== undefined;
      path.push(pe);
      const sub = walk(v, fieldNode ?? childNode(n, key), path, errors);
      path.pop();
      if (sub === SELF || v === null || (isObject(v) && isEmptyObject(v)) || !named) {
        out ??= new FieldSet();
        out.insertMember(pe);
      }
      if (sub instanceof FieldSet && !sub.empty()) {
        out ??= new FieldSet();
        attach(out, pe, sub);
      }
    }
    return out;
  }
  // A list.
  if (n.relationship === 'atomic') return SELF;
  if (!Array.isArray(value) || value.length === 0) return null;
  const pes: (PathElement | string)[] = new Array(value.length);
  const seen = new Map<string, number>();
  for (let i = 0; i < value.length; i++) {
    const pe = listItemElement(n, value[i]);
    pes[i] = pe;
    if (typeof pe === 'string') {
      errors?.push({ path: printPath(path), message: `element ${i}: ${pe}` });
      continue;
    }
    seen.set(pe.text, (seen.get(pe.text) ?? 0) + 1);
  }
  let out: FieldSet | null = null;
  const reported = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const pe = pes[i] as PathElement | string;
    if (typeof pe === 'string') continue;
    out ??= new FieldSet();
    out.insertMember(pe);
    if ((seen.get(pe.text) as number) > 1) {
      if (errors !== null && !reported.has(pe.text)) {
        reported.add(pe.text);
        errors.push({ path: printPath(path), message: `duplicate entries for key ${pe.toString()}` });
      }
      continue;
    }
    path.push(pe);
    const sub = walk(value[i], n.items, path, errors);
    path.pop();
    if (sub instanceof FieldSet && !sub.empty()) attach(out, pe, sub);
  }
  return out;
}

function attach(parent: FieldSet, pe: PathElement, sub: FieldSet): void {
  if (parent.children === null) parent.children = new Map();
  parent.children.set(pe.text, { pe, set: sub });
}
