/**
 * kubectl's JSONPath evaluated over decoded JSON, ported from k8s.io/client-go
 * util/jsonpath/jsonpath.go (`FindResults`, the `eval*` steps, `PrintResults`)
 * and the comparisons of third_party/forked/golang/template/funcs.go, for the
 * templates CRD printer columns use. Values are what Go's unstructured JSON
 * holds: an integral number stands for int64, any other for float64 (so
 * `1.0` in the object counts as an integer here, and ints beyond 2^53 lose
 * precision). Not supported: `{range}`/`{end}` (an error), and Go's random map
 * order: `.*` and `..` walk keys in the object's order.
 */
import { type JsonPathNode, type ListNode, parseJsonPath } from './jsonpath-parse.js';

export { JsonPathSyntaxError } from './jsonpath-parse.js';

/** A float literal of a filter (`1.5`, `2.0`): float64 even when integral, unlike a number in the object. */
class GoFloat {
  constructor(readonly value: number) {}
}

/** A byte of a string walked by `.*` or `..` (reflect's String kind indexes bytes, uint8). */
class GoByte {
  constructor(readonly value: number) {}
}

/** An evaluation failure; `values` is what the Go step returned beside its error (a filter's `exists` reads them). */
export class JsonPathEvalError extends Error {
  constructor(
    message: string,
    readonly values: unknown[],
  ) {
    super(message);
    this.name = 'JsonPathEvalError';
  }
}

/** Options of {@link JsonPath}. */
export interface JsonPathOptions {
  /** jsonpath.go `AllowMissingKeys`: a missing field yields no value instead of an error. */
  allowMissingKeys?: boolean;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNil = (v: unknown): boolean => v === null || v === undefined;

/** A parsed template (jsonpath.go `JSONPath` after `Parse`). */
export class JsonPath {
  private readonly root: ListNode;
  private readonly allowMissingKeys: boolean;

  /** Parses `template` (e.g. `{.status.phase}`); throws JsonPathSyntaxError. */
  constructor(template: string, opts: JsonPathOptions = {}) {
    this.root = parseJsonPath(template);
    this.allowMissingKeys = opts.allowMissingKeys ?? false;
  }

  /** jsonpath.go `FindResults`: one result list per top-level node (text or action). Throws {@link JsonPathEvalError}. */
  findResults(data: unknown): unknown[][] {
    return this.root.nodes.map((node) => this.walk([data], node));
  }

  private walk(input: unknown[], node: JsonPathNode): unknown[] {
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new GoFloat(node.value));
      case 'bool':
        return input.map(() => node.value);
      case 'wildcard':
        return input.flatMap((v) => children(v));
      case 'recursive':
        return evalRecursive(input);
      case 'union':
        return node.nodes.flatMap((n) => this.evalList(input, n));
      case 'identifier':
        // jsonpath.go `evalIdentifier`: range/end steer multi-action templates, not served here.
        throw new JsonPathEvalError(
          node.name === 'range' || node.name === 'end'
            ? `${node.name} is not supported`
            : `unrecognized identifier ${node.name}`,
          input,
        );
    }
  }

  private evalList(input: unknown[], node: ListNode): unknown[] {
    let cur = input;
    for (const n of node.nodes) cur = this.walk(cur, n);
    return cur;
  }

  private evalField(input: unknown[], name: string): unknown[] {
    const results: unknown[] = [];
    for (const v of input) if (isMap(v) && Object.hasOwn(v, name)) results.push(v[name]);
    if (results.length === 0 && input.length > 0 && !this.allowMissingKeys) {
      throw new JsonPathEvalError(`${name} is not found`, results);
    }
    return results;
  }

  private evalFilter(input: unknown[], node: Extract<JsonPathNode, { type: 'filter' }>): unknown[] {
    const results: unknown[] = [];
    for (const value of input) {
      if (!Array.isArray(value)) {
        throw new JsonPathEvalError(`${goText(value)} is not array or slice and cannot be filtered`, input);
      }
      for (const item of value) {
        let lefts: unknown[];
        let leftError: JsonPathEvalError | undefined;
        try {
          lefts = this.evalList([item], node.left);
        } catch (e) {
          if (!(e instanceof JsonPathEvalError)) throw e;
          lefts = e.values;
          leftError = e;
        }
        if (node.operator === 'exists') {
          if (lefts.length > 0) results.push(item);
          continue;
        }
        if (leftError) throw new JsonPathEvalError(leftError.message, input);
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new JsonPathEvalError('can only compare one element at a time', input);
        const rights = this.evalList([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new JsonPathEvalError('can only compare one element at a time', input);
        if (compare(node.operator, lefts[0], rights[0], results)) results.push(item);
      }
    }
    return results;
  }
}

/** What `.*` yields of one value: a map's values, an array's items, a string's bytes. */
function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.values(v);
  if (typeof v === 'string') return [...new TextEncoder().encode(v)].map((b) => new GoByte(b));
  return [];
}

