import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { StatusError } from '../protocol/status.js';
import {
  checkPreconditions,
  type DeletePreconditions,
  deletionFinalizers,
  markedForDeletion,
} from './delete-rules.js';
import { objectKey } from './keys.js';
import { allocate, keepAllocated } from './kinds/service-alloc.js';
import { apiVersionOf, type FieldError, type ResourceKind } from './kinds/types.js';
import { formatInvalidMessage } from './kinds/validation.js';
import { jsonEqual, metaOf } from './meta.js';
import { conflict, notFound, storeErrorToStatus } from './object-errors.js';
import { prepareCreate, prepareUpdate, stripRV, type UpdateScope } from './prepare-write.js';
import { isService, serviceAllocations } from './service-allocation.js';
import type { ServerStats } from './stats.js';
import { type Store, StoreError, type StoreKV } from './store/types.js';
import { decodeStored } from './watchcache/cacher.js';

export type { UpdateScope } from './prepare-write.js';

/** Options shared by writes. */
export interface WriteOptions {
  /** `dryRun=All`: validate and answer, but write nothing. */
  dryRun?: boolean;
}

/** DeleteOptions, as far as the server honours them. */
export interface DeleteOptions extends WriteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: DeletePreconditions;
}

const NAMESPACES: Pick<ResourceKind, 'group' | 'plural'> = { group: '', plural: 'namespaces' };

/**
 * The generic object layer ("REST storage") over the {@link Store}: every
 * verb's read-check-write with optimistic concurrency (compare-and-swap on the
 * stored revision, retried on a lost race), the same for every kind. What the
 * server sets on a write is in prepare-write.ts, what a delete marks in
 * delete-rules.ts, the namespace controller in namespace-lifecycle.ts.
 */
export class ObjectStorage {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly stats: ServerStats;
  /**
   * Told when an object marked for deletion went with its last finalizer, so
   * that a terminating namespace it held can finish.
   */
  onFinalized: ((namespace: string | undefined) => void) | undefined;

  constructor(store: Store, clock: Clock, stats: ServerStats) {
    this.store = store;
    this.clock = clock;
    this.stats = stats;
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
    return decodeStored(kv.value, kv.modRevision);
  }

