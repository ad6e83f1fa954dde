/**
 * A decoded JSON value as CEL sees it, typed by its schema (apiextensions-apiserver
 * pkg/apiserver/schema/cel/values.go `UnstructuredToVal`): `integer` fields are CEL ints
 * (bigint here), `number` fields doubles even when written `3`, untyped whole numbers
 * (int-or-string, preserved unknown fields) ints. Property names that are not CEL identifiers
 * are reachable only under their escaped names (apiserver pkg/cel/escaping.go `Escape`):
 * `foo-bar` as `foo__dash__bar`, a keyword `namespace` as `__namespace__`. Strings of
 * `format: date-time` and `date` are timestamps, `duration` durations, `byte` bytes; one that
 * does not parse stays a string (upstream it is an error value).
 */
import { additionalSchema, type Structural } from '../schema/structural.js';

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/** Names escaped so far (property names repeat on every object): bounded, as object keys are the writer's. */
const escaped = new Map<string, string | undefined>();
const MAX_ESCAPED = 10_000;

/** escaping.go `Escape`: the name CEL reads a property by, or undefined when it cannot. */
export function escapeName(name: string): string | undefined {
  const known = escaped.get(name);
  if (known !== undefined || escaped.has(name)) return known;
  const out = escapeUncached(name);
  if (escaped.size >= MAX_ESCAPED) escaped.clear();
  escaped.set(name, out);
  return out;
}

function escapeUncached(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    if (name.startsWith('__', i)) {
      out += '__underscores__';
      i++;
    } else if (ch === '.') out += '__dot__';
    else if (ch === '-') out += '__dash__';
    else if (ch === '/') out += '__slash__';
    else if (/[A-Za-z0-9_]/.test(ch)) out += ch;
    else return undefined;
  }
  return /^[A-Za-z_]/.test(out) ? out : undefined;
}

/** Equality of CEL values as `==` sees them: ints and doubles by value, lists, maps, sets deeply. */
export function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number'))
    return Number(a) === Number(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  const listA = Array.isArray(a) || a instanceof Set;
  const listB = Array.isArray(b) || b instanceof Set;
  if (listA || listB) {
    if (!listA || !listB) return false;
    const [x, y] = [[...(a as Iterable<unknown>)], [...(b as Iterable<unknown>)]];
    if (x.length !== y.length) return false;
    if (a instanceof Set || b instanceof Set) return x.every((v) => y.some((w) => celEqual(v, w)));
    return x.every((v, i) => celEqual(v, y[i]));
  }
  const ka = Object.keys(a);
  const o = b as Record<string, unknown>;
  return (
    ka.length === Object.keys(o).length &&
    ka.every((k) => k in o && celEqual((a as Record<string, unknown>)[k], o[k]))
  );
}

/**
 * A `x-kubernetes-list-type: map` list: equal to another regardless of order, as upstream's
 * map lists are (values.go `unstructuredMapList`). The library takes only a plain Set as a list
 * and compares a Set to a list by `has`, so its `has` compares deeply.
 */
function mapList(items: unknown[]): Set<unknown> {
  const set = new Set(items);
  set.has = (v: unknown): boolean => {
    for (const x of set) if (celEqual(x, v)) return true;
    return false;
  };
  return set;
}

/**
 * A list as its list type makes it: a `set` of distinct scalars a Set, a `map` a Set compared deeply (`mapList`)
 * (both compare regardless of order, iterate and index in order), others a plain list.
 */
function asList(items: unknown[], listType: string | undefined): unknown {
  if (listType === 'map' && items.length > 1) return mapList(items);
  if (listType === 'set' && items.length > 1 && items.every((x) => typeof x !== 'object' || x === null)) {
    const set = new Set(items);
    if (set.size === items.length) return set;
  }
  return items;
}

/** A string of a format CEL has a type for, as that type's value (undefined: keep the string). */
export type FormatParser = (format: string, value: string) => unknown;
let parseFormatted: FormatParser = () => undefined;
/** Set by program.ts, which owns the CEL environment that parses durations. */
export function setFormatParser(p: FormatParser): void {
  parseFormatted = p;
}

/** The CEL value of `v` under schema `s` (undefined schema: typed by the value alone). */
export function toCel(v: unknown, s: Structural | undefined): unknown {
  switch (typeof v) {
    case 'number': {
      const double = s !== undefined && s.types.length === 1 && s.types[0] === 'number';
      return !double && Number.isInteger(v) ? BigInt(v) : v;
    }
    case 'string':
      return s?.format !== undefined ? (parseFormatted(s.format, v) ?? v) : v;
    case 'object':
      if (v === null) return null;
      return Array.isArray(v) ? listToCel(v, s) : objectToCel(v as Record<string, unknown>, s);
    case 'undefined':
      return null;
    default:
      return v;
  }
}

function listToCel(v: unknown[], s: Structural | undefined): unknown {
  const items = s?.items;
  const out = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = toCel(v[i], items);
  return asList(out, s?.listType);
}

function objectToCel(v: Record<string, unknown>, s: Structural | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const extra = s ? additionalSchema(s) : undefined;
  const props = s?.properties;
  const isStruct = props !== undefined && s?.additionalProperties === undefined;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const sub = props?.get(k) ?? extra;
    // Struct fields are read by escaped names; map keys stay as they are (`self['a-b']`).
    const name = isStruct ? escapeName(k) : k;
    if (name !== undefined) out[name] = toCel(v[k], sub);
  }
  return out;
}