/** jsonpath.go `evalRecursive`: each value that has children, then its descendants, depth first. */
function evalRecursive(input: unknown[]): unknown[] {
  const result: unknown[] = [];
  for (const value of input) {
    const kids = children(value);
    if (kids.length === 0) continue;
    result.push(value, ...evalRecursive(kids));
  }
  return result;
}

/** jsonpath.go `evalArray`: an index or slice of each array; out of bounds is an error. */
function evalArray(input: unknown[], params: Extract<JsonPathNode, { type: 'array' }>['params']): unknown[] {
  const result: unknown[] = [];
  for (const value of input) {
    if (isNil(value)) continue;
    if (!Array.isArray(value)) throw new JsonPathEvalError(`${goType(value)} is not array or slice`, input);
    const len = value.length;
    let start = params[0].known ? params[0].value : 0;
    if (start < 0) start += len;
    let end = params[1].known ? params[1].value : len;
    if (end < 0 || (end === 0 && params[1].derived)) end += len;
    if (end === start) return result; // zero elements requested: allowed, and the walk stops here.
    if (start >= len || start < 0) {
      throw new JsonPathEvalError(`array index out of bounds: index ${start}, length ${len}`, input);
    }
    if (end > len || end < 0) {
      throw new JsonPathEvalError(`array index out of bounds: index ${end - 1}, length ${len}`, input);
    }
    if (start > end)
      throw new JsonPathEvalError(`starting index ${start} is greater than ending index ${end}`, input);
    let step = 1;
    if (params[2].known) {
      if (params[2].value <= 0) throw new JsonPathEvalError('step must be > 0', input);
      step = params[2].value;
    }
    for (let i = start; i < end; i += step) result.push(value[i]);
  }
  return result;
}

type BasicKind = 'bool' | 'int' | 'uint' | 'float' | 'string';

/** funcs.go `basicKind`; null, maps and arrays are not comparable. */
function basicKind(v: unknown): [BasicKind, number | string | boolean] | undefined {
  if (typeof v === 'boolean') return ['bool', v];
  if (typeof v === 'string') return ['string', v];
  if (typeof v === 'number') return [Number.isInteger(v) ? 'int' : 'float', v];
  if (v instanceof GoFloat) return ['float', v.value];
  if (v instanceof GoByte) return ['uint', v.value];
  return undefined;
}

/** The filter operators, as funcs.go `Equal`, `Less` and the ones built on them. */
function compare(op: string, left: unknown, right: unknown, results: unknown[]): boolean {
  const l = basicKind(left);
  const r = basicKind(right);
  if (!l || !r) throw new JsonPathEvalError('invalid type for comparison', results);
  // int and uint compare by value; any other mix of kinds is an error.
  const mixed = l[0] !== r[0] && !(['int', 'uint'].includes(l[0]) && ['int', 'uint'].includes(r[0]));
  if (mixed) throw new JsonPathEvalError('incompatible types for comparison', results);
  const equal = l[1] === r[1];
  const less = (): boolean => {
    if (l[0] === 'bool') throw new JsonPathEvalError('invalid type for comparison', results);
    return l[1] < r[1];
  };
  switch (op) {
    case '==':
      return equal;
    case '!=':
      return !equal;
    case '<':
      return less();
    case '<=':
      return less() || equal;
    case '>':
      return !(less() || equal);
    case '>=':
      return !less();
    default:
      throw new JsonPathEvalError(`unrecognized filter operator ${op}`, results);
  }
}

/** Go's type name of a decoded JSON value, for error messages. */
function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (v instanceof GoFloat) return 'float64';
  if (v instanceof GoByte) return 'uint8';
  return 'map[string]interface {}';
}

/** fmt's `%v` of a float64: shortest digits, in `%e` form (`1e+06`) when the exponent is < -4 or >= 6. */
export function goFloatText(f: number): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // strconv.FormatFloat(f, 'g', -1, 64): the %e form when exp < -4 || exp >= 6 (eprec is 6 for shortest).
  const [mantissa, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6)
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(f);
}

/** encoding/json `Marshal` of a decoded value: keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJsonMarshal(v: unknown): string {
  const sorted = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sorted);
    if (isMap(x)) {
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sorted(x[k])]),
      );
    }
    if (x instanceof GoFloat || x instanceof GoByte) return x.value;
    return x;
  };
  return JSON.stringify(sorted(v)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}

/** jsonpath.go `evalToText` (fmt.Fprint through template.PrintableValue) of one scalar. */
function goText(v: unknown): string {
  if (v === undefined) return '<no value>';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatText(v);
  if (v instanceof GoFloat) return goFloatText(v.value);
  if (v instanceof GoByte) return String(v.value);
  if (typeof v === 'object') return goJsonMarshal(v);
  return String(v);
}

/**
 * jsonpath.go `PrintResults` (JSON output off): maps and arrays as compact
 * JSON, scalars as fmt prints them (a JSON null as `null`), joined by single
 * spaces. `undefined` stands for Go's invalid reflect.Value: `<no value>`.
 */
export function printResults(results: unknown[]): string {
  return results.map((r) => (Array.isArray(r) || isMap(r) ? goJsonMarshal(r) : goText(r))).join(' ');
}
