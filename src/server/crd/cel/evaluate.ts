/**
 * Running a node's compiled rules on a write, as pkg/apiserver/schema/cel/validation.go
 * `validateExpressions` (v0.37) does: transition rules only with a correlated old value (or
 * `optionalOldSelf`), each evaluation bounded by `PerCallLimit` and all of a request's by
 * `RuntimeCELCostBudget`, a failed rule reported at its node (or its `fieldPath`) with its
 * `message`, `messageExpression` or `failed rule: <rule>`, as its `reason` says, and, when the
 * value is unchanged and the rule does not use `oldSelf`, ratcheted away.
 */
import { Optional } from '@marcbachmann/cel-js';
import { fieldValueText } from '../../kinds/field-value.js';
import type { FieldError } from '../../kinds/types.js';
import { CrdErrorType } from '../schema/errors.js';
import type { Structural } from '../schema/structural.js';
import type { CelHook, CelNode } from '../schema/validate.js';
import { CostLimitExceeded, meter, PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from './cost.js';
import type { Program } from './program.js';
import { type CompiledRule, compiledRules, type ValidationRule } from './rules.js';
import { toCel } from './values.js';

/** celconfig `MaxEvaluatedMessageExpressionSizeBytes`. */
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;
const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

/** The node's `type` as the error value: `"object"`, `"string"`, `""` for int-or-string. */
const typeOf = (s: Structural): string => (s.types.length === 1 ? s.types[0]! : '');

function fieldError(type: string, field: string, message: string): FieldError {
  return { type, field, message };
}
const invalid = (field: string, value: unknown, detail: string): FieldError =>
  fieldError(CrdErrorType.Invalid, field, `Invalid value: ${fieldValueText(value)}: ${detail}`);

/** `field.OmitValueType{}`: ErrorBody then writes the error type alone (`Invalid value: detail`). */
const OMIT_VALUE = Symbol('omit value');

/**
 * validation.go `fieldErrorForReason` for a rule that evaluated to false. Since 1.35 the bad value
 * is the node's own value (`3`, `"blue"`), or omitted for an object or array node.
 */
function errorForReason(
  field: string,
  value: unknown,
  detail: string,
  reason: string | undefined,
): FieldError {
  const shown = value === OMIT_VALUE ? '' : `: ${fieldValueText(value)}`;
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError('FieldValueForbidden', field, `Forbidden: ${detail}`);
    case 'FieldValueRequired':
      return fieldError(CrdErrorType.Required, field, `Required value: ${detail}`);
    case 'FieldValueDuplicate':
      return fieldError(CrdErrorType.Duplicate, field, `Duplicate value${shown}`);
    default:
      return fieldError(CrdErrorType.Invalid, field, `Invalid value${shown}: ${detail}`);
  }
}

/**
 * A runtime error in cel-go's words (cel-go v0.29 common/types/err.go, interpreter/attributes.go
 * `resolutionError`) rather than cel-js's: `index out of bounds: 5`, `no such key: x`,
 * `modulus by zero`, `integer overflow`.
 */
function celGoRuntimeMessage(error: Error): string {
  const summary = (error as Error & { summary?: unknown }).summary;
  const message = typeof summary === 'string' ? summary : (error.message.split('\n')[0] ?? '');
  const code = (error as Error & { code?: unknown }).code;
  switch (code) {
    case 'index_out_of_bounds': {
      const index = /index (-?\d+)/.exec(message.replace(/^No such key: index out of bounds, /, ''));
      return index ? `index out of bounds: ${index[1]}` : message;
    }
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'numeric_overflow':
      return /unsigned/i.test(message) ? 'unsigned integer overflow' : 'integer overflow';
    default:
      return message.replace(/^No such key: /, 'no such key: ');
  }
}

/** `ruleErrorString`: the message when there is one, else the rule. */
const ruleErrorString = (r: ValidationRule): string => (r.message ? r.message.trim() : r.rule.trim());
const ruleMessageOrDefault = (r: ValidationRule): string =>
  r.message ? r.message.trim() : `failed rule: ${ruleErrorString(r)}`;

type Run = { ok: true; value: unknown; cost: number } | { ok: false; error: Error; cost: number };

/** One bounded evaluation: the meter is set to the per-call limit and read back. */
function evaluate(program: Program, vars: { self: unknown; oldSelf?: unknown }): Run {
  meter.spent = 0;
  meter.limit = PER_CALL_LIMIT;
  try {
    meter.spent += program.baseCost;
    const value = program.run(vars);
    return { ok: true, value, cost: meter.spent };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)), cost: meter.spent };
  } finally {
    meter.limit = Number.POSITIVE_INFINITY;
  }
}

/**
 * A {@link CelHook} for one request (one object written): it keeps that request's remaining
 * budget, and says `exhausted` once it is spent.
 */
