/**
 * A field error's bad value as kube-apiserver prints it: apimachinery
 * pkg/util/validation/field/errors.go `Error.ErrorBody` (v0.34 and later).
 * Its type switch decides the form:
 *
 * - `int64`, `int32`, `float64`, `float32`, `bool`: `%v` (`3`, `1.5`, `1e+06`, `true`);
 * - `string`: `%q` (`"web"`, Go's `strconv.Quote`);
 * - anything else (maps, slices, structs, pointers, named string types, Go `int`s, nil):
 *   `json.Marshal` (`{"app":"web"}`, `["a"]`, `null`). Internal structs carry no json tags, so
 *   they marshal with Go's field names in declaration order (`{"Partition":2,"MaxUnavailable":null}`);
 *   a caller that has one renders it with {@link goStruct}.
 *
 * 1.33's apimachinery printed the last group with `%#v` (`map[string]string{"app":"web"}`, `<nil>`).
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `strconv.Quote` (`%q`): printable runes as they are, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/**
 * Go's `%v` of a float64 (strconv's shortest `'g'`, which switches to the exponent form below
 * 1e-4 and from 1e6: `fmt.Println(1234567.5)` prints `1.2345675e+06`).
 */
export function goFloat(f: number): string {
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : f < 0 ? '-Inf' : 'NaN';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // JavaScript's shortest round-trip digits are Go's too; only the layout differs.
  const [mantissa, exp] = f.toExponential().split('e');
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 6) {
    const e = Math.abs(exponent);
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  return f.toFixed(Math.max(0, mantissa.replace(/^-?\d\.?/, '').length - exponent));
}

/**
 * A JSON number as Go prints the value it decodes to with `%v`: an int64 when it has no fraction
 * (the decoders kube uses keep integers, sigs.k8s.io/json `PreserveInts`), a float64 otherwise.
 */
export function goNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : goFloat(n);
}

/**
 * encoding/json `Marshal` of a decoded JSON value: map keys sorted, and `<`, `>`, `&`, U+2028 and
 * U+2029 escaped as Go's HTML-safe encoder writes them. A {@link GoRendered} inside is written as
 * it is.
 */
export function goJsonMarshal(value: unknown): string {
  if (value instanceof GoRendered) return value.text;
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(goJsonMarshal).join(',')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${goJsonMarshal(k)}:${goJsonMarshal(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** A bad value whose Go text is already known (an internal struct, a named string type's JSON). */
export class GoRendered {
  constructor(readonly text: string) {}
}

/**
 * A Go struct without json tags as `json.Marshal` writes it: every field under its Go name, in
 * declaration order (`{"Type":"Bad","RollingUpdate":null}`); each field value is marshalled.
 */
export function goStruct(fields: ReadonlyArray<readonly [string, unknown]>): GoRendered {
  return new GoRendered(`{${fields.map(([k, v]) => `${goJsonMarshal(k)}:${goJsonMarshal(v)}`).join(',')}}`);
}

/**
 * A value of a named string type (`core.RestartPolicy`, `metav1.ResourceVersionMatch`): not a
 * `string` to ErrorBody's type switch, so it is marshalled (`"Bad"`, with `<` as `\u003c`).
 */
export function goNamedString(s: string): GoRendered {
  return new GoRendered(goJsonMarshal(s));
}

/** The bad value as `ErrorBody` prints it (see the file comment). */
export function fieldValueText(value: unknown): string {
  if (value instanceof GoRendered) return value.text;
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  return goJsonMarshal(value);
}
