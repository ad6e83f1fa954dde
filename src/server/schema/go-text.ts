/**
 * JSON values printed the way Go's fmt and strconv print the decoded (unstructured) values inside
 * kube-apiserver's messages: `strconv.Quote`, `%v`/`%+v` (`map[a:1 b:[x y]]`) and `%#v`
 * (`map[string]interface {}{"a":1}`). A JSON number is an int64 when it has no fraction (the
 * decoders kube uses keep integers, sigs.k8s.io/json `PreserveInts`) and a float64 otherwise.
 */

import { goFloat, goNumber, goQuote } from '../kinds/field-value.js';

// strconv.Quote and %v of a float64 live beside the field-error value printer that needs them.
export { goFloat, goQuote };

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
