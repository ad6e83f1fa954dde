/**
 * Questions answered on a FieldsV1 object as it arrived, without decoding it into a set: a
 * manager's entry that a write does not touch (most of them) is checked against the write's
 * changes and written back as it was. Valid only for an object in smd's own form (what
 * `setToFieldsV1` writes and kube-apiserver stores), which {@link scanFieldsV1} tells; any other
 * is decoded (fields-v1.ts) and handled as a set.
 */
import type { FieldSet } from './field-set.js';
import { FieldsV1Error, parsePathElement } from './fields-v1.js';
import { compareElements, type PathElement } from './path-element.js';

type Raw = Record<string, unknown>;

function hasChildren(entry: Raw): boolean {
  for (const k in entry) if (k !== '.') return true;
  return false;
}

/**
 * Validates a FieldsV1 object as smd's decoder would (throws {@link FieldsV1Error} with its
 * message) and says whether it is in smd's own form: keys in smd's order and canonical text, a
 * `"."` only first and only beside children, no element types unknown to this version.
 */
export function scanFieldsV1(raw: unknown): boolean {
  if (raw === null || raw === undefined) return false;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new FieldsV1Error('ReadMapCB: expect { or n, but found something else');
  }
  return scan(raw as Raw);
}

function scan(obj: Raw): boolean {
  let canonical = true;
  let prev: PathElement | undefined;
  let first = true;
  let dot = false;
  let children = false;
  for (const key in obj) {
    if (key === '.') {
      if (!first) canonical = false;
      first = false;
      dot = true;
      continue;
    }
    first = false;
    children = true;
    const pe = parsePathElement(key);
    const v = obj[key];
    if (pe === undefined) {
      canonical = false;
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new FieldsV1Error(`ReadMapCB: expect { or n, but found something else at ${key}`);
    }
    if (pe.text !== key || (prev !== undefined && compareElements(prev, pe) >= 0)) canonical = false;
    prev = pe;
    if (!scan(v as Raw)) canonical = false;
  }
  if (dot && !children) canonical = false;
  return canonical;
}

/** True when some path of `set` is a member of the canonical FieldsV1 object `raw`. */
export function rawHasAny(raw: Raw, set: FieldSet): boolean {
  if (set.members !== null) {
    for (const k of set.members.keys()) {
      const e = raw[k] as Raw | undefined;
      if (e !== undefined && (e['.'] !== undefined || !hasChildren(e))) return true;
    }
  }
  if (set.children !== null) {
    for (const [k, c] of set.children) {
      const e = raw[k] as Raw | undefined;
      if (e !== undefined && hasChildren(e) && rawHasAny(e, c.set)) return true;
    }
  }
  return false;
}

/** True when every member path of the canonical FieldsV1 object `raw` is in `set`. */
export function rawWithin(raw: Raw, set: FieldSet): boolean {
  for (const k in raw) {
    if (k === '.') continue;
    const e = raw[k] as Raw;
    const below = hasChildren(e);
    if ((!below || e['.'] !== undefined) && !set.members?.has(k)) return false;
    if (below) {
      const c = set.children?.get(k);
      if (c === undefined || !rawWithin(e, c.set)) return false;
    }
  }
  return true;
}

/** True when the canonical FieldsV1 object `raw` holds no path. */
export function rawEmpty(raw: Raw): boolean {
  for (const _ in raw) return false;
  return true;
}
