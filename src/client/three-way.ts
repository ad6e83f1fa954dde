/**
 * The three-way patch client-side apply sends, assembled from two halves of
 * the shared `createThreeWayMergePatch`: its deletions (original -> modified)
 * and its changes (current -> modified), combined here with upstream
 * `mergeMap` semantics, where list elements with the same merge key are
 * merged rather than one replacing the other. (The shared combine step keeps
 * only the changes' element when both halves touch the same element, which
 * drops, for example, the removal of an env var from a container whose image
 * also changed. Once that is fixed this file is a plain call.)
 */
import type { KubeObject } from '../protocol/events.js';
import { createThreeWayMergePatch, fieldStrategyFor } from '../protocol/patch/index.js';

type JsonObject = Record<string, unknown>;

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
): JsonObject {
  // Original == current == modified for a half turns the other half off.
  const deletions = createThreeWayMergePatch(original, modified, modified, kind);
  const changes = createThreeWayMergePatch(modified, modified, current, kind);
  return combine(deletions, changes, kind, []);
}

function combine(into: JsonObject, patch: JsonObject, kind: string, path: string[]): JsonObject {
  for (const [key, value] of Object.entries(patch)) {
    const had = into[key];
    const strategy = fieldStrategyFor(kind, [...path, key]);
    if (isObject(had) && isObject(value) && !('$patch' in had) && !('$patch' in value)) {
      into[key] = combine(had, value, kind, [...path, key]);
    } else if (Array.isArray(had) && Array.isArray(value) && strategy?.merge) {
      into[key] = strategy.mergeKey
        ? mergeByKey(had, value, strategy.mergeKey, kind, [...path, key])
        : union(had, value);
    } else {
      into[key] = value;
    }
  }
  return into;
}

/** Elements of both lists, those with the same merge key merged (list elements are transparent in paths). */
function mergeByKey(
  had: unknown[],
  add: unknown[],
  mergeKey: string,
  kind: string,
  path: string[],
): unknown[] {
  const out: unknown[] = [];
  const used = new Set<unknown>();
  for (const element of add) {
    const twin = had.find((h) => isObject(h) && isObject(element) && h[mergeKey] === element[mergeKey]);
    if (isObject(twin) && isObject(element) && !('$patch' in twin) && !('$patch' in element)) {
      used.add(twin);
      out.push(combine({ ...twin }, element, kind, path));
    } else {
      out.push(element);
    }
  }
  for (const h of had) {
    if (used.has(h)) continue;
    const key = isObject(h) ? h[mergeKey] : undefined;
    if (!add.some((a) => isObject(a) && a[mergeKey] === key && !('$patch' in a))) out.push(h);
  }
  return out;
}

function union(a: unknown[], b: unknown[]): unknown[] {
  return [...new Set([...a, ...b])];
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
