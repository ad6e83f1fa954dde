/**
 * What a DELETE does to one object before storage sees it: the preconditions
 * it must meet, and the finalizers that turn it into a mark (deletionTimestamp)
 * instead of a removal. The garbage collector acts on the `orphan` and
 * `foregroundDeletion` finalizers; a Namespace is always marked, and stays
 * Terminating until the namespace controller has emptied it (the admission
 * rules around that are in admission/namespace-lifecycle.ts).
 */
import type { KubeObject, ObjectMeta } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { typeGroup } from '../kinds/api-errors.js';
import type { ResourceKind } from '../kinds/types.js';
import { metaOf, rfc3339 } from './meta.js';

/** The preconditions of DeleteOptions. */
export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * Throws the 409 kube-apiserver answers when `meta` does not meet `pre`. The generic store checks
 * them in rest.BeforeDelete (k8s.io/apiserver/pkg/registry/rest/delete.go), naming the object by
 * its kind (`Deployment.apps`, with Kind in the details); the namespace storage checks them itself
 * (pkg/registry/core/namespace/storage/storage.go `Delete`, storage.Preconditions.Check), naming
 * the resource.
 */
export function checkPreconditions(
  kind: ResourceKind,
  name: string,
  meta: ObjectMeta,
  pre: DeletePreconditions | undefined,
): void {
  const namespace = isNamespace(kind);
  const conflict = (text: string) => {
    const resource = namespace ? kind.plural : kind.kind;
    const group = namespace ? kind.group : typeGroup(kind);
    const qualified = group ? `${resource}.${group}` : resource;
    return StatusError.of('Conflict', `Operation cannot be fulfilled on ${qualified} "${name}": ${text}`, {
      name,
      group: group || undefined,
      kind: resource,
    });
  };
  if (pre?.uid && pre.uid !== meta.uid) {
    throw conflict(
      namespace
        ? `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid}`
        : `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    throw conflict(
      namespace
        ? `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`
        : `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion}). The object might have been modified`,
    );
  }
}

/**
 * The finalizers `current` holds once deleted with `policy`, and whether the
 * delete only marks it. The garbage collector's two finalizers follow
 * kube-apiserver's generic store (staging/src/k8s.io/apiserver/pkg/registry/
 * generic/registry/store.go `deletionFinalizersForGarbageCollection`, with
 * `shouldOrphanDependents` and `shouldDeleteDependents`): both are taken off,
 * then the one the policy asks for goes back on, after the others. A delete
 * that names no policy keeps whichever the object holds (orphan first); an
 * explicit one replaces it, so Orphan on an object in foreground deletion
 * leaves only `orphan`, and Background takes both off. An unchanged set keeps
 * its order. A Namespace is always marked: the namespace REST storage turns
 * it Terminating instead of removing it (pkg/registry/core/namespace/storage/
 * storage.go, `REST.Delete`).
 */
export function deletionFinalizers(
  kind: ResourceKind,
  current: KubeObject,
  policy: 'Orphan' | 'Background' | 'Foreground' | undefined,
): { finalizers: string[]; marks: boolean } {
  const held = metaOf(current).finalizers ?? [];
  const heldPolicy = held.find((f) => f === ORPHAN || f === FOREGROUND);
  const orphan =
    policy === undefined
      ? heldPolicy === ORPHAN || (heldPolicy === undefined && orphansByDefault(kind))
      : policy === 'Orphan';
  const foreground = policy === undefined ? held.includes(FOREGROUND) : policy === 'Foreground';
  const next = held.filter((f) => f !== ORPHAN && f !== FOREGROUND);
  if (orphan) next.push(ORPHAN);
  if (foreground) next.push(FOREGROUND);
  const unchanged = next.length === held.length && next.every((f) => held.includes(f));
  const finalizers = unchanged ? [...held] : next;
  const firstOfMarkingKind =
    kind.markDeleted !== undefined && metaOf(current).deletionTimestamp === undefined;
  return { finalizers, marks: finalizers.length > 0 || isNamespace(kind) || firstOfMarkingKind };
}

/**
 * The generation bump of an object's first deletion mark: its controllers must see that it is
 * going away (k8s.io/apiserver pkg/registry/generic/registry/store.go `markAsDeleting` for an
 * object held by finalizers, pkg/registry/rest/delete.go `BeforeDelete` for a graceful delete).
 * Only an object that has a generation (above 0) gets one; a CustomResourceDefinition, whose REST
 * storage marks the delete itself (apiextensions-apiserver customresourcedefinition/etcd.go
 * `REST.Delete`), keeps its own.
 */
export function bumpGenerationForDeletion(obj: KubeObject): void {
  const meta = metaOf(obj);
  if (typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
}

/**
 * Whether a delete naming no policy orphans the object's dependents (the strategy's
 * `DefaultGarbageCollectionPolicy` answering OrphanDependents, which store.go
 * `shouldOrphanDependents` falls back on when the object holds neither finalizer): batch/v1
 * Jobs and core/v1 ReplicationControllers, for compatibility (pkg/registry/batch/job/strategy.go,
 * pkg/registry/core/replicationcontroller/strategy.go), so the delete only marks the object and
 * the garbage collector removes it once its pods are orphaned.
 */
export function orphansByDefault(kind: ResourceKind): boolean {
  if (kind.custom) return false;
  if (kind.group === '' && kind.kind === 'ReplicationController') return true;
  return kind.group === 'batch' && kind.version === 'v1' && kind.kind === 'Job';
}

/** metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents. */
const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/**
 * `current` marked for deletion at `now`, holding `finalizers`. A Namespace
 * also turns Terminating, and holds the `kubernetes` spec finalizer that keeps
 * it until the namespace controller has emptied it.
 */
export function markedForDeletion(
  kind: ResourceKind,
  current: KubeObject,
  finalizers: string[],
  now: number,
): KubeObject {
  const next = structuredClone(current);
  const nm = metaOf(next);
  const firstMark = nm.deletionTimestamp === undefined;
  nm.deletionTimestamp ??= rfc3339(now);
  if (kind.markDeleted) {
    // A kind whose REST storage marks the first delete itself (a CustomResourceDefinition)
    // sets only the deletionTimestamp and what its rule adds.
    if (finalizers.length > 0) nm.finalizers = finalizers;
    else delete nm.finalizers;
    if (firstMark) kind.markDeleted(next, nm.deletionTimestamp);
    return next;
  }
  // The generic store marks an object held by finalizers with a grace period of 0; the
  // namespace storage sets only the deletionTimestamp.
  if (!isNamespace(kind)) nm.deletionGracePeriodSeconds = 0;
  if (firstMark) bumpGenerationForDeletion(next);
  if (finalizers.length > 0) nm.finalizers = finalizers;
  else delete nm.finalizers;
  if (isNamespace(kind)) {
    next.status = { ...(next.status as object), phase: 'Terminating' };
    // The namespace strategy gives every namespace this finalizer at create, and upstream its
    // updates keep it (PrepareForUpdate). Here a main update can drop it, so the first mark
    // restores it: without it the controller would never empty the namespace.
    const held = namespaceSpecFinalizers(next);
    if (firstMark && !held.includes(NAMESPACE_FINALIZER)) {
      next.spec = { ...(next.spec as object), finalizers: [...held, NAMESPACE_FINALIZER] };
    }
  }
  return next;
}

/** The spec finalizer of the namespace controller (`v1.FinalizerKubernetes`). */
export const NAMESPACE_FINALIZER = 'kubernetes';

/** True for the core/v1 Namespace kind. */
export function isNamespace(kind: ResourceKind): boolean {
  return kind.group === '' && kind.kind === 'Namespace';
}

/** A Namespace's `spec.finalizers`: what keeps it Terminating besides its metadata finalizers. */
export function namespaceSpecFinalizers(ns: KubeObject): string[] {
  const finalizers = (ns.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
}
