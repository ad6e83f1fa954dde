/**
 * The static cost estimate of one expression, after cel-go checker/cost.go: one unit per
 * variable, selection, operator and call, nothing for constants; a comprehension's body times
 * the largest size of its range; string work by size (`StringTraversalCostFactor` 0.1,
 * `RegexStringLengthCostFactor` 0.25): `contains` the product of both strings' traversals,
 * `matches` the string's traversal times the pattern's, `startsWith`/`endsWith` the prefix's,
 * `+` on strings the result's, `==` the shorter string's. Sizes come from the schema (cost.ts
 * `maxSize`: maxItems, maxProperties, maxLength, else what fits in a request); a value whose
 * size cel-go cannot know (a conversion's result) is unbounded, so string work on it costs
 * without bound, as it does upstream.
 */
import { additionalSchema, type Structural } from '../schema/structural.js';
import { children, comprehension, type Node } from './ast.js';
import { maxSize } from './cost.js';

/** What the estimate knows of a value: its kind and largest size (Infinity: unknown). */
interface Estimate {
  cost: number;
  size: number;
  kind: 'string' | 'list' | 'map' | 'scalar' | 'unknown';
  schema?: Structural;
  /** A list literal's elements (cost.go `costCreateList`: the union of their sizes). */
  elem?: Estimate;
}

const TRAVERSAL = 0.1;
const REGEX = 0.25;
const factor = (size: number, f: number): number => (size === 0 ? 0 : Math.ceil(size * f));
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : a * b);

/** The variables in scope: `self`, `oldSelf`, comprehension and `cel.bind` variables. */
export type Scope = Map<string, Estimate>;

function ofSchema(s: Structural | undefined, cost: number): Estimate {
  if (s === undefined) return { cost, size: Number.POSITIVE_INFINITY, kind: 'unknown' };
  const type = s.types.length === 1 ? s.types[0] : undefined;
  const kind =
    type === 'string' ? 'string' : type === 'array' ? 'list' : type === 'object' ? 'map' : 'scalar';
  return { cost, size: maxSize(s), kind, schema: s };
}

/** The root scope of a rule on a node of schema `s`. */
export function rootScope(s: Structural): Scope {
  const self = ofSchema(s, 1);
  return new Map([
    ['self', self],
    ['oldSelf', self],
  ]);
}

/**
 * A comprehension variable: a list's element as its items' schema, a map's key as upstream's
 * size estimator sees it, the `StringType` of the map's declared type, whose `MaxElements` is
 * never set (compilation.go `sizeEstimator.EstimateSize` on `@keys`; types.go `NewMapType`):
 * a key's size is 0, so string work on keys costs nothing beyond its call.
 */
function element(e: Estimate): Estimate {
  const s = e.schema;
  if (e.elem !== undefined) return { ...e.elem, cost: 1 };
  if (s === undefined) return { cost: 1, size: Number.POSITIVE_INFINITY, kind: 'unknown' };
  if (s.types.includes('array')) return ofSchema(s.items, 1);
  return { cost: 1, size: 0, kind: 'string' };
}

