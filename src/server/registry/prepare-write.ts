/**
 * The server's part of every write, before validation: the metadata only the
 * server sets (uid, creationTimestamp, generation, resourceVersion), the status
 * a create may not set, and the defaults, for create and for update (the
 * strategies' PrepareForCreate and PrepareForUpdate in kube-apiserver).
 */
import type { KubeObject } from '../../protocol/events.js';
import { getPath } from '../kinds/access.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { generateName, jsonEqual, metaOf, newUid, rfc3339 } from './meta.js';

/**
 * Which part of an object an update may change: the object (`main`), its
 * status (`status`), or, for a Namespace, its spec.finalizers as well
 * (`finalize`, the `namespaces/NAME/finalize` subresource); `approval` is a
 * CertificateSigningRequest's status-like endpoint for its approval conditions;
 * `ephemeralcontainers` a Pod's spec.ephemeralContainers alone; `resize` its containers'
 * resources and resize policies and its pod-level resources (the kind's `subresourceSpec`).
 */
export type UpdateScope =
  | 'main'
  | 'status'
  | 'finalize'
  | 'binding'
  | 'approval'
  | 'ephemeralcontainers'
  | 'resize';

/**
 * Whether `obj`'s own kind stays as sent: a custom object's kind is unstructured data that
 * apiextensions-apiserver's validator checks (customresource/validator.go `ValidateTypeMeta`,
 * a 422 naming the kind sent) rather than a type the decoder fixes.
 */
function keepsKind(kind: ResourceKind, obj: KubeObject): boolean {
  return kind.custom !== undefined && typeof obj.kind === 'string' && obj.kind !== '';
}

/** Sets what the server owns on `obj` (a copy of a create's body), created at `now`. */
export function prepareCreate(kind: ResourceKind, obj: KubeObject, now: number): void {
  const meta = metaOf(obj);
  obj.apiVersion = apiVersionOf(kind);
  // A custom object keeps the kind it says it is, for its validator to judge (keepsKind).
  if (!keepsKind(kind, obj)) obj.kind = kind.kind;
  meta.uid = newUid();
  meta.creationTimestamp = rfc3339(now);
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  dropEmptyCollections(meta);
  // metadata.managedFields stay: the write's field manager decides them (recordOwnership).
  if (kind.generationFields.length > 0 || kind.custom) meta.generation = 1;
  else delete meta.generation;
  if (kind.custom) {
    // A custom resource's create drops status when /status is served (apiextensions-apiserver
    // pkg/registry/customresource/strategy.go `PrepareForCreate`: `delete(customResource,
    // "status")`), where built-in strategies reset it to an empty struct.
    if (kind.subresources.includes('status')) delete obj.status;
  } else if (kind.subresources.includes('status') && kind.kind !== 'Node') {
    // With a status subresource, a create cannot set status (the strategies'
    // PrepareForCreate); Nodes are the exception: kubelets register with status.
    obj.status = {};
  }
  kind.defaults?.(obj);
  // rest.BeforeCreate makes the name after defaulting (and after the field manager), so a
  // default that reads the name does not see a generated one: a Namespace's name label is
  // set by its strategy's Canonicalize then, and belongs to no manager.
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  // The kind's own PrepareForCreate runs after the field manager (create.go runs it on the
  // decoded, defaulted body first): object-storage.ts calls it once ownership is recorded.
}

/**
 * The object an update stores, from the `desired` one a client sent: server-owned
 * metadata comes back from `current`, a main update keeps the status and a status
 * update keeps everything else, and the generation moves when a generation field
 * changed (the strategies' PrepareForUpdate).
 */
