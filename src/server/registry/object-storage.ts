import { randomUUID } from 'node:crypto';
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { notFound } from '../kinds/api-errors.js';
import { keepAllocated } from '../kinds/core/service/allocation.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import { decodeStored } from '../stores/codec.js';
import { objectKey, resourcePrefix } from '../stores/keys.js';
import { storeErrorToStatus } from '../stores/status-errors.js';
import { type Store, StoreError, type StoreKV } from '../stores/types.js';
import { type Encoded, encodeObject, rememberAnswerText } from './answer-text.js';
import {
  bumpGenerationForDeletion,
  checkPreconditions,
  deletionFinalizers,
  isNamespace,
  markedForDeletion,
  namespaceSpecFinalizers,
} from './delete-rules.js';
import { jsonEqual, metaOf, rfc3339 } from './meta.js';
import {
  type FieldManager,
  prepareCreate,
  prepareUpdate,
  recordOwnership,
  stripRV,
  type UpdateScope,
} from './prepare-write.js';
import { isService, ServiceAllocator } from './service-allocation.js';
import { fillAgain } from './stored-again.js';
import { updateObject } from './update.js';
import { mutateCreate, type NamespaceAdmission } from './write-admission.js';
import { checkTypeMeta, validateWrite } from './write-checks.js';
import type { DeleteOptions, UpdateResult, WriteOptions } from './write-options.js';

export type { FieldManager, UpdateScope, WriteManager } from './prepare-write.js';
export type { NamespaceAdmission, WriteAdmission } from './write-admission.js';
export type { DeleteOptions, UpdateResult, WriteOptions } from './write-options.js';

/**
 * True when `obj` is a Namespace whose spec.finalizers still hold it: `ShouldDeleteNamespaceDuringUpdate`
 * (namespace storage.go) removes a namespace on update only once spec.finalizers is empty too,
 * so that the controller's status updates of a Terminating namespace never delete it.
 */
function heldBySpec(kind: ResourceKind, obj: KubeObject): boolean {
  return isNamespace(kind) && namespaceSpecFinalizers(obj).length > 0;
}

/**
 * The generic object layer ("REST storage") over the {@link Store}: every verb's read-check-write
 * with optimistic concurrency (compare-and-swap on the stored revision, retried on a lost race),
 * the same for every kind. What the server sets on a write is in prepare-write.ts, what a delete
 * marks in delete-rules.ts; the NamespaceLifecycle admission plugin it is handed is admission/'s.
 */
export class ObjectStorage {
  /** The Service REST storage's allocation hooks: cluster IPs (IPAddress objects) and node ports. */
  private readonly services: ServiceAllocator;

