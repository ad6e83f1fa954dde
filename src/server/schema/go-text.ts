/**
 * JSON values printed the way Go's fmt and strconv print the decoded (unstructured) values inside
 * kube-apiserver's messages: `strconv.Quote`, `%v`/`%+v` (`map[a:1 b:[x y]]`) and `%#v`
 * (`map[string]interface {}{"a":1}`). A JSON number is an int64 when it has no fraction (the
 * decoders kube uses keep integers, sigs.k8s.io/json `PreserveInts`) and a float64 otherwise.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `strconv.Quote`: printable runes as they are, the rest escaped. */
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

/** A JSON number as Go prints the value it decodes to (int64 or float64). */
function goNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : goFloat(n);
}

/** Go's `%v` (and `%+v`: the same for maps and slices) of a decoded JSON value. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  const obj = v as Record<string, unknown>;
  // fmt prints maps sorted by key.
  const keys = Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${keys.map((k) => `${k}:${goValue(obj[k])}`).join(' ')}]`;
}

/** Go's `%#v` of a decoded JSON value held in an `interface{}`. */
export function goSharpValue(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpValue).join(', ')}}`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpValue(obj[k])}`).join(', ')}}`;
}

/** Go's `%T` of a decoded JSON value held in an `interface{}`. */
export function goTypeOfValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

/** How encoding/json names a JSON value in an UnmarshalTypeError: `object`, `array`, `string`, `number`, `bool`. */
export function jsonKindOf(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : 'object';
}

/** A JSON number's literal as the decoders see it (`1.5`, `3000000000`). */
export function numberLiteral(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(n);
}