export function prepareUpdate(
  kind: ResourceKind,
  current: KubeObject,
  desired: KubeObject,
  scope: UpdateScope,
): KubeObject {
  const next = desired;
  const meta = metaOf(next);
  const cur = metaOf(current);
  next.apiVersion = apiVersionOf(kind);
  if (!keepsKind(kind, next)) next.kind = kind.kind;
  // Server-owned metadata cannot be changed by clients.
  meta.name = cur.name;
  if (kind.namespaced) meta.namespace = cur.namespace;
  else delete meta.namespace;
  // rest.BeforeUpdate (staging/src/k8s.io/apiserver/pkg/registry/rest/update.go): an update
  // without a uid keeps the old one; one with another uid is refused by validateCommonFields
  // (object-storage.ts `validate`, ValidateObjectMetaUpdate: "field is immutable").
  if (!meta.uid) meta.uid = cur.uid;
  meta.creationTimestamp = cur.creationTimestamp;
  meta.resourceVersion = cur.resourceVersion;
  if (cur.deletionTimestamp) {
    meta.deletionTimestamp = cur.deletionTimestamp;
    meta.deletionGracePeriodSeconds = cur.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  // metadata.managedFields stay as sent: the write's field manager decides them (recordOwnership).
  delete meta.selfLink;
  dropEmptyCollections(meta);
  // A pod's binding (pods/binding) is written straight to storage by BindingREST
  // (pkg/registry/core/pod/storage/storage.go `setPodHostAndAnnotations`): its change, the node,
  // annotations and the PodScheduled condition, is the whole write, status included.
  if (scope === 'binding') return next;
  // pkg/registry/core/pod/strategy.go `dropNonEphemeralContainerUpdates`: the old pod with the
  // new ephemeral containers, its metadata as ResetObjectMetaForStatus leaves it (the old one's,
  // managedFields the write's), and `updatePodGeneration` bumping the generation. pods/resize
  // (`podResizeStrategy.PrepareForUpdate`) is the same with the spec the kind keeps.
  if (scope === 'ephemeralcontainers' || scope === 'resize') {
    // The field manager sees the pod as sent (update.go runs it before PrepareForUpdate, and these
    // strategies reset no field): recordOwnership records on this view.
    const sentView = prepareUpdate(kind, current, structuredClone(next), 'main');
    const kept = structuredClone(current);
    const oldSpec = (kept.spec ?? {}) as Record<string, unknown>;
    const sentSpec = (next.spec ?? {}) as Record<string, unknown>;
    let spec = { ...oldSpec };
    if (scope === 'resize') spec = kind.subresourceSpec?.(sentSpec, oldSpec, scope) ?? spec;
    else if (sentSpec.ephemeralContainers === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = sentSpec.ephemeralContainers;
    kept.spec = spec;
    keepManagedFields(kept, meta);
    kind.defaults?.(kept);
    const keptMeta = metaOf(kept);
    keptMeta.generation = (cur.generation ?? 1) + (jsonEqual(kept.spec, current.spec) ? 0 : 1);
    OWNERSHIP_VIEWS.set(kept, sentView);
    return kept;
  }
  if (kind.subresources.includes('status')) {
    if (scope === 'main' || scope === 'finalize') {
      if (current.status === undefined) delete next.status;
      else next.status = current.status;
      // A Namespace's spec.finalizers change only through /finalize: its
      // strategy's PrepareForUpdate (pkg/registry/core/namespace/strategy.go)
      // keeps the old ones on a main update; finalizeStrategy takes the new.
      if (kind.group === '' && kind.kind === 'Namespace') {
        const from = scope === 'main' ? current : next;
        const finalizers = (from.spec as { finalizers?: unknown[] } | undefined)?.finalizers;
        // `finalizers,omitempty`: an empty list is not written.
        next.spec = Array.isArray(finalizers) && finalizers.length > 0 ? { finalizers } : {};
      }
    } else if (kind.custom) {
      // A custom resource's /status takes the status and nothing else, metadata included
      // (strategy.go `statusStrategy.PrepareForUpdate` copies the old object and sets status).
      // It keeps the new object's managedFields, which the field manager computed.
      const kept = structuredClone(current);
      if (next.status === undefined) delete kept.status;
      else kept.status = next.status;
      keepManagedFields(kept, meta);
      return prepareStatus(kind, kept);
    } else {
      // Through /status the spec cannot change. Annotations can (the deployment
      // controller records its revision there), and so can labels except on a
      // Deployment, whose status strategy alone resets them
      // (pkg/registry/apps/deployment/strategy.go `deploymentStatusStrategy.PrepareForUpdate`;
      // the ReplicaSet, StatefulSet and DaemonSet ones reset only the spec).
      const kept = structuredClone(current);
      kept.status = next.status;
      const keptMeta = metaOf(kept);
      if (meta.annotations === undefined) delete keptMeta.annotations;
      else keptMeta.annotations = meta.annotations;
      if (!(kind.group === 'apps' && kind.kind === 'Deployment')) {
        if (meta.labels === undefined) delete keptMeta.labels;
        else keptMeta.labels = meta.labels;
      }
      // The finalizers are the write's too: the status strategies reset the spec, not them
      // (pkg/registry/core/persistentvolumeclaim/strategy.go `persistentvolumeclaimStatusStrategy`).
      if (meta.finalizers === undefined) delete keptMeta.finalizers;
      else keptMeta.finalizers = meta.finalizers;
      kind.prepareForStatusUpdate?.(kept, current, scope);
      keepManagedFields(kept, meta);
      return prepareStatus(kind, kept);
    }
  }
  if (scope === 'main') kind.prepareForUpdate?.(next, current);
  kind.defaults?.(next);
  if (kind.custom) {
    // Custom resources: any change but metadata's (and status', which a main update cannot
    // make when /status is served) bumps the generation (strategy.go `PrepareForUpdate`).
    meta.generation = (cur.generation ?? 1) + (contentChanged(next, current) ? 1 : 0);
  } else if (kind.generationFields.length > 0) {
    const changed = kind.generationFields.some((f) => !jsonEqual(getPath(next, f), getPath(current, f)));
    meta.generation = (cur.generation ?? 1) + (changed ? 1 : 0);
  }
  if (meta.finalizers && meta.finalizers.length === 0) delete meta.finalizers;
  return next;
}

/** Gives `obj` the managedFields of `from` (the status strategies keep the new object's metadata). */
function keepManagedFields(obj: KubeObject, from: KubeObject['metadata'] & object): void {
  const m = metaOf(obj);
  if (from.managedFields === undefined) delete m.managedFields;
  else m.managedFields = from.managedFields;
}

function prepareStatus(kind: ResourceKind, obj: KubeObject): KubeObject {
  kind.defaults?.(obj);
  return obj;
}

/** True when anything but metadata differs between two versions of a custom object. */
function contentChanged(next: KubeObject, current: KubeObject): boolean {
  const keys = new Set([...Object.keys(next), ...Object.keys(current)]);
  keys.delete('metadata');
  for (const k of keys) {
    if (!jsonEqual((next as Record<string, unknown>)[k], (current as Record<string, unknown>)[k]))
      return true;
  }
  return false;
}

/** `obj` without its resourceVersion: what an update compares to see whether anything changed. */
export function stripRV(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } };
}