  /**
   * `onEncoded` hears every value about to be written, with the kind that made it (the
   * watch cache skips decoding work for bytes it knows this server's pipeline produced).
   */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly stats: ServerStats,
    private readonly onEncoded?: (kind: ResourceKind, value: string) => void,
    /** Records `metadata.managedFields` on writes that name a manager (prepare-write.ts `FieldManager`). */
    private readonly fieldManager?: FieldManager,
    /**
     * The NamespaceLifecycle admission plugin (admission/namespace-lifecycle.ts), which every
     * create of a namespaced object and every namespace delete meets first; absent, none.
     */
    private readonly namespaceAdmission?: NamespaceAdmission,
  ) {
    this.services = new ServiceAllocator(this, store);
  }

  /** Reads one object (at `revision` when given). */
  async get(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    revision?: number,
  ): Promise<KubeObject> {
    const kv = await this.read(kind, namespace, name, revision);
    if (!kv) throw notFound(kind, name);
    return this.decode(kind, kv);
  }

  /** The objects of `kind` in `namespace` as stored now (a consistent list, as the namespace deleter's). */
  async list(kind: ResourceKind, namespace: string): Promise<KubeObject[]> {
    let items: StoreKV[];
    try {
      ({ items } = await this.store.list(resourcePrefix(kind, namespace)));
    } catch (err) {
      throw storeErrorToStatus(err, kind, '');
    }
    return items.map((kv) => this.decode(kind, kv));
  }

  /** The names of `kind`'s objects in `namespace`, read off the keys. */
  async storedNames(kind: ResourceKind, namespace: string): Promise<Set<string>> {
    const { items } = await this.store.list(resourcePrefix(kind, namespace));
    return new Set(items.map((kv) => kv.key.slice(kv.key.lastIndexOf('/') + 1)));
  }

  /** Creates `input` in `namespace` and returns it as stored. */
  async create(
    kind: ResourceKind,
    namespace: string | undefined,
    input: KubeObject,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    let obj = opts.owned ? input : structuredClone(input);
    const meta = metaOf(obj);
    checkTypeMeta(kind, obj);
    if (kind.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
        throw StatusError.of(
          'BadRequest',
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = namespace;
      // Admission runs before the strategy's PrepareForCreate and validation (apiserver
      // endpoints/handlers/create.go), and NamespaceLifecycle first of the plugins: a create in
      // a Terminating namespace is a 403 even when the object is invalid.
      await this.namespaceAdmission?.admitCreate(kind, namespace!, obj);
    } else {
      delete meta.namespace;
    }
    const spec = obj.spec;
    const sentSpec = new Set(spec !== null && typeof spec === 'object' ? Object.keys(spec) : []);
    const sentName = meta.name;
    prepareCreate(kind, obj, this.clock.now());
    obj = await recordOwnership(
      this.fieldManager,
      kind,
      undefined,
      obj,
      'main',
      opts.fieldManager,
      this.clock.now(),
      sentSpec,
    );
    kind.admitCreate?.(obj);
    if (opts.admission) obj = await mutateCreate(kind, obj, sentName, opts.admission, this.clock.now());
    kind.prepareForCreate?.(obj, opts.user);
    // store.go runs BeginCreate and BeginUpdate (a Service's allocation) before validating.
    const finish = isService(kind) ? await this.services.beginCreate(obj, opts.dryRun) : undefined;
    try {
      validateWrite(kind, obj, undefined, undefined, opts.warn);
      await opts.admission?.validate(obj, undefined);
      if (opts.dryRun) return { ...obj, metadata: { ...obj.metadata } };
      const encoded = this.encode(kind, obj);
      const kv = await this.store.create(objectKey(kind, namespace, obj.metadata!.name!), encoded.value);
      this.stats.writes++;
      return this.answer(kind, obj, kv.modRevision, encoded);
    } catch (err) {
      await finish?.(false);
      throw storeErrorToStatus(err, kind, obj.metadata!.name!);
    }
  }

  /** Stores `template` (stored-again.ts) with a new uid and the clock's time: a bootstrap object again. */
  async createAgain(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    template: string,
  ): Promise<KubeObject> {
    const value = fillAgain(template, randomUUID(), rfc3339(this.clock.now()));
    const kv = await this.store.create(objectKey(kind, namespace, name), value).catch((err) => {
      throw storeErrorToStatus(err, kind, name);
    });
    this.stats.writes++;
    return this.decode(kind, kv);
  }

  /** Replaces an object with `input` (PUT): update.ts, through this storage's create and read-modify-write. */
  update(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    input: KubeObject,
    scope: UpdateScope,
    opts: WriteOptions = {},
  ): Promise<UpdateResult> {
    return updateObject(this, kind, namespace, name, input, scope, opts);
  }

  /**
   * Read-modify-write with retries on storage conflicts: `mutate` gets the current object and
   * returns the desired one. Server-owned metadata is restored; nothing changed, nothing written.
   */
  async guaranteedUpdate(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    scope: UpdateScope,
    opts: WriteOptions,
    mutate: (current: KubeObject) => KubeObject | Promise<KubeObject>,
    /** What a missing object becomes (undefined: it exists now, read it again); absent: a 404. */
    ifMissing?: () => Promise<KubeObject | undefined>,
  ): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const kv = await this.read(kind, namespace, name);
      if (!kv) {
        const made = ifMissing && attempt < 100 ? await ifMissing() : undefined;
        if (made) return made;
        if (ifMissing && attempt < 100) continue;
        throw notFound(kind, name);
      }
      const current = this.decode(kind, kv);
      let desired = await mutate(structuredClone(current));
      let next: KubeObject;
      if (opts.admission) {
        // update.go and patch.go run the field manager on the object as the client made it, then
        // mutating admission, then PrepareForUpdate: what a webhook adds belongs to no manager,
        // and the webhook sees the managedFields the write will have.
        const owned = await recordOwnership(
          this.fieldManager,
          kind,
          current,
          prepareUpdate(kind, current, structuredClone(desired), scope),
          scope,
          opts.fieldManager,
          this.clock.now(),
        );
        const meta = metaOf(desired);
        if (owned.metadata?.managedFields === undefined) delete meta.managedFields;
        else meta.managedFields = owned.metadata.managedFields;
        desired = await opts.admission.mutate(desired, current);
        next = prepareUpdate(kind, current, desired, scope);
      } else {
        next = await recordOwnership(
          this.fieldManager,
          kind,
          current,
          prepareUpdate(kind, current, desired, scope),
          scope,
          opts.fieldManager,
          this.clock.now(),
        );
      }
      if (scope !== 'binding') kind.afterFieldManager?.(next, current, scope, this.clock.now());
      const allocating = isService(kind) && scope === 'main';
      if (allocating) keepAllocated(next, current);
      if (jsonEqual(stripRV(next), stripRV(current))) {
        // store.go runs updateValidation before storage finds nothing changed.
        await opts.admission?.validate(next, current);
        return current;
      }
      const finish = allocating ? await this.services.beginUpdate(next, current, opts.dryRun) : undefined;
      const meta = metaOf(next);
      try {
        // A binding bypasses the strategy (and so its update validation), as BindingREST's
        // GuaranteedUpdate on the pod store does.
        if (scope !== 'binding') validateWrite(kind, next, current, scope, opts.warn);
        await opts.admission?.validate(next, current);
        if (opts.dryRun) return next;
        if (meta.deletionTimestamp && (meta.finalizers?.length ?? 0) === 0 && !heldBySpec(kind, next)) {
          // The last finalizer is gone from an object marked for deletion: remove it. The answer
          // is the updated object at the version it replaced (store.go `deleteWithoutFinalizers`
          // returns the request's object, which storage never wrote).
          await this.store.delete(kv.key, kv.modRevision);
          this.stats.writes++;
          await finish?.(true);
          if (isService(kind)) await this.services.afterDelete(next);
          return this.answer(kind, next, kv.modRevision);
        }
        const encoded = this.encode(kind, next);
        const written = await this.store.update(kv.key, encoded.value, kv.modRevision);
        this.stats.writes++;
        await finish?.(true);
        return this.answer(kind, next, written.modRevision, encoded);
      } catch (err) {
        await finish?.(false);
        if (err instanceof StoreError && err.code === 'conflict' && attempt < 100) continue;
        throw storeErrorToStatus(err, kind, name);
      }
    }
  }

  /**
   * Deletes an object. With finalizers, or with Orphan/Foreground propagation, the object is only
   * marked (deletionTimestamp) and stays until its finalizers are removed (the collector acts).
   */
  async delete(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
  ): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const kv = await this.read(kind, namespace, name);
      if (!kv) throw notFound(kind, name);
      const current = this.decode(kind, kv);
      const meta = metaOf(current);
      checkPreconditions(kind, name, meta, opts.preconditions);
      if (isNamespace(kind)) {
        // The namespace REST storage (pkg/registry/core/namespace/storage/storage.go,
        // `REST.Delete`): a namespace already Terminating that the namespace controller still
        // holds (spec.finalizers) is answered as it is, without admission or any change.
        if (meta.deletionTimestamp && heldBySpec(kind, current)) return current;
        this.namespaceAdmission?.admitNamespaceDelete(name);
      }
      const { finalizers, marks } = deletionFinalizers(kind, current, opts.propagationPolicy);
      if (marks && meta.deletionTimestamp && jsonEqual(finalizers, meta.finalizers ?? [])) return current;
      // store.go hands deleteValidation (rest.AdmissionToValidateObjectDeleteFunc) to the delete.
      await opts.admission?.validate(undefined, current);
      const next = marks ? markedForDeletion(kind, current, finalizers, this.clock.now()) : undefined;
      // A graceful kind is marked before it is removed (store.go
      // `updateForGracefulDeletionAndFinalizers` writes the mark, then deletes at grace 0).
      const graceful = !next && !meta.deletionTimestamp ? this.gracefulMark(kind, current) : undefined;
      // A dryRun answers what the delete would store (the registry's dryRun update), writing nothing.
      if (opts.dryRun) return next ?? graceful ?? current;
      try {
        if (next) {
          const encoded = this.encode(kind, next);
          const written = await this.store.update(kv.key, encoded.value, kv.modRevision);
          this.stats.writes++;
          return this.answer(kind, next, written.modRevision, encoded);
        }
        let revision = kv.modRevision;
        if (graceful) {
          revision = (await this.store.update(kv.key, this.encode(kind, graceful).value, revision))
            .modRevision;
          this.stats.writes++;
        }
        const deleted = this.decode(kind, await this.store.delete(kv.key, revision));
        this.stats.writes++;
        // store.go's AfterDelete: a Service gone releases its cluster IPs.
        if (isService(kind)) await this.services.afterDelete(deleted);
        return deleted;
      } catch (err) {
        if (err instanceof StoreError && err.code === 'conflict' && attempt < 100) continue;
        throw storeErrorToStatus(err, kind, name);
      }
    }
  }

  /** `current` as a graceful kind's delete marks it first (undefined for other kinds). */
  private gracefulMark(kind: ResourceKind, current: KubeObject): KubeObject | undefined {
    if (!kind.deleteGracefully) return undefined;
    const marked = structuredClone(current);
    kind.deleteGracefully(marked, rfc3339(this.clock.now()));
    bumpGenerationForDeletion(marked);
    return marked;
  }

  private async read(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    revision?: number,
  ): Promise<StoreKV | undefined> {
    try {
      return await this.store.get(objectKey(kind, namespace, name), revision);
    } catch (err) {
      throw storeErrorToStatus(err, kind, name);
    }
  }

  /** A stored object as read: stamped with its revision, and defaulted when its kind says so. */
  private decode(kind: ResourceKind, kv: Pick<StoreKV, 'value' | 'modRevision'>): KubeObject {
    const obj = decodeStored(kv.value, kv.modRevision);
    kind.fromStorage?.(obj);
    return obj;
  }

  /**
   * An object this server just wrote, as the answer carries it, built from the object in hand
   * rather than by decoding the bytes just encoded from it: the kind's own pipeline made it
   * (pruned, defaulted), so it is the stored object but for its resourceVersion, which comes
   * last in metadata as a decoded object has it, and its version, which stays the kind's. The
   * copy is shallow: `obj` is the write's own and is not touched again.
   */
  private answer(kind: ResourceKind, obj: KubeObject, revision: number, stored?: Encoded): KubeObject {
    const { resourceVersion: _, ...metadata } = obj.metadata ?? {};
    const resourceVersion = String(revision);
    const out = { ...obj, apiVersion: apiVersionOf(kind), metadata: { ...metadata, resourceVersion } };
    if (stored) rememberAnswerText(out, stored, resourceVersion);
    return out;
  }

  private encode(kind: ResourceKind, obj: KubeObject): Encoded {
    const copy = { ...obj, metadata: { ...obj.metadata } };
    delete copy.metadata.resourceVersion;
    kind.toStorage?.(copy);
    const encoded = encodeObject(copy);
    // The answer's text can be made from these bytes only when they carry the kind's own version.
    if (copy.apiVersion !== apiVersionOf(kind)) encoded.metaEnd = -1;
    this.onEncoded?.(kind, encoded.value);
    return encoded;
  }
}
