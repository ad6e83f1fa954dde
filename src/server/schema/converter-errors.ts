/**
 * What kube-apiserver's unstructured-to-typed converter says about the issues a check found: a
 * strategic merge patch's result goes from a map straight into the typed object
 * (k8s.io/apiserver handlers/patch.go `applyPatchToObject` →
 * k8s.io/apimachinery runtime/converter.go `FromUnstructuredWithValidation`), and so does a
 * server-side apply's merged object on its way back to a Go struct (`Scheme.unstructuredToTyped`).
 *
 * The converter stops at its first error. Its words differ from the JSON decoder's: a value that
 * Go cannot convert is `cannot convert int64 to string`, one it has no rule for is
 * `unrecognized type: int32`, a struct, list or map from something else is `cannot restore struct
 * from: string` (`fromUnstructured`, `structFromUnstructured`, `sliceFromUnstructured`,
 * `mapFromUnstructured`). Types with their own UnmarshalJSON (Quantity, Time, IntOrString) get
 * the value re-encoded as JSON, so they answer as under the decoder. An integer too large for an
 * int32 is converted the way Go converts integers, wrapping, with no error; so is it here.
 * Unknown fields come back sorted, each `unknown field "<path>"`.
 */
import { goTypeOfValue } from './go-text.js';
import { goKindOf, goTypeOf, strictPath } from './issue-text.js';
import type { Issue } from './walk.js';

/** reflect.Kind of a decoded JSON value (`int64` for integers, `slice` for lists). */
function kindOfValue(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object' && v !== null) return 'map';
  return goTypeOfValue(v);
}

/** Go's integer conversion to a narrower type: the low bits, two's complement. */
function wrapInteger(v: number, goType: string): number | undefined {
  if (goType === 'int32') return Number(BigInt.asIntN(32, BigInt(v)));
  if (goType === 'uint8') return Number(BigInt.asUintN(8, BigInt(v)));
  return undefined;
}

/**
 * The converter's error for the issues, or undefined when there is none besides unknown fields.
 * Integers it would wrap are wrapped in place (their issue is answered, not reported).
 */
export function converterError(issues: readonly Issue[]): string | undefined {
  for (const issue of issues) {
    const text = issueText(issue);
    if (text !== undefined) return text;
  }
  return undefined;
}

function issueText(issue: Issue): string | undefined {
  const { schema, value } = issue;
  const target = goTypeOf(schema);
  switch (issue.kind) {
    case 'unknown':
      return undefined;
    case 'unmarshal':
      return issue.detail;
    case 'base64':
      // sliceFromUnstructured re-encodes the string and json.Unmarshals it into the []byte.
      return `error decoding from json: ${issue.detail}`;
    case 'range': {
      const n = value as number;
      if (!Number.isInteger(n)) return `cannot convert float64 to ${target}`;
      const wrapped = wrapInteger(n, goKindOf(schema));
      if (wrapped === undefined) return `cannot convert float64 to ${target}`;
      (issue.parent as Record<string | number, unknown>)[issue.key] = wrapped;
      return undefined;
    }
    case 'type':
      return typeText(
        schema.type,
        target,
        goKindOf(schema),
        value,
        schema.type === 'string' && schema.format === 'byte',
      );
  }
}

function typeText(type: string, target: string, targetKind: string, value: unknown, bytes: boolean): string {
  const kind = kindOfValue(value);
  if (bytes || type === 'array') return `cannot restore slice from ${kind}`;
  if (type === 'object')
    // By kind: a named map (v1.ResourceList) is a map too.
    return targetKind === 'map' ? `cannot restore map from ${kind}` : `cannot restore struct from: ${kind}`;
  // Scalars: Go converts an integer to a string (and the converter refuses it), any number to a
  // number; everything else has no conversion at all.
  // The first names the Go type (`dt.String()`, `v1.DNSPolicy`), the second only its kind.
  if (type === 'string' && kind === 'int64') return `cannot convert int64 to ${target}`;
  return `unrecognized type: ${targetKind}`;
}

/** The strict errors, sorted as the converter sorts them: `unknown field "spec.foo"`. */
export function converterStrictErrors(issues: readonly Issue[]): string[] {
  const errors = issues.filter((i) => i.kind === 'unknown').map((i) => `unknown field "${strictPath(i)}"`);
  return errors.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
