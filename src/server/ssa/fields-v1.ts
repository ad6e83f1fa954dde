/**
 * The `FieldsV1` encoding of a field set, as `metadata.managedFields[].fieldsV1` carries it
 * (structured-merge-diff fieldpath/serialize.go `Set.ToJSON` / `emitContentsV1`, `Set.FromJSON` /
 * `readIterV1`; fieldpath/serialize-pe.go `SerializePathElement` / `DeserializePathElement`):
 * `{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`. An element that is both a member and a
 * prefix of longer paths writes `".":{}` inside its object; children are written in smd's order.
 */
import { FieldSet } from './field-set.js';
import {
  compareElements,
  fieldElement,
  indexElement,
  type KeyField,
  keyElement,
  type PathElement,
  valueElement,
} from './path-element.js';

/** A FieldsV1 object: element text to a nested FieldsV1 object. */
export type FieldsV1 = { [key: string]: FieldsV1 };

/** Why a FieldsV1 object could not be read (the text smd's decoder reports). */
export class FieldsV1Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldsV1Error';
  }
}

// A set decoded from a FieldsV1 object encodes back to that same object (nothing changes a set
// once built), so the entries of managers a write does not touch cost nothing to write again;
// and an object decoded again (the same stored object read by the next write) is not re-read.
const encodedOf = new WeakMap<FieldSet, FieldsV1>();
const decodedOf = new WeakMap<object, FieldSet>();

/** smd `Set.ToJSON`, as an object whose key order is smd's. Treat the result as read-only. */
export function setToFieldsV1(set: FieldSet): FieldsV1 {
  let out = encodedOf.get(set);
  if (out === undefined) {
    out = emit(set, false);
    encodedOf.set(set, out);
  }
  return out;
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const members = set.sortedMembers();
  const children = set.sortedChildren();
  if (includeSelf && (members.length > 0 || children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    const cmp = m === undefined ? 1 : c === undefined ? -1 : compareElements(m, c.pe);
    if (cmp < 0) {
      out[(m as PathElement).text] = {};
      mi++;
    } else if (cmp > 0) {
      out[(c as { pe: PathElement }).pe.text] = emit((c as { set: FieldSet }).set, false);
      ci++;
    } else {
      out[(m as PathElement).text] = emit((c as { set: FieldSet }).set, true);
      mi++;
      ci++;
    }
  }
  return out;
}

/** smd `Set.FromJSON` of a parsed FieldsV1 object. Throws {@link FieldsV1Error}. */
export function fieldsV1ToSet(fields: unknown): FieldSet {
  if (fields === null || fields === undefined) return new FieldSet();
  if (typeof fields !== 'object' || Array.isArray(fields)) {
    throw new FieldsV1Error('ReadMapCB: expect { or n, but found something else');
  }
  let set = decodedOf.get(fields);
  if (set === undefined) {
    canonical = true;
    set = read(fields as Record<string, unknown>) ?? new FieldSet();
    decodedOf.set(fields, set);
    // Only an object written as smd writes it may stand for the set's encoding.
    if (canonical) encodedOf.set(set, fields as FieldsV1);
  }
  return set;
}

/** Whether the object being read is exactly what {@link setToFieldsV1} writes (order, texts, no stray "."). */
let canonical = true;

/** Whether the object last read by {@link read} marks its element a member. */
let readIsMember = false;

/** smd `readIterV1`: the children of one level; whether it is a member is left in {@link readIsMember}. */
function read(obj: Record<string, unknown>): FieldSet | undefined {
  let children: FieldSet | undefined;
  let isMember = false;
  let prev: PathElement | undefined;
  let first = true;
  for (const key in obj) {
    if (key === '.') {
      if (!first) canonical = false;
      first = false;
      isMember = true;
      continue;
    }
    first = false;
    const pe = parsePathElement(key);
    if (pe === undefined) {
      canonical = false;
      continue; // smd drops element types it does not know (a newer version's).
    }
    if (pe.text !== key || (prev !== undefined && compareElements(prev, pe) >= 0)) canonical = false;
    prev = pe;
    const v = obj[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new FieldsV1Error(`ReadMapCB: expect { or n, but found something else at ${key}`);
    }
    const inner = read(v as Record<string, unknown>);
    if (readIsMember) {
      children ??= new FieldSet();
      children.insertMember(pe);
    }
    if (inner !== undefined) {
      children ??= new FieldSet();
      if (children.children === null) children.children = new Map();
      children.children.set(pe.text, { pe, set: inner });
    }
  }
  if (children === undefined) {
    if (isMember) canonical = false; // `{".":{}}` is written `{}`.
    isMember = true;
  }
  readIsMember = isMember;
  return children;
}

// Elements read back are mostly the same few (container names, ports), kept by their text.
const parsed = new Map<string, PathElement>();
const PARSED_LIMIT = 20_000;

/** smd `DeserializePathElement`; undefined for an unknown element type. Throws {@link FieldsV1Error}. */
export function parsePathElement(s: string): PathElement | undefined {
  let pe = parsed.get(s);
  if (pe === undefined) {
    pe = parseUncached(s);
    if (pe === undefined) return undefined;
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(s, pe);
  }
  return pe;
}

function parseUncached(s: string): PathElement | undefined {
  if (s.length < 2) throw new FieldsV1Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new FieldsV1Error(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(body);
    case 'v':
      return valueElement(parseJSON(body));
    case 'k': {
      const obj = parseJSON(body);
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
        throw new FieldsV1Error(`ReadObjectCB: expect { or n, but found something else: ${s}`);
      }
      const fields: KeyField[] = Object.entries(obj).map(([name, value]) => ({ name, value }));
      return keyElement(fields);
    }
    case 'i': {
      // Go's strconv.Atoi: an optional sign and decimal digits.
      if (!/^[+-]?\d+$/.test(body))
        throw new FieldsV1Error(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return indexElement(Number.parseInt(body, 10));
    }
    default:
      return undefined;
  }
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FieldsV1Error(`managedFields parsing: ${(err as Error).message}`);
  }
}
