/**
 * One CEL expression compiled for a schema node: parsed and type-checked as written (the
 * errors a CRD is refused with), then rewritten for evaluation so that every comprehension
 * charges the cost meter on entry and `.matches` runs RE2's syntax. The rewrite works on
 * source ranges of the parsed tree, so the checked and the evaluated expression are the same
 * program.
 */
import { Environment, type ParseError } from '@marcbachmann/cel-js';
import type { Structural } from '../schema/structural.js';
import { children, comprehension, isSelectChain, type Node } from './ast.js';
import { charge } from './cost.js';
import { estimate, rootScope } from './estimate.js';
import { undefinedFields } from './fields.js';
import { registerKubernetesLibraries } from './library.js';
import { setFormatParser } from './values.js';

/** The rule's variables: `self` always; `oldSelf` plain, or optional (`optionalOldSelf`). */
function newEnv(optionalOldSelf: boolean): Environment {
  const env = new Environment({
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: false,
    limits: {
      maxAstNodes: 100_000,
      maxDepth: 250,
      maxListElements: 10_000,
      maxMapEntries: 10_000,
      maxCallArguments: 32,
    },
  });
  env.registerVariable('self', 'dyn');
  env.registerVariable('oldSelf', optionalOldSelf ? 'optional<dyn>' : 'dyn');
  registerKubernetesLibraries(env);
  // A formatted field is a timestamp or duration already; converting it again is the identity.
  env.registerFunction('timestamp(google.protobuf.Timestamp): google.protobuf.Timestamp', (t: Date) => t);
  env.registerFunction('duration(google.protobuf.Duration): google.protobuf.Duration', (d: unknown) => d);
  env.registerFunction('__has(dyn, string): bool', (obj: unknown, field: string) => {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
      throw new Error(`invalid type for field selection.`);
    return Object.hasOwn(obj, field);
  });
  env.registerFunction('__cost(dyn, int): dyn', (range: unknown, perItem: bigint) => {
    const n = Array.isArray(range)
      ? range.length
      : range instanceof Set
        ? range.size
        : typeof range === 'object' && range !== null
          ? Object.keys(range).length
          : 0;
    charge(n * Number(perItem));
    return range;
  });
  return env;
}

let envs: [Environment, Environment] | undefined;
/** Environments are costly to build; two are shared by every CRD. */
function env(optionalOldSelf: boolean): Environment {
  if (envs === undefined) {
    envs = [newEnv(false), newEnv(true)];
    const toDuration = new Environment().registerVariable('s', 'string').parse('duration(s)');
    setFormatParser((format, value) => {
      if (format === 'date-time' || format === 'datetime' || format === 'date') {
        const t = new Date(format === 'date' ? `${value}T00:00:00Z` : value);
        return Number.isNaN(t.getTime()) ? undefined : t;
      }
      if (format === 'duration') {
        try {
          return toDuration({ s: value });
        } catch {
          return undefined;
        }
      }
      if (format === 'byte') return new Uint8Array(Buffer.from(value, 'base64'));
      return undefined;
    });
  }
  return envs[optionalOldSelf ? 1 : 0];
}

/** Nodes counted once (a comprehension's body is charged at run time, per element). */
function flatCost(n: Node): number {
  const c = comprehension(n);
  if (c) return 1 + flatCost(c.receiver);
  return 1 + children(n).reduce((sum, k) => sum + flatCost(k), 0);
}

/**
 * The source of `n` rewritten: `has(x[0].f)` (any operand, as cel-go allows) as
 * `__has(x[0], 'f')`; with `meter`, comprehensions charged and `.matches` made RE2.
 */
function rewrite(src: string, n: Node, meter: boolean): string {
  const args = Array.isArray(n.args) ? (n.args as unknown[]) : [];
  if (n.op === 'call' && args[0] === 'has') {
    const arg = (args[1] as Node[] | undefined)?.[0];
    if (arg !== undefined && arg.op === '.' && !isSelectChain(arg)) {
      const [obj, field] = arg.args as [Node, string];
      return `__has(${rewrite(src, obj, meter)}, ${JSON.stringify(field)})`;
    }
  }
  const c = meter ? comprehension(n) : undefined;
  const receiver = meter && n.op === 'rcall' && args[0] === 'matches' ? (args[1] as Node) : undefined;
  let out = '';
  let at = n.start;
  for (const k of children(n)) {
    let gap = src.slice(at, k.start);
    // The text between a receiver and its first argument is `.name(`.
    if (receiver !== undefined && at === receiver.end)
      gap = gap.replace(/^(\s*\.\s*)matches/, '$1re2Matches');
    let piece = rewrite(src, k, meter);
    if (c && k === c.receiver) {
      const perItem = c.body.reduce((sum, b) => sum + flatCost(b), 2);
      piece = `__cost(${piece}, ${perItem})`;
    }
    out += gap + piece;
    at = k.end;
  }
  return out + src.slice(at, n.end);
}

