/**
 * PATCH bodies by Content-Type. Server-side apply (`application/apply-patch+yaml`)
 * is not a patch format in this sense and is handled by the apply code.
 */
import { StatusError } from '../status.js';
import { applyJsonPatch } from './jsonpatch.js';
import { applyMergePatch } from './merge.js';
import { applyStrategicMergePatch } from './strategic.js';

export { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from './jsonpatch.js';
export { applyMergePatch } from './merge.js';
export {
  applyStrategicMergePatch,
  type FieldPatchStrategy,
  fieldStrategyFor,
  isStrategicMergeKind,
  mergeKeyFor,
} from './strategic.js';
export { createThreeWayMergePatch } from './threeway.js';

/** The PATCH media types handled here, in the order kube-apiserver lists them. */
export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
] as const;

/** One of {@link PATCH_CONTENT_TYPES}. */
export type PatchContentType = (typeof PATCH_CONTENT_TYPES)[number];

/** The media type without parameters (`; charset=utf-8`), lower-cased, when it is a patch type. */
export function patchContentType(contentType: string): PatchContentType | undefined {
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return PATCH_CONTENT_TYPES.find((type) => type === mediaType);
}

/**
 * Applies a parsed PATCH body to `target` (an object of `kind`) by its
 * Content-Type. Pure. Unknown types are 415 UnsupportedMediaType, which is
 * also what kubectl expects when strategic merge patch is not offered.
 */
export function applyPatch(target: unknown, body: unknown, contentType: string, kind: string): unknown {
  switch (patchContentType(contentType)) {
    case 'application/json-patch+json':
      return applyRequestJsonPatch(target, body);
    case 'application/merge-patch+json':
      return applyMergePatch(target, body);
    case 'application/strategic-merge-patch+json':
      return applyStrategicMergePatch(target, body, kind);
    case undefined:
      throw StatusError.of(
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: ${PATCH_CONTENT_TYPES.join(', ')}`,
      );
  }
}

/**
 * A PATCH request's JSON patch, with the statuses kube-apiserver answers
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go, `jsonPatcher.applyJSPatch`):
 * the body is decoded by `jsonpatch.DecodePatch` into `[]map[string]*json.RawMessage`, so only
 * a body or an operation of the wrong JSON type is a 400, with encoding/json's message; any
 * failure while applying (a missing path, a failed test, an unknown op, a malformed pointer)
 * is `NewGenericServerResponse(422, ...)`: reason Invalid with the generic message and empty
 * details, the patch library's own text not sent. A `null` body decodes to no operations.
 */
function applyRequestJsonPatch(target: unknown, body: unknown): unknown {
  if (body === null) return applyJsonPatch(target, []);
  if (!Array.isArray(body)) throw decodeError(body, 'jsonpatch.Patch');
  const wrong = body.find((op) => op !== null && (typeof op !== 'object' || Array.isArray(op)));
  if (wrong !== undefined) throw decodeError(wrong, 'jsonpatch.Operation');
  try {
    return applyJsonPatch(target, body);
  } catch (err) {
    // 413 for too many operations stays as it is (patch.go checks it before applying).
    if (!(err instanceof StatusError) || err.code === 413) throw err;
    const status = StatusError.of(
      'Invalid',
      'the server rejected our request due to an error in our request',
      {},
    );
    // What went wrong, for the server's own log; kube-apiserver does not send it either.
    status.cause = err;
    throw status;
  }
}

/** encoding/json's UnmarshalTypeError text for `value` decoded into the Go type `goType`. */
function decodeError(value: unknown, goType: string): StatusError {
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  return StatusError.of('BadRequest', `json: cannot unmarshal ${kind} into Go value of type ${goType}`);
}
