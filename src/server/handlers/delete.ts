/**
 * DELETE of one object or of a collection, as k8s.io/apiserver's handlers/delete.go
 * (`DeleteResource`, `DeleteCollection`) serves it, with the registry's answers: the object, or a
 * Status naming it (registry/store.go `finalizeDelete`).
 */
import type { KubeObject } from '../../protocol/events.js';
import { type Status, StatusError } from '../../protocol/status.js';
import { routeMethodNotAllowed } from '../http/request-info.js';
import { WarningRecorder } from '../http/warnings.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { resourceVerbs } from '../openapi/discovery.js';
import { orphansByDefault } from '../registry/delete-rules.js';
import type { DeleteOptions } from '../registry/object-storage.js';
import { deleteOptions } from './delete-options.js';
import { filterFromQuery } from './filter.js';
import { renderList, serveList } from './list.js';
import { reply, replyObject } from './reply.js';
import type { RequestScope } from './request-scope.js';
import { deleteOptionFields, writeAdmission } from './write-admission.js';

/** Deletes the object the path names, or every object of the collection the query selects. */
export async function deleteResource(scope: RequestScope): Promise<void> {
  const { server, kind, name } = scope;
  if (name === undefined && !resourceVerbs(kind).includes('deletecollection')) throw routeMethodNotAllowed();
  const opts = await deleteOptions(scope.req, scope.query);
  opts.admission = writeAdmission(scope, { dryRun: opts.dryRun === true, options: deleteOptionFields(opts) });
  // Only the Job REST warns (pkg/registry/batch/job/storage); a ReplicationController orphans silently.
  if (opts.propagationPolicy === undefined && orphansByDefault(kind) && kind.group === 'batch') {
    new WarningRecorder(scope.res).add(ORPHANING_WARNING);
  }
  if (name === undefined) return deleteCollection(scope, opts);
  if (scope.subresource !== undefined) throw routeMethodNotAllowed();
  const deleted = await server.objects.delete(kind, scope.namespace, name, opts);
  if (answersDeletedObject(kind, deleted)) return replyObject(scope, 200, deleted);
  return reply(scope, 200, deletedStatus(kind, deleted));
}

/**
 * pkg/registry/batch/job/storage/storage.go `deleteOptionWarnings`: a Job deleted without a
 * policy leaves its pods (the Job REST's Delete and DeleteCollection warn of it).
 */
const ORPHANING_WARNING =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

/**
 * The kinds whose REST storage answers a delete with the object deleted (genericregistry.Store
 * `ReturnDeletedObject`: pkg/registry/core/{pod,namespace,service,persistentvolume,
 * persistentvolumeclaim,podtemplate,serviceaccount,resourcequota}/storage/storage.go); every other kind is
 * answered with a Status.
 */
const RETURNS_DELETED_OBJECT = new Set([
  'Pod',
  'Namespace',
  'Service',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'PodTemplate',
  'ServiceAccount',
  'ResourceQuota',
]);

/**
 * Whether a DELETE answers with the object: for the kinds above, and for any object the delete
 * only marked (finalizers hold it, or a Namespace turned Terminating), which the generic store's
 * `Delete` hands back as it now is instead of going on to `finalizeDelete`.
 */
function answersDeletedObject(kind: ResourceKind, deleted: KubeObject): boolean {
  if (!kind.custom && kind.group === '' && RETURNS_DELETED_OBJECT.has(kind.kind)) return true;
  // pkg/registry/storage/*/storage/storage.go: every storage.k8s.io kind but CSIStorageCapacity.
  if (!kind.custom && kind.group === 'storage.k8s.io' && kind.kind !== 'CSIStorageCapacity') return true;
  // pkg/registry/resource/*/storage/storage.go: every resource.k8s.io kind but DeviceTaintRule
  // (whose v1 storage keeps the Status answer).
  if (!kind.custom && kind.group === 'resource.k8s.io' && kind.kind !== 'DeviceTaintRule') return true;
  const meta = deleted.metadata ?? {};
  return meta.deletionTimestamp !== undefined && (meta.finalizers?.length ?? 0) > 0;
}

/**
 * registry/store.go `finalizeDelete`: the Status of a deletion, naming the object with its
 * resource (Kind holds the resource's plural, as upstream says) and uid so a client can tell it
 * was removed, not left waiting for finalizers. A dry run is answered alike.
 */
function deletedStatus(kind: ResourceKind, deleted: KubeObject): Omit<Status, 'code'> {
  const meta = deleted.metadata ?? {};
  const details: NonNullable<Status['details']> = { name: meta.name };
  if (kind.group) details.group = kind.group;
  details.kind = kind.plural;
  if (meta.uid) details.uid = meta.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/**
 * registry/store.go `DeleteCollection`: the objects are listed, each is deleted, and the answer is
 * the list as it was read (its resourceVersion that of the read, its items as they were before
 * their deletion), whichever of them someone else deleted meanwhile included.
 */
async function deleteCollection(scope: RequestScope, opts: DeleteOptions): Promise<void> {
  const { server, kind } = scope;
  const filter = filterFromQuery(kind, scope.namespace, scope.query);
  const result = await serveList(server, kind, filter, {});
  for (const item of result.items) {
    const m = item.object.metadata ?? {};
    try {
      await server.objects.delete(kind, m.namespace, m.name ?? '', opts);
    } catch (err) {
      // Deleted meanwhile by someone else: that is what was asked.
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  reply(scope, 200, renderList(kind, apiVersionOf(kind), result));
}
