/**
 * What a DELETE does to one object before storage sees it: the preconditions
 * it must meet, and the finalizers that turn it into a mark (deletionTimestamp)
 * instead of a removal. The garbage collector acts on the `orphan` and
 * `foregroundDeletion` finalizers; a Namespace is always marked, and stays
 * Terminating until the namespace controller has emptied it.
 */
import type { KubeObject, ObjectMeta } from '../protocol/events.js';
import { StatusError } from '../protocol/status.js';
import type { ResourceKind } from './kinds/types.js';
import { metaOf, rfc3339 } from './meta.js';

/** The preconditions of DeleteOptions. */
export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/** Throws the 409 kube-apiserver answers when `meta` does not meet `pre`. */
export function checkPreconditions(
  kind: ResourceKind,
  name: string,
  meta: ObjectMeta,
  pre: DeletePreconditions | undefined,
): void {
  if (pre?.uid && pre.uid !== meta.uid) {
    throw StatusError.of(
      'Conflict',
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid}`,
      { name, group: kind.group || undefined, kind: kind.plural },
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    throw StatusError.of(
      'Conflict',
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`,
      { name, group: kind.group || undefined, kind: kind.plural },
    );
  }
}

/**
 * The finalizers `current` holds once deleted with `policy`, and whether the
 * delete only marks it. A Namespace gets its `kubernetes` spec finalizer here
 * (on `current` itself), as the namespace lifecycle wants.
 */
export function deletionFinalizers(
  kind: ResourceKind,
  current: KubeObject,
  policy: 'Orphan' | 'Background' | 'Foreground' | undefined,
): { finalizers: string[]; marks: boolean } {
  const finalizers = [...(metaOf(current).finalizers ?? [])];
  if (policy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
  if (policy === 'Foreground' && !finalizers.includes('foregroundDeletion')) {
    finalizers.push('foregroundDeletion');
  }
  if (kind.kind === 'Namespace' && !finalizers.includes('kubernetes')) {
    // The namespace lifecycle: Terminating until its content is gone.
    (current as { spec?: { finalizers?: string[] } }).spec = { finalizers: ['kubernetes'] };
  }
  return { finalizers, marks: finalizers.length > 0 || kind.kind === 'Namespace' };
}

/** `current` marked for deletion at `now`, holding `finalizers` (a Namespace also turns Terminating). */
export function markedForDeletion(
  kind: ResourceKind,
  current: KubeObject,
  finalizers: string[],
  now: number,
): KubeObject {
  const next = structuredClone(current);
  const nm = metaOf(next);
  nm.deletionTimestamp ??= rfc3339(now);
  nm.deletionGracePeriodSeconds = 0;
  if (finalizers.length > 0) nm.finalizers = finalizers;
  if (kind.kind === 'Namespace') next.status = { ...(next.status as object), phase: 'Terminating' };
  return next;
}
