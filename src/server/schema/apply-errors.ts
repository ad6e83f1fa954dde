/**
 * What server-side apply says about an apply configuration of the wrong shape: before merging,
 * kube-apiserver turns it into a typed value of structured-merge-diff
 * (k8s.io/apimachinery util/managedfields/internal/structuredmerge.go `Apply` →
 * `typeConverter.ObjectToTyped`), whose validation (sigs.k8s.io/structured-merge-diff
 * typed/validate.go `validateScalar`, `doMap`, `doList`, `visitMapItems`) knows only maps, lists
 * and three scalars: numeric, string and boolean. Quantities, times, int-or-strings and []byte
 * are untyped scalars there; what their own parsers refuse fails later, when the merged object
 * is converted back to the Go type (see converter-errors.ts).
 *
 * Every issue is reported, not just the first (`ValidationErrors`), and an unknown field is an
 * error whatever fieldValidation says: `.spec.foo: field not declared in schema`.
 */
import { goSharpValue, goTypeOfValue, goValue } from './go-text.js';
import { smdPath } from './issue-text.js';
import type { Issue } from './walk.js';

/** `%v` of a `*value.valueUnstructured` holding `v`. */
const valueV = (v: unknown) => `&{${goValue(v)}}`;

/** The structured-merge-diff message of one issue at its place, or undefined when it sees none. */
function applyIssueText(issue: Issue): string | undefined {
  if (issue.kind === 'unknown') return 'field not declared in schema';
  const { schema, value } = issue;
  const isMap = typeof value === 'object' && value !== null && !Array.isArray(value);
  const composite = isMap || Array.isArray(value);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof value === 'number'
        ? undefined
        : `expected numeric (int or float), got ${goTypeOfValue(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `expected boolean, got ${valueV(value)}`;
    case 'string':
      if (schema.format === undefined || schema.format === 'byte') {
        return typeof value === 'string'
          ? undefined
          : `expected string, got &value.valueUnstructured{Value:${goSharpValue(value)}}`;
      }
      return composite ? `expected any scalar, got ${valueV(value)}` : undefined;
    case 'int-or-string':
      return composite ? `expected any scalar, got ${valueV(value)}` : undefined;
    case 'array':
      return Array.isArray(value) ? undefined : `expected list, got ${valueV(value)}`;
    case 'object':
      return isMap ? undefined : `expected map, got ${valueV(value)}`;
    default:
      return undefined;
  }
}

/** Each error structured-merge-diff reports for the issues, `<path>: <message>`. */
export function applyErrors(issues: readonly Issue[]): string[] {
  const errors: string[] = [];
  for (const issue of issues) {
    const text = applyIssueText(issue);
    if (text !== undefined) errors.push(`${smdPath(issue)}: ${text}`);
  }
  return errors;
}

/** `ValidationErrors.Error()`: one error alone, several under `errors:`, one per indented line. */
export function joinApplyErrors(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}
