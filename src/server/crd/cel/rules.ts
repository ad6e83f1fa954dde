/**
 * The rules of one schema node compiled once (compilation.go `Compile` / `compileRule`):
 * the rule must type-check and give a bool, `messageExpression` a string; `oldSelf` makes it
 * a transition rule; `fieldPath` is normalized (validation.go `ValidFieldPath`).
 */
import { additionalSchema, type Structural } from '../schema/structural.js';
import { compileExpression, type Program } from './program.js';

/** One `x-kubernetes-validations` entry as written. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** A compiled rule (`CompilationResult`). */
export interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  /** `compilation failed: ...` or `cel expression must evaluate to a bool`. */
  error?: string;
  messageExpression?: Program;
  messageExpressionError?: string;
  /** The normalized `fieldPath`, `''` when absent or invalid. */
  fieldPath: string;
}

function asRule(raw: unknown): ValidationRule {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    rule: s(r.rule) ?? '',
    message: s(r.message),
    messageExpression: s(r.messageExpression),
    reason: s(r.reason),
    fieldPath: s(r.fieldPath),
    optionalOldSelf: typeof r.optionalOldSelf === 'boolean' ? r.optionalOldSelf : undefined,
  };
}

/** `compileRule`: one rule against its node's schema. */
export function compileRule(raw: unknown, schema: Structural, resourceRoot = false): CompiledRule {
  const rule = asRule(raw);
  const out: CompiledRule = { rule, fieldPath: '' };
  if (rule.rule.trim() === '') return out;
  const program = compileExpression(rule.rule, schema, rule.optionalOldSelf === true, resourceRoot);
  if (typeof program === 'string') {
    out.error = `compilation failed: ${program}`;
    return out;
  }
  if (program.type !== 'bool' && program.type !== 'dyn') {
    out.error = 'cel expression must evaluate to a bool';
    return out;
  }
  out.program = program;
  if (rule.messageExpression !== undefined && rule.messageExpression !== '') {
    const message = compileExpression(
      rule.messageExpression,
      schema,
      rule.optionalOldSelf === true,
      resourceRoot,
    );
    if (typeof message === 'string')
      out.messageExpressionError = `messageExpression compilation failed: ${message}`;
    else if (message.type !== 'string' && message.type !== 'dyn')
      out.messageExpressionError = 'messageExpression must evaluate to a string';
    else out.messageExpression = message;
  }
  if (rule.fieldPath) out.fieldPath = validFieldPath(rule.fieldPath, schema) ?? '';
  return out;
}

const cache = new WeakMap<readonly unknown[], CompiledRule[]>();

/**
 * The compiled form of `rules` (a node's `celRules`, or an allOf branch's, which upstream
 * compiles against the node's own schema: validation.go `validator`), compiled on first use
 * and kept with the rules.
 */
export function compiledRules(
  node: Structural,
  resourceRoot = false,
  rules: readonly unknown[] = node.celRules,
): CompiledRule[] {
  let compiled = cache.get(rules);
  if (compiled === undefined) {
    compiled = rules.map((r) => compileRule(r, node, resourceRoot));
    cache.set(rules, compiled);
  }
  return compiled;
}

/** The allOf branches (and theirs) whose rules apply to a node. */
export function allOfRules(node: Structural): Array<readonly unknown[]> {
  const out: Array<readonly unknown[]> = [];
  const visit = (s: Structural): void => {
    for (const b of s.allOf) {
      if (b.celRules.length > 0) out.push(b.celRules);
      visit(b);
    }
  };
  visit(node);
  return out;
}

/** Compiles every rule of a tree now (once per CRD version), so that no write pays for it. */
export function compileTree(node: Structural, resourceRoot = true): void {
  compiledRules(node, resourceRoot);
  for (const rules of allOfRules(node)) compiledRules(node, resourceRoot, rules);
  for (const p of node.properties?.values() ?? []) compileTree(p, false);
  if (node.items) compileTree(node.items, false);
  const extra = additionalSchema(node);
  if (extra) compileTree(extra, false);
}

const UNESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

/**
 * validation.go `ValidFieldPath`: a JSONPath-like `.a.b['c.d']` from the rule's node, as the
 * field.Path string it names (`a.b[c.d]` for a map key), or undefined when it leads nowhere.
 */
export function validFieldPath(jsonPath: string, root: Structural): string | undefined {
  const tokens: string[] = [];
  for (let i = 0; i < jsonPath.length; ) {
    const ch = jsonPath[i]!;
    if (ch === '.' || ch === '[' || ch === ']') {
      tokens.push(ch);
      i++;
    } else if (ch === "'") {
      let j = i + 1;
      while (j < jsonPath.length && !(jsonPath[j] === "'" && jsonPath[j - 1] !== '\\')) j++;
      tokens.push(jsonPath.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < jsonPath.length && !'.[]'.includes(jsonPath[j]!)) j++;
      tokens.push(jsonPath.slice(i, j));
      i = j;
    }
  }
  let path = '';
  let schema: Structural | undefined = root;
  const step = (name: string): boolean => {
    if (schema?.properties) {
      schema = schema.properties.get(name);
      if (schema === undefined) return false;
      path = path === '' ? name : `${path}.${name}`;
      return true;
    }
    if (schema?.additionalProperties !== undefined) {
      schema = additionalSchema(schema);
      path = `${path}[${name}]`;
      return true;
    }
    return false;
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined || !step(name)) return undefined;
    } else if (tok === '[') {
      const quoted = tokens[++i];
      if (quoted === undefined || quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'"))
        return undefined;
      let bad = false;
      const name = quoted.slice(1, -1).replace(/\\(.)/g, (_m, c: string) => {
        const u = UNESCAPES[c];
        if (u === undefined) bad = true;
        return u ?? '';
      });
      if (bad || !step(name) || tokens[++i] !== ']') return undefined;
    } else return undefined;
  }
  return path;
}
