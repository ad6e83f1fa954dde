/**
 * What kube-apiserver's typed JSON decoding says about the issues a check found: the decoder of
 * create and update bodies and of JSON and merge patch results (k8s.io/apimachinery
 * runtime/serializer/json/json.go `Serializer.Decode` → sigs.k8s.io/json `UnmarshalStrict` /
 * `UnmarshalCaseSensitivePreserveInts`, a fork of encoding/json).
 *
 * encoding/json keeps going after a value of the wrong type (it saves the first such error and
 * decodes on), but an `UnmarshalJSON` error (Quantity, Time, IntOrString) ends the decode at
 * once and is returned instead of a saved one (decode.go `unmarshal`: `d.value` error first,
 * then `d.savedError`). Unknown and duplicate fields are "strict" errors, reported only when the
 * decode otherwise succeeded.
 */
import { goQuote, jsonKindOf, numberLiteral } from './go-text.js';
import { goStructField, goTypeOf, strictPath } from './issue-text.js';
import type { Issue, NestedTypeError } from './walk.js';

/** sigs.k8s.io/json keeps at most this many strict errors (kubernetes_patch.go `saveStrictError`). */
const MAX_STRICT_ERRORS = 100;

/**
 * The decode error, as its `Error()` reads, or undefined when the issues are only unknown fields.
 * The Go text of a type error: `json: cannot unmarshal <value> into Go struct field
 * <Struct>.<field path> of type <Go type>` (encoding/json `UnmarshalTypeError.Error`).
 */
export function decoderError(issues: readonly Issue[]): string | undefined {
  let saved: Issue | undefined;
  for (const issue of issues) {
    if (issue.kind === 'unmarshal') return issue.nested ? typeErrorText(issue, issue.nested) : issue.detail;
    if (issue.kind !== 'unknown') saved ??= issue;
  }
  if (!saved) return undefined;
  if (saved.kind === 'base64') return saved.detail;
  const value =
    saved.kind === 'range' ? `number ${numberLiteral(saved.value as number)}` : jsonKindOf(saved.value);
  return typeErrorText(saved, { value, type: goTypeOf(saved.schema) });
}

/**
 * An UnmarshalTypeError at the issue's place: a nested decode's too, which the decoder gives the
 * struct field it was decoding (decode.go `unmarshal` → `addErrorContext`).
 */
function typeErrorText(issue: Issue, error: NestedTypeError): string {
  const at = goStructField(issue);
  return at
    ? `json: cannot unmarshal ${error.value} into Go struct field ${at.struct}.${at.field} of type ${error.type}`
    : `json: cannot unmarshal ${error.value} into Go value of type ${error.type}`;
}

/** The strict errors, `unknown field "spec.foo"`, once each, in document order, at most 100. */
export function decoderStrictErrors(issues: readonly Issue[]): string[] {
  return decoderUnknownFields(issues).map((path) => `unknown field ${goQuote(path)}`);
}

/** The paths of the unknown fields, `spec.foo`, once each, in document order, at most 100. */
export function decoderUnknownFields(issues: readonly Issue[]): string[] {
  const paths: string[] = [];
  for (const issue of issues) {
    if (issue.kind !== 'unknown' || paths.length >= MAX_STRICT_ERRORS) continue;
    const path = strictPath(issue);
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
}
