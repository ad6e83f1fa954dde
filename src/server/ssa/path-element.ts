/**
 * One step of a field path, as structured-merge-diff names it (sigs.k8s.io/structured-merge-diff
 * fieldpath/element.go `PathElement`): a field name (`f:`), the key fields of an associative-list
 * item (`k:{...}`), the value of a set item (`v:...`), or the index of an atomic-list item (`i:N`).
 * Each element carries its `FieldsV1` text (fieldpath/serialize-pe.go `SerializePathElement`),
 * built once, which is also its identity: two elements are smd-`Equals` exactly when their texts
 * are equal, because values are written canonically (map keys sorted, as Go's encoder does).
 */

/** The four kinds of element, in smd's order (`PathElement.Compare`: field < key < value < index). */
export enum ElementType {
  Field = 0,
  Key = 1,
  Value = 2,
  Index = 3,
}

/** One key field of a `k:` element: smd `value.Field`. */
export interface KeyField {
  readonly name: string;
  readonly value: unknown;
}

/** smd `fieldpath.PathElement`. Build with {@link fieldElement}, {@link keyElement}, {@link valueElement}, {@link indexElement}. */
export class PathElement {
  constructor(
    readonly type: ElementType,
    /** The FieldsV1 form: `f:name`, `k:{"name":"nginx"}`, `v:"x"`, `i:0`. */
    readonly text: string,
    readonly fieldName: string | undefined,
    /** Key fields sorted by name (smd `FieldList.Sort`). */
    readonly key: readonly KeyField[] | undefined,
    readonly value: unknown,
    readonly index: number | undefined,
  ) {}

  /** smd `PathElement.String`: `.name`, `[k=v,k2=v2]`, `[="x"]`, `[0]`. */
  toString(): string {
    switch (this.type) {
      case ElementType.Field:
        return `.${this.fieldName}`;
      case ElementType.Key:
        return `[${(this.key ?? []).map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
      case ElementType.Value:
        return `[=${valueToString(this.value)}]`;
      default:
        return `[${this.index}]`;
    }
  }
}

// Field elements are the most common by far (every map key of every object); share them, bounded
// so that objects with many distinct map keys (labels, data) cannot grow the cache without end.
const fieldCache = new Map<string, PathElement>();
const FIELD_CACHE_LIMIT = 20_000;

/** A field-name element (`f:name`). */
export function fieldElement(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (pe === undefined) {
    pe = new PathElement(ElementType.Field, `f:${name}`, name, undefined, undefined, undefined);
    if (fieldCache.size >= FIELD_CACHE_LIMIT) fieldCache.clear();
    fieldCache.set(name, pe);
  }
  return pe;
}

/** A key element (`k:{...}`) from key fields in any order; sorted by name as smd sorts them. */
export function keyElement(fields: KeyField[]): PathElement {
  if (fields.length > 1) fields.sort(byName);
  let text = 'k:{';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as KeyField;
    if (i > 0) text += ',';
    // jsoniter's WriteObjectField writes the name without HTML escaping; values are HTML-escaped.
    text += `${JSON.stringify(f.name)}:${goJSON(f.value)}`;
  }
  text += '}';
  return new PathElement(ElementType.Key, text, undefined, fields, undefined, undefined);
}

function byName(a: KeyField, b: KeyField): number {
  return compareGoStrings(a.name, b.name);
}

/** A set-item element (`v:...`). */
export function valueElement(value: unknown): PathElement {
  return new PathElement(ElementType.Value, `v:${goJSON(value)}`, undefined, undefined, value, undefined);
}

/** An atomic-list index element (`i:N`). */
export function indexElement(index: number): PathElement {
  return new PathElement(ElementType.Index, `i:${index}`, undefined, undefined, undefined, index);
}

/** smd `PathElement.Compare`: the order FieldsV1 children are written in. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a === b) return 0;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  switch (a.type) {
    case ElementType.Field:
      return compareGoStrings(a.fieldName as string, b.fieldName as string);
    case ElementType.Key:
      return compareFieldLists(a.key as readonly KeyField[], b.key as readonly KeyField[]);
    case ElementType.Value:
      return compareValues(a.value, b.value);
    default:
      return (a.index as number) < (b.index as number) ? -1 : a.index === b.index ? 0 : 1;
  }
}

/** smd `value.FieldList.Compare`. */
function compareFieldLists(a: readonly KeyField[], b: readonly KeyField[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const fa = a[i] as KeyField;
    const fb = b[i] as KeyField;
    const c = compareGoStrings(fa.name, fb.name);
    if (c !== 0) return c;
    const v = compareValues(fa.value, fb.value);
    if (v !== 0) return v;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** The rank of a value's kind in smd `value.Compare`: numbers, strings, bools, lists, maps, null. */
function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

/** smd `value.Compare` (value/value.go `CompareUsing`, list.go `ListCompareUsing`, map.go `MapCompareUsing`). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : a === b ? 0 : 1;
    case 1:
      return compareGoStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      const n = Math.min(la.length, lb.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length === lb.length ? 0 : la.length < lb.length ? -1 : 1;
    }
    case 4: {
      const ma = a as Record<string, unknown>;
      const mb = b as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort(compareGoStrings);
      for (const k of keys) {
        if (!Object.hasOwn(ma, k)) return 1;
        if (!Object.hasOwn(mb, k)) return -1;
        const c = compareValues(ma[k], mb[k]);
        if (c !== 0) return c;
      }
      return 0;
    }
    default:
      return 0;
  }
}

/**
 * Go's `strings.Compare` orders by UTF-8 bytes, that is by code point; JavaScript's `<` orders by
 * UTF-16 code unit. They differ only when a surrogate pair meets a character at U+E000 or above.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        const pa = a.codePointAt(i) as number;
        const pb = b.codePointAt(i) as number;
        return pa < pb ? -1 : 1;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

/** smd `value.ToString`: `"x"` for strings (Go %q), numbers and bools as is, `null`. */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  if (typeof v === 'object') {
    return Object.keys(v)
      .map((k) => `${k}=${valueToString((v as Record<string, unknown>)[k])}`)
      .join('');
  }
  return String(v);
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_UNSAFE_TEST = /[<>&\u2028\u2029]/;
const HTML_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * A value as Go's encoder writes it (jsoniter `ConfigCompatibleWithStandardLibrary`, as smd uses):
 * map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. Canonical, so equal values have equal text.
 */
export function goJSON(v: unknown): string {
  if (typeof v === 'string') {
    const s = JSON.stringify(v);
    return HTML_UNSAFE_TEST.test(s) ? s.replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c] as string) : s;
  }
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  if (typeof v === 'object') {
    const m = v as Record<string, unknown>;
    const keys = Object.keys(m).sort(compareGoStrings);
    return `{${keys.map((k) => `${goJSON(k)}:${goJSON(m[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** smd `fieldpath.Path`: a list of elements. */
export type Path = readonly PathElement[];

/** smd `Path.String`: `.spec.containers[name="nginx"].image`. */
export function pathToString(path: Path): string {
  let s = '';
  for (const pe of path) s += pe.toString();
  return s;
}
