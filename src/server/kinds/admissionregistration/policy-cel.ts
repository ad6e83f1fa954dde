/**
 * The compile check of an admission policy's CEL expressions (validation.go
 * `validateCELCondition` over k8s.io/apiserver pkg/admission/plugin/cel's compiler): an expression
 * that does not parse, or names a variable its environment does not declare, is refused with
 * cel-go's issue text (`compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in
 * container '')` and the line with a caret). Type errors are not looked for: the policies'
 * environment holds Kubernetes' CEL libraries (`quantity()`, `authorizer`, ...), which this check
 * does not declare, so an expression using them is accepted rather than wrongly refused.
 */
import { Environment, type ParseError } from '@marcbachmann/cel-js';

/**
 * Which variables an expression's environment declares (apiserver pkg/admission/plugin/cel
 * `OptionalVariableDeclarations` and the composited compiler's `variables`).
 */
export interface CelVariables {
  params: boolean;
  authorizer: boolean;
  /** The policy declares `spec.variables`: `variables` is in scope. */
  composition: boolean;
}

const BASE = ['object', 'oldObject', 'request', 'namespaceObject'];

const envs = new Map<string, Environment>();

function envFor(vars: CelVariables): Environment {
  const key = `${+vars.params}${+vars.authorizer}${+vars.composition}`;
  let env = envs.get(key);
  if (env === undefined) {
    env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    const names = [...BASE];
    if (vars.params) names.push('params');
    if (vars.authorizer) names.push('authorizer');
    if (vars.composition) names.push('variables');
    for (const n of names) env.registerVariable(n, 'dyn');
    envs.set(key, env);
  }
  return env;
}

/** cel-go's issue text: `ERROR: <input>:line:col: message`, then the line and a caret under the column. */
function issueAt(src: string, pos: number, summary: string): string {
  const before = src.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - (before.lastIndexOf('\n') + 1);
  const text = src.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${summary}\n | ${text}\n | ${'.'.repeat(col)}^`;
}

/**
 * The types an expression must have (cel `Compiler.CompileCELExpression`'s `ReturnTypes`): a
 * validation or match condition `bool`, a message `string`, an audit annotation's value
 * `string` or `null`.
 */
export type CelResult = 'bool' | 'string' | 'string-or-null';

/** The scalar types cel-go names in its return-type error (cel-js's name to cel-go's). */
const SCALARS: Readonly<Record<string, string>> = {
  bool: 'bool',
  int: 'int',
  uint: 'uint',
  double: 'double',
  string: 'string',
  bytes: 'bytes',
  null: 'null_type',
};

const checked = new Map<string, string | undefined>();

/**
 * The compile error of `src` in the environment `vars` describes (`compilation failed: ...`, or
 * `must evaluate to bool but got int` when it is of a scalar type other than `result`), or
 * undefined when it compiles as far as this check can tell.
 */
export function celCompileError(src: string, vars: CelVariables, result?: CelResult): string | undefined {
  const key = `${+vars.params}${+vars.authorizer}${+vars.composition}${result ?? ''}\0${src}`;
  if (checked.has(key)) return checked.get(key);
  const out = compileError(src, vars, result);
  if (checked.size > 1024) checked.clear();
  checked.set(key, out);
  return out;
}

function compileError(src: string, vars: CelVariables, result: CelResult | undefined): string | undefined {
  const env = envFor(vars);
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(src);
  } catch (err) {
    const e = err as ParseError & { range?: { start: number } };
    const summary = (e.message.split('\n')[0] ?? '').trim();
    return `compilation failed: ${issueAt(src, e.range?.start ?? 0, `Syntax error: ${summary}`)}`;
  }
  const outcome = parsed.check();
  if (outcome.valid) {
    const got = SCALARS[outcome.type ?? ''];
    if (result === undefined || got === undefined) return undefined;
    if (result === 'bool' && got !== 'bool') return `must evaluate to bool but got ${got}`;
    if (result === 'string' && got !== 'string') return `must evaluate to string but got ${got}`;
    if (result === 'string-or-null' && got !== 'string' && got !== 'null_type')
      return `must evaluate to one of [string null_type] but got ${got}`;
    return undefined;
  }
  const e = outcome.error as Error & { range?: { start: number } };
  const unknown = /^Unknown variable: ([A-Za-z_][A-Za-z0-9_]*)/.exec(e.message);
  if (unknown === null) return undefined;
  return `compilation failed: ${issueAt(src, e.range?.start ?? 0, `undeclared reference to '${unknown[1]}' (in container '')`)}`;
}