const SAME_SIZE = new Set(['lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'charAt', 'find']);
const TRAVERSE = new Set([
  'indexOf',
  'lastIndexOf',
  'split',
  'join',
  'findAll',
  'url',
  'isURL',
  'quantity',
  'isQuantity',
  'format',
]);

/** The estimate of `n` in `scope`. */
export function estimate(n: Node, scope: Scope): Estimate {
  const c = comprehension(n);
  if (c) {
    const range = estimate(c.receiver, scope);
    const inner = new Map(scope).set(c.iterVar, element(range));
    const body = c.body.reduce((sum, b) => sum + estimate(b, inner).cost, 0);
    // Each iteration: the loop condition and step beside the body.
    const cost = 1 + range.cost + mul(range.size, body + 2);
    const list = n.args && (n.args as unknown[])[0];
    return list === 'map' || list === 'filter'
      ? { cost, size: range.size, kind: 'list' }
      : { cost, size: 1, kind: 'scalar' };
  }
  switch (n.op) {
    case 'value': {
      const v = n.args;
      return typeof v === 'string'
        ? { cost: 0, size: Buffer.byteLength(v), kind: 'string' }
        : { cost: 0, size: 1, kind: 'scalar' };
    }
    case 'id':
      return scope.get(n.args as string) ?? { cost: 1, size: Number.POSITIVE_INFINITY, kind: 'unknown' };
    case '.':
    case '.?': {
      const [obj, name] = n.args as [Node, string];
      const o = estimate(obj, scope);
      const s = o.schema;
      return ofSchema(s?.properties?.get(name) ?? (s ? additionalSchema(s) : undefined), o.cost + 1);
    }
    case '[]':
    case '[?]': {
      const [obj, index] = n.args as [Node, Node];
      const o = estimate(obj, scope);
      const cost = o.cost + estimate(index, scope).cost + 1;
      const s = o.schema;
      return ofSchema(s?.items ?? (s ? additionalSchema(s) : undefined), cost);
    }
  }
  const parts = children(n).map((k) => estimate(k, scope));
  const sum = parts.reduce((t, p) => t + p.cost, 0);
  const [l, r] = parts;
  switch (n.op) {
    case '+':
      if (l && r && (l.kind === 'string' || r.kind === 'string' || l.kind === 'list' || r.kind === 'list')) {
        const size = l.size + r.size;
        const kind = l.kind === 'list' || r.kind === 'list' ? 'list' : 'string';
        return { cost: sum + 1 + (kind === 'string' ? factor(size, TRAVERSAL) : 0), size, kind };
      }
      return { cost: sum + 1, size: 1, kind: 'scalar' };
    case '==':
    case '!=': {
      // cost.go `Equals`: the smaller side's size times the traversal factor and no base cost
      // (1 for scalars, whose size is 1; 0 against an empty string literal).
      const sized = (p?: Estimate): boolean =>
        p?.kind === 'string' || p?.kind === 'list' || p?.kind === 'map';
      if (l && r && l.kind !== 'scalar' && r.kind !== 'scalar' && (sized(l) || sized(r)))
        return { cost: sum + factor(Math.min(l.size, r.size), TRAVERSAL), size: 1, kind: 'scalar' };
      return { cost: sum + 1, size: 1, kind: 'scalar' };
    }
    case '?:': {
      const [cond, a, b] = parts;
      return {
        cost: (cond?.cost ?? 0) + Math.max(a?.cost ?? 0, b?.cost ?? 0),
        size: Math.max(a?.size ?? 1, b?.size ?? 1),
        kind: a?.kind === 'unknown' ? (b?.kind ?? 'unknown') : (a?.kind ?? 'unknown'),
        // `has(self.x) ? self.x : []`: the branch with a schema says what its elements are.
        schema: a?.schema ?? b?.schema,
        elem: a?.elem ?? b?.elem,
      };
    }
    case '&&':
    case '||':
      return { cost: sum, size: 1, kind: 'scalar' };
    case 'list':
      // createListBaseCost, and a literal's size is its length (cost.go `costCreateList`).
      return {
        cost: sum + 10,
        size: parts.length,
        kind: 'list',
        elem:
          parts.length === 0
            ? undefined
            : {
                cost: 0,
                size: Math.max(...parts.map((p) => p.size)),
                kind: parts.every((p) => p.kind === parts[0]!.kind) ? parts[0]!.kind : 'unknown',
                schema: parts.every((p) => p.schema === parts[0]!.schema) ? parts[0]!.schema : undefined,
              },
      };
    case 'map':
      return { cost: sum + 30, size: (n.args as unknown[]).length, kind: 'map' };
    case 'rcall':
    case 'call':
      return call(n, parts, sum);
    default:
      return { cost: sum + 1, size: Number.POSITIVE_INFINITY, kind: 'unknown' };
  }
}

/** A function call: its own cost by cel-go's rule for it, and its result's size. */
function call(n: Node, parts: Estimate[], sum: number): Estimate {
  const name = (n.args as unknown[])[0] as string;
  const receiverCall = n.op === 'rcall';
  const target = receiverCall ? parts[0] : undefined;
  const args = receiverCall ? parts.slice(1) : parts;
  const first = args[0];
  const base = sum + 1;
  switch (name) {
    case 'size':
      return { cost: base, size: 1, kind: 'scalar' };
    case 'has':
      // A presence test costs 1 beside its operand's own cost, the select itself costing
      // nothing (cost.go `costSelect` with `IsTestOnly`): the select's estimate already holds it.
      return { cost: sum, size: 1, kind: 'scalar' };
    case 'contains':
      return {
        cost: base + mul(factor(target?.size ?? 0, TRAVERSAL), factor(first?.size ?? 0, TRAVERSAL)),
        size: 1,
        kind: 'scalar',
      };
    case 'startsWith':
    case 'endsWith':
      return { cost: base + factor(first?.size ?? 0, TRAVERSAL), size: 1, kind: 'scalar' };
    case 'matches': {
      const [str, re] = receiverCall ? [target, first] : [args[0], args[1]];
      return {
        cost: base + mul(factor(str?.size ?? 0, TRAVERSAL), factor(re?.size ?? 0, REGEX)),
        size: 1,
        kind: 'scalar',
      };
    }
    // k8s.io/apiserver pkg/cel/library/cost.go `EstimateCallCost`: these replace the call's
    // base unit with their own.
    case 'isIP':
    case 'isCIDR':
    case 'cidr':
      return { cost: sum + factor(first?.size ?? 0, TRAVERSAL), size: 1, kind: 'scalar' };
    case 'ip':
      // `cidr.ip()` reads a field; `ip(s)` parses its string.
      return {
        cost: receiverCall ? sum + 1 : sum + factor(first?.size ?? 0, TRAVERSAL),
        size: 1,
        kind: 'scalar',
      };
    case 'isCanonical':
      return { cost: sum + factor(first?.size ?? 0, 2 * TRAVERSAL), size: 1, kind: 'scalar' };
    case 'masked':
    case 'prefixLength':
    case 'family':
    case 'isUnspecified':
    case 'isLoopback':
    case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast':
    case 'isGlobalUnicast':
      return { cost: sum + 1, size: 1, kind: 'scalar' };
    case 'containsIP':
    case 'containsCIDR': {
      // Two addresses of up to 16 bytes compared (and, for a CIDR, one masked plus 1); a string
      // argument is parsed first.
      const parse = first?.kind === 'string' ? factor(first.size, TRAVERSAL) : 0;
      return { cost: sum + 4 + (name === 'containsCIDR' ? 3 : 0) + parse, size: 1, kind: 'scalar' };
    }
    case 'validate':
      // The string's traversal times MaxNameFormatRegexSize (128) a regex character.
      return {
        cost: sum + factor(factor(first?.size ?? 0, TRAVERSAL), 128 * REGEX),
        size: 1,
        kind: 'unknown',
      };
    case 'string':
      // cel-go gives a conversion's result no size, whatever its argument.
      return { cost: base, size: Number.POSITIVE_INFINITY, kind: 'string' };
  }
  const traverse = factor((target ?? first)?.size ?? 0, TRAVERSAL);
  if (SAME_SIZE.has(name))
    return { cost: base + traverse, size: target?.size ?? Number.POSITIVE_INFINITY, kind: 'string' };
  if (TRAVERSE.has(name))
    return { cost: base + traverse, size: target?.size ?? Number.POSITIVE_INFINITY, kind: 'unknown' };
  return { cost: base, size: Number.POSITIVE_INFINITY, kind: 'unknown' };
}
