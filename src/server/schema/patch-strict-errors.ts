/**
 * The strict errors of a patch itself. patch.go reads a JSON, merge or strategic merge patch
 * with kjson `UnmarshalStrict` under `fieldValidation=Warn|Strict` before applying it
 * (`applyJSPatch`, `strategicPatchObject`), and reports them before the patched object's:
 *
 * - a merge or strategic merge patch goes into `map[string]any`: only repeated keys are errors,
 *   `duplicate field "spec.replicas"`;
 * - a JSON patch goes into `[]jsonPatchOp`, a struct of `op`, `path`, `from` and `value`: an
 *   operation's other keys are unknown fields too, each worded `json patch duplicate field
 *   "[0].op"`, `json patch unknown field "[0].bogus"`.
 */
import { strictErrorText, strictFieldErrors } from './duplicate-fields.js';

const JSON_PATCH = 'application/json-patch+json';

/** patch.go `jsonPatchOp`'s JSON fields. */
const JSON_PATCH_OP_FIELDS: ReadonlySet<string> = new Set(['op', 'path', 'from', 'value']);

/** An operation of a JSON patch is the array's element: `[0]`, `[1]`, ... */
const OPERATION_PATH = /^\[\d+\]$/;

/** The strict errors of the patch `text` (valid JSON) of media type `contentType`, in order. */
export function patchStrictErrors(text: string, contentType: string): string[] {
  if (contentType !== JSON_PATCH) return strictFieldErrors(text).map(strictErrorText);
  const fieldsOf = (path: string) => (OPERATION_PATH.test(path) ? JSON_PATCH_OP_FIELDS : undefined);
  return strictFieldErrors(text, fieldsOf).map((e) => `json patch ${strictErrorText(e)}`);
}
