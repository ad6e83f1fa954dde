/**
 * The three-way patch client-side apply sends: kubectl's
 * `CreateThreeWayMergePatch`, typed for Kubernetes objects.
 */
import type { KubeObject } from '../../protocol/events.js';
import { createThreeWayMergePatch } from '../../protocol/patch/index.js';

/**
 * kubectl's `CreateThreeWayMergePatch(original, modified, current)` for
 * `kind` ('' for kinds without strategic merge metadata: JSON merge patch
 * semantics). `{}` means nothing to change.
 */
export function threeWayPatch(
  original: KubeObject | undefined,
  modified: KubeObject,
  current: KubeObject,
  kind: string,
): Record<string, unknown> {
  return createThreeWayMergePatch(original, modified, current, kind);
}