export function celHook(): CelHook {
  const budget: Budget = { remaining: RUNTIME_COST_BUDGET };
  const hook: CelHook = (rules, value, pathIn, node) => {
    const errs: FieldError[] = [];
    const path = pathIn === '' ? '<nil>' : pathIn;
    const s = node.schema;
    if (budget.remaining <= 0) {
      budget.remaining = -1;
      return [invalid(path, typeOf(s), OUT_OF_BUDGET)];
    }
    // The node's values as CEL sees them, converted once for all its rules.
    const vals: NodeValues = { value, node, self: undefined, oldSelf: undefined, converted: false };
    for (const compiled of compiledRules(s, false, rules)) {
      if (runRule(compiled, vals, path, errs, budget)) {
        budget.remaining = -1;
        break;
      }
    }
    return errs;
  };
  hook.exhausted = () => budget.remaining < 0;
  return hook;
}

/** What is left of one request's cost budget. */
interface Budget {
  remaining: number;
}

/** A node's value and old value, converted to CEL values on first use (values.go `UnstructuredToVal`). */
interface NodeValues {
  value: unknown;
  node: CelNode;
  self: unknown;
  oldSelf: unknown;
  converted: boolean;
}

function convert(vals: NodeValues): void {
  if (vals.converted) return;
  const s = vals.node.schema;
  vals.self = toCel(vals.value, s);
  vals.oldSelf = vals.node.old === undefined ? undefined : toCel(vals.node.old.value, s);
  vals.converted = true;
}

/** Spends `cost` of the budget (none when 0) and returns what is left. */
function spend(budget: Budget, cost: number): number {
  budget.remaining -= cost;
  return budget.remaining;
}

/** One rule; true when no further rule may run. */
function runRule(
  compiled: CompiledRule,
  vals: NodeValues,
  path: string,
  errs: FieldError[],
  budget: Budget,
): boolean {
  const { rule, program } = compiled;
  const node = vals.node;
  const s = node.schema;
  const type = typeOf(s);
  if (compiled.error !== undefined) {
    errs.push(invalid(path, type, `rule compile error: ${compiled.error}`));
    return false;
  }
  if (program === undefined) return false;
  const optional = rule.optionalOldSelf === true;
  if (program.usesOldSelf && node.old === undefined && !optional) return false;
  convert(vals);
  const { self, oldSelf } = vals;
  const vars = {
    self,
    oldSelf: optional ? (oldSelf === undefined ? Optional.none() : Optional.of(oldSelf)) : oldSelf,
  };
  const result = evaluate(program, vars);
  if (!result.ok && result.error instanceof CostLimitExceeded) {
    errs.push(
      invalid(
        path,
        type,
        `'${result.error.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
      ),
    );
    return true;
  }
  if (result.cost > spend(budget, 0)) {
    errs.push(invalid(path, type, OUT_OF_BUDGET));
    return true;
  }
  spend(budget, result.cost);
  if (!result.ok) {
    const message = celGoRuntimeMessage(result.error);
    errs.push(
      invalid(
        path,
        type,
        message.startsWith('no such overload') || message.startsWith('found no matching overload')
          ? `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
          : `${message} evaluating rule: ${ruleErrorString(rule)}`,
      ),
    );
    return false;
  }
  if (result.value === true) return false;
  const at =
    compiled.fieldPath === ''
      ? path
      : path === '<nil>'
        ? compiled.fieldPath
        : `${path}.${compiled.fieldPath}`;
  const ratchet = !program.usesOldSelf && node.unchanged();
  let detail: string | undefined;
  if (compiled.messageExpression !== undefined) {
    // The message sees `oldSelf` plainly (validation.go passes `activation`, not the optional one).
    const m = evaluate(compiled.messageExpression, { self, oldSelf });
    if (!m.ok && m.error instanceof CostLimitExceeded) {
      const src = JSON.stringify(rule.messageExpression);
      if (!ratchet)
        errs.push(
          invalid(
            at,
            type,
            `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${src}`,
          ),
        );
      return true;
    }
    if (m.cost > spend(budget, 0)) {
      if (!ratchet)
        errs.push(
          invalid(
            at,
            type,
            'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
          ),
        );
      return true;
    }
    spend(budget, m.cost);
    // A message that fails, is not a string, is too long, has a line break or is empty is
    // logged upstream and the rule's message used instead.
    if (m.ok && typeof m.value === 'string') {
      const text = m.value.trim();
      if (text !== '' && Buffer.byteLength(text) <= MAX_MESSAGE_EXPRESSION_BYTES && !/\n/.test(text))
        detail = text;
    }
  }
  const value = type === 'object' || type === 'array' ? OMIT_VALUE : (vals.value ?? null);
  if (!ratchet) errs.push(errorForReason(at, value, detail ?? ruleMessageOrDefault(rule), rule.reason));
  return false;
}