/** `rewrite` of a whole expression: a parenthesized root's range leaves out its parentheses. */
function rewriteAll(src: string, root: Node, meter: boolean): string {
  return src.slice(0, root.start) + rewrite(src, root, meter) + src.slice(root.end);
}

/** A compiled expression. */
export interface Program {
  /** Evaluates with `self` and `oldSelf` bound; throws the library's errors or the cost error. */
  run(vars: { self: unknown; oldSelf?: unknown }): unknown;
  /** The type the checker found (`bool`, `string`, `dyn`, ...). */
  type: string;
  usesOldSelf: boolean;
  /** The estimated largest cost of one evaluation on the node's schema. */
  maxCost: number;
  /** The cost charged before any comprehension. */
  baseCost: number;
}

/** cel-go's issue text: `ERROR: <input>:line:col: message` then the line and a caret. */
function issueAt(src: string, pos: number, summary: string): string {
  const before = src.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - (before.lastIndexOf('\n') + 1);
  const text = src.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${summary}\n | ${text}\n | ${'.'.repeat(col)}^`;
}

/** A library error as a cel-go issue. */
function issueText(src: string, err: Error & { range?: { start: number } }): string {
  return issueAt(src, err.range?.start ?? 0, (err.message.split('\n')[0] ?? '').trim());
}

/** What compiling a rule gives regardless of the node it is on (`self` is `dyn` to the checker). */
interface Checked {
  root: Node;
  /** The checker's error, as cel-go's issue text. */
  error?: string;
  run?: Program['run'];
  type: string;
  usesOldSelf: boolean;
  baseCost: number;
}

/**
 * Compiled rules by text and `optionalOldSelf`, most recently used last, so that a CRD's
 * validation and its serving, every node repeating a rule (Istio's 40 `duration(self) >=
 * duration('1ms')`), and the next CRD version share one parse and check. Only the schema's
 * parts (the field check, the cost estimate) are done per node. Bounded: the oldest go first.
 */
const compiled = new Map<string, Checked | string>();
const COMPILED_MAX = 4096;

function checkedOf(src: string, optionalOldSelf: boolean): Checked | string {
  const key = `${optionalOldSelf ? 1 : 0}${src}`;
  const hit = compiled.get(key);
  if (hit !== undefined) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  const out = check(src, optionalOldSelf);
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, out);
  return out;
}

function check(src: string, optionalOldSelf: boolean): Checked | string {
  const e = env(optionalOldSelf);
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = e.parse(src);
  } catch (err) {
    return issueText(src, err as ParseError);
  }
  const root = parsed.ast as unknown as Node;
  let usesOldSelf = false;
  const walk = (n: Node): void => {
    if (n.op === 'id' && n.args === 'oldSelf') usesOldSelf = true;
    children(n).forEach(walk);
  };
  walk(root);
  const out: Checked = { root, type: 'dyn', usesOldSelf, baseCost: flatCost(root) };
  const checkedSrc = rewriteAll(src, root, false);
  const checkedParse = checkedSrc === src ? parsed : e.parse(checkedSrc);
  const checked = checkedParse.check();
  if (!checked.valid) {
    out.error = issueText(checkedSrc, checked.error as Error);
    return out;
  }
  out.type = checked.type ?? 'dyn';
  const rewritten = rewriteAll(src, root, true);
  // Without a comprehension or `matches` the metered form is the checked one: no third parse.
  if (rewritten === checkedSrc) {
    out.run = (vars) => checkedParse(vars);
    return out;
  }
  let program: ReturnType<Environment['parse']>;
  try {
    program = e.parse(rewritten);
    program.check();
  } catch (err) {
    return `internal error: the metered form of the rule does not compile: ${(err as Error).message.split('\n')[0]}`;
  }
  out.run = (vars) => program(vars);
  return out;
}

/** Compiles `src` for a node of schema `schema` (`resourceRoot`: the object's root); a string is the compile error (cel-go's issues). */
export function compileExpression(
  src: string,
  schema: Structural,
  optionalOldSelf: boolean,
  resourceRoot = false,
): Program | string {
  const c = checkedOf(src, optionalOldSelf);
  if (typeof c === 'string') return c;
  // The schema's part of the check comes first, as cel-go reports an undefined field.
  const undefinedField = undefinedFields(c.root, schema, resourceRoot);
  if (undefinedField.length > 0)
    return undefinedField.map((f) => issueAt(src, f.pos, `undefined field '${f.name}'`)).join('\n');
  if (c.error !== undefined || c.run === undefined) return c.error ?? 'internal error';
  return {
    run: c.run,
    type: c.type,
    usesOldSelf: c.usesOldSelf,
    maxCost: estimate(c.root, rootScope(schema)).cost,
    baseCost: c.baseCost,
  };
}