/**
 * Who makes a write, for `metadata.managedFields` (server-side apply's field ownership). A write
 * without one (an internal writer's) keeps the live object's managedFields, as no field manager ran.
 */
export interface WriteManager {
  /** The manager: the `fieldManager` query, else the User-Agent's first part (handlers/rest.go `managerOrUserAgent`). */
  readonly manager: string;
  /** The write computed its managedFields itself (an apply, ssa `applyConfiguration`): kept as they are. */
  readonly recorded?: boolean;
}

/**
 * The field manager (fieldmanager.go `UpdateNoErrors`) a write that names a {@link WriteManager}
 * runs: handlers/field-ownership.ts `recordUpdateOwnership`, which the server hands to the
 * object storage it builds, as kube-apiserver's installer gives each resource's RequestScope its
 * FieldManager. Returns `next` with its managedFields set.
 */
export type FieldManager = (
  kind: ResourceKind,
  live: KubeObject | undefined,
  next: KubeObject,
  scope: UpdateScope,
  manager: string,
  now: number,
  sentSpec?: ReadonlySet<string>,
) => KubeObject | Promise<KubeObject>;

/**
 * Sets `next.metadata.managedFields` for a write (create when `live` is undefined): what the
 * `fieldManager` computes (fieldmanager.go `UpdateNoErrors`, which create.go, update.go and
 * patch.go run on the decoded, defaulted object before the strategy's PrepareFor*), what an
 * apply recorded, or, for an internal write that names no manager (or a storage given no field
 * manager), the live object's.
 */
export async function recordOwnership(
  fieldManager: FieldManager | undefined,
  kind: ResourceKind,
  live: KubeObject | undefined,
  next: KubeObject,
  scope: UpdateScope,
  writer: WriteManager | undefined,
  now: number,
  /** On a create, the `spec` keys the request itself carried (before defaults and admission). */
  sentSpec?: ReadonlySet<string>,
): Promise<KubeObject> {
  if (writer?.recorded) return next;
  if (writer === undefined || fieldManager === undefined) {
    if (live === undefined) return next;
    const meta = metaOf(next);
    const kept = live.metadata?.managedFields;
    if (kept === undefined) delete meta.managedFields;
    else meta.managedFields = kept;
    return next;
  }
  const view = OWNERSHIP_VIEWS.get(next);
  if (view === undefined) return fieldManager(kind, live, next, scope, writer.manager, now, sentSpec);
  const owned = await fieldManager(kind, live, view, scope, writer.manager, now, sentSpec);
  const meta = metaOf(next);
  if (owned.metadata?.managedFields === undefined) delete meta.managedFields;
  else meta.managedFields = owned.metadata.managedFields;
  return next;
}

/**
 * The object a write's field manager records instead of the prepared one, where the strategy
 * drops what the write sent after the field manager saw it (pods/ephemeralcontainers).
 */
const OWNERSHIP_VIEWS = new WeakMap<KubeObject, KubeObject>();

/**
 * ObjectMeta's lists and maps are `omitempty` (k8s.io/apimachinery/pkg/apis/meta/v1/types.go):
 * kube-apiserver decodes a body into the Go type and encodes it again, so an empty `labels`,
 * `annotations`, `ownerReferences` or `finalizers` is never stored or answered. Custom
 * resources go the same way: apiextensions-apiserver round-trips their metadata through
 * ObjectMeta (pkg/apiserver/schema/objectmeta/coerce.go `Coerce`). Dropped before the field
 * manager runs, so no manager owns a field that is not there.
 */
function dropEmptyCollections(meta: NonNullable<KubeObject['metadata']>): void {
  const m = meta as Record<string, unknown>;
  for (const field of ['labels', 'annotations', 'ownerReferences', 'finalizers']) {
    const v = m[field];
    if (
      v === null ||
      (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && Object.keys(v as object).length === 0)
    )
      delete m[field];
  }
}
