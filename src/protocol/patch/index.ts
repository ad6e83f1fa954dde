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
      return applyJsonPatch(target, body);
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
