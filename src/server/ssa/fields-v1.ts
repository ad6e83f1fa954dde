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

/** smd `Set.ToJSON`, as an object whose key order is smd's. */
export function setToFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
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
  return read(fields as Record<string, unknown>).children ?? new FieldSet();
}

function read(obj: Record<string, unknown>): { children: FieldSet | undefined; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const key of Object.keys(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = parsePathElement(key);
    if (pe === undefined) continue; // smd drops element types it does not know (a newer version's).
    const v = obj[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new FieldsV1Error(`ReadMapCB: expect { or n, but found something else at ${key}`);
    }
    const inner = read(v as Record<string, unknown>);
    if (inner.isMember) {
      children ??= new FieldSet();
      children.insertMember(pe);
    }
    if (inner.children !== undefined) {
      children ??= new FieldSet();
      const target = children.descend(pe);
      target.members = inner.children.members;
      target.children = inner.children.children;
    }
  }
  if (children === undefined) isMember = true;
  return { children, isMember };
}

/** smd `DeserializePathElement`; undefined for an unknown element type. Throws {@link FieldsV1Error}. */
export function parsePathElement(s: string): PathElement | undefined {
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
