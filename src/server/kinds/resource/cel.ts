/**
 * A device selector's CEL expression (pkg/apis/resource/validation `validateCELExpression` over
 * k8s.io/dynamic-resource-allocation/cel's compiler), checked as far as watchmark's CEL parser
 * tells: at most 10 KiB, not empty, and no variable but `device`. cel-js words syntax and type
 * errors otherwise than cel-go, so an expression it cannot parse is not refused here; the cost
 * limit is not estimated.
 */

import { Environment } from '@marcbachmann/cel-js';
import type { FieldError } from '../types.js';
import { invalid, tooLong } from '../validation.js';

/** `resource.CELSelectorExpressionMaxLength`. */
const MAX_LENGTH = 10 * 1024;

let celEnv: Environment | undefined;

/** `validateCELExpression` as far as it can be told here (see the file comment). */
export function validateCELExpression(expression: string, path: string): FieldError[] {
  if (expression.length > MAX_LENGTH) return [tooLong(path, MAX_LENGTH)];
  if (expression.trim() === '') {
    return [
      invalid(
        path,
        expression,
        "compilation failed: ERROR: <input>:1:0: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}",
      ),
    ];
  }
  if (celEnv === undefined) {
    celEnv = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    celEnv.registerVariable('device', 'dyn');
  }
  try {
    const outcome = celEnv.parse(expression).check();
    if (outcome.valid) return [];
    const e = outcome.error as Error & { range?: { start: number } };
    const unknown = /^Unknown variable: ([A-Za-z_][A-Za-z0-9_]*)/.exec(e.message);
    if (unknown === null) return [];
    const pos = e.range?.start ?? 0;
    const col = pos - (expression.slice(0, pos).lastIndexOf('\n') + 1);
    const line = expression.slice(0, pos).split('\n').length;
    const text = expression.split('\n')[line - 1] ?? '';
    return [
      invalid(
        path,
        expression,
        `compilation failed: ERROR: <input>:${line}:${col + 1}: undeclared reference to '${unknown[1]}' (in container '')\n | ${text}\n | ${'.'.repeat(col)}^`,
      ),
    ];
  } catch {
    // A syntax error: cel-js words it otherwise than cel-go, so none is claimed.
    return [];
  }
}