  /** Creates `input` in `namespace` and returns it as stored. */
  async create(
    kind: ResourceKind,
    namespace: string | undefined,
    input: KubeObject,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    const obj = structuredClone(input);
    const meta = metaOf(obj);
    this.checkTypeMeta(kind, obj);
    if (kind.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
        throw StatusError.of(
          'BadRequest',
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = namespace;
      await this.requireNamespace(namespace!);
    } else {
      delete meta.namespace;
    }
    prepareCreate(kind, obj, this.clock.now());
    if (isService(kind)) this.failOn(kind, obj, allocate(obj, await serviceAllocations(this.store)));
    this.validate(kind, obj);
    if (opts.dryRun) return { ...obj, metadata: { ...obj.metadata } };
    const key = objectKey(kind, namespace, meta.name!);
    const kv = await this.store.create(key, this.encode(obj)).catch((err) => {
      throw storeErrorToStatus(err, kind, meta.name!);
    });
    this.stats.writes++;
    return decodeStored(kv.value, kv.modRevision);
  }

  /**
   * Replaces an object with `input` (PUT). A resourceVersion in `input` must
   * match the stored one (409 otherwise); without one the update is
   * unconditional, as kube allows for these kinds.
   */
  async update(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    input: KubeObject,
    scope: UpdateScope,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    this.checkTypeMeta(kind, input);
    const inputMeta = metaOf(input);
    if (inputMeta.name !== undefined && inputMeta.name !== name) {
      throw StatusError.of(
        'BadRequest',
        `the name of the object (${inputMeta.name}) does not match the name on the URL (${name})`,
      );
    }
    if (kind.namespaced && inputMeta.namespace && inputMeta.namespace !== namespace) {
      throw StatusError.of(
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    const wanted = inputMeta.resourceVersion;
    return this.guaranteedUpdate(kind, namespace, name, scope, opts, (current) => {
      if (wanted !== undefined && wanted !== '' && wanted !== current.metadata?.resourceVersion)
        throw conflict(kind, name);
      return structuredClone(input);
    });
  }

  /**
   * Read-modify-write with retries on storage conflicts: `mutate` gets the
   * current object and returns the desired one. Server-owned metadata is
   * restored, and no write happens when nothing changed.
   */
  async guaranteedUpdate(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    scope: UpdateScope,
    opts: WriteOptions,
    mutate: (current: KubeObject) => KubeObject | Promise<KubeObject>,
  ): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const kv = await this.read(kind, namespace, name);
      if (!kv) throw notFound(kind, name);
      const current = decodeStored(kv.value, kv.modRevision);
      const desired = await mutate(structuredClone(current));
      const next = prepareUpdate(kind, current, desired, scope);
      const allocating = isService(kind) && scope === 'main';
      if (allocating) keepAllocated(next, current);
      if (jsonEqual(stripRV(next), stripRV(current))) return current;
      if (allocating) {
        const used = await serviceAllocations(this.store, `${namespace}/${name}`);
        this.failOn(kind, next, allocate(next, used));
      }
      this.validate(kind, next, current);
      if (opts.dryRun) return next;
      const meta = metaOf(next);
      try {
        if (meta.deletionTimestamp && (meta.finalizers?.length ?? 0) === 0) {
          // The last finalizer is gone from an object marked for deletion: remove it.
          const deleted = await this.store.delete(kv.key, kv.modRevision);
          this.stats.writes++;
          this.onFinalized?.(meta.namespace);
          return decodeStored(this.encode(next), deleted.modRevision);
        }
        const written = await this.store.update(kv.key, this.encode(next), kv.modRevision);
        this.stats.writes++;
        return decodeStored(written.value, written.modRevision);
      } catch (err) {
        if (err instanceof StoreError && err.code === 'conflict' && attempt < 100) continue;
        throw storeErrorToStatus(err, kind, name);
      }
    }
  }

  /**
   * Deletes an object. With finalizers, or with Orphan/Foreground propagation,
   * the object is only marked (deletionTimestamp) and stays until its
   * finalizers are removed; the garbage collector acts on the policy.
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
      const current = decodeStored(kv.value, kv.modRevision);
      const meta = metaOf(current);
      checkPreconditions(kind, name, meta, opts.preconditions);
      const { finalizers, marks } = deletionFinalizers(kind, current, opts.propagationPolicy);
      if (opts.dryRun) return current;
      try {
        if (marks) {
          if (meta.deletionTimestamp && jsonEqual(finalizers, meta.finalizers ?? [])) return current;
          const next = markedForDeletion(kind, current, finalizers, this.clock.now());
          const written = await this.store.update(kv.key, this.encode(next), kv.modRevision);
          this.stats.writes++;
          return decodeStored(written.value, written.modRevision);
        }
        const deleted = await this.store.delete(kv.key, kv.modRevision);
        this.stats.writes++;
        return decodeStored(deleted.value, deleted.modRevision);
      } catch (err) {
        if (err instanceof StoreError && err.code === 'conflict' && attempt < 100) continue;
        throw storeErrorToStatus(err, kind, name);
      }
    }
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

  private async requireNamespace(namespace: string): Promise<void> {
    const kv = await this.store.get(`/core/${NAMESPACES.plural}/${namespace}`);
    if (!kv) {
      throw StatusError.of('NotFound', `namespaces "${namespace}" not found`, {
        name: namespace,
        kind: 'namespaces',
      });
    }
    const ns = JSON.parse(kv.value) as KubeObject;
    if (ns.metadata?.deletionTimestamp) {
      throw StatusError.of(
        'Forbidden',
        `unable to create new content in namespace ${namespace} because it is being terminated`,
        { name: namespace, kind: 'namespaces' },
      );
    }
  }

  private checkTypeMeta(kind: ResourceKind, obj: KubeObject): void {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      throw StatusError.of('BadRequest', 'the request body must be a JSON object');
    }
    if (obj.kind !== undefined && obj.kind !== kind.kind) {
      throw StatusError.of('BadRequest', `the object kind ${String(obj.kind)} does not match ${kind.kind}`);
    }
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(kind)) {
      throw StatusError.of(
        'BadRequest',
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(kind)})`,
      );
    }
  }

  private validate(kind: ResourceKind, obj: KubeObject, old?: KubeObject): void {
    const errors = [...(kind.validate?.(obj) ?? []), ...(old ? (kind.validateUpdate?.(obj, old) ?? []) : [])];
    this.failOn(kind, obj, errors);
  }

  /** Throws the 422 of `errors`, if any. */
  private failOn(kind: ResourceKind, obj: KubeObject, errors: FieldError[]): void {
    if (errors.length === 0) return;
    const name = obj.metadata?.name ?? '';
    throw StatusError.of('Invalid', formatInvalidMessage(kind, name, errors), {
      name,
      group: kind.group || undefined,
      kind: kind.kind,
      causes: errors.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
    });
  }

  private encode(obj: KubeObject): string {
    const copy = { ...obj, metadata: { ...obj.metadata } };
    delete copy.metadata.resourceVersion;
    return JSON.stringify(copy);
  }
}
