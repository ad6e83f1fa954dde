import type { Clock } from '../protocol/clock.js';
import type { KubeObject, OwnerReference } from '../protocol/events.js';
import { StatusError } from '../protocol/status.js';
import { objectKey } from './keys.js';
import { findByKind, findByPlural } from './kinds/registry.js';
import { type Allocations, allocate, allocationsOf, keepAllocated } from './kinds/service-alloc.js';
import { apiVersionOf, type FieldError, type ResourceKind } from './kinds/types.js';
import { formatInvalidMessage } from './kinds/validation.js';
import { generateName, jsonEqual, metaOf, newUid, rfc3339 } from './meta.js';
import type { ServerStats } from './stats.js';
import { type Store, StoreError, type StoreKV } from './store/types.js';
import { decodeStored } from './watchcache/cacher.js';

/** `deployments.apps` / `pods`: how kube names a resource in messages. */
export function qualifiedResource(kind: ResourceKind): string {
  return kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
}

/** Options shared by writes. */
export interface WriteOptions {
  /** `dryRun=All`: validate and answer, but write nothing. */
  dryRun?: boolean;
}

/** DeleteOptions, as far as the server honours them. */
export interface DeleteOptions extends WriteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** Which part of an object an update may change. */
export type UpdateScope = 'main' | 'status';

const NAMESPACES: Pick<ResourceKind, 'group' | 'plural'> = { group: '', plural: 'namespaces' };

/** A 404 Status for one object, worded as kube-apiserver words it. */
export function notFound(kind: ResourceKind, name: string): StatusError {
  return StatusError.of('NotFound', `${qualifiedResource(kind)} "${name}" not found`, {
    name,
    group: kind.group || undefined,
    kind: kind.plural,
  });
}

function conflict(kind: ResourceKind, name: string): StatusError {
  return StatusError.of(
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: kind.group || undefined, kind: kind.plural },
  );
}

/** Maps a storage failure to the Status kube-apiserver answers. */
export function storeErrorToStatus(err: unknown, kind: ResourceKind, name: string): unknown {
  if (!(err instanceof StoreError)) return err;
  switch (err.code) {
    case 'exists':
      return StatusError.of('AlreadyExists', `${qualifiedResource(kind)} "${name}" already exists`, {
        name,
        group: kind.group || undefined,
        kind: kind.plural,
      });
    case 'not-found':
      return notFound(kind, name);
    case 'conflict':
      return conflict(kind, name);
    case 'compacted':
      return StatusError.of(
        'Expired',
        `The resourceVersion for the provided list is too old.`,
        undefined,
        410,
      );
    case 'too-large':
      return StatusError.of('RequestEntityTooLarge', `Request entity too large: ${err.message}`);
    default:
      return StatusError.of('InternalError', `storage error: ${err.message}`);
  }
}

/**
 * The generic object layer ("REST storage") over the {@link Store}: server-set
 * metadata, defaulting, validation, generation, optimistic concurrency,
 * finalizers and graceful deletion, the same for every kind.
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
    if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
    obj.apiVersion = apiVersionOf(kind);
    obj.kind = kind.kind;
    meta.uid = newUid();
    meta.creationTimestamp = rfc3339(this.clock.now());
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    delete meta.managedFields;
    if (kind.generationFields.length > 0) meta.generation = 1;
    else delete meta.generation;
    // With a status subresource, a create cannot set status (the strategies'
    // PrepareForCreate); Nodes are the exception: kubelets register with status.
    if (kind.subresources.includes('status') && kind.kind !== 'Node') obj.status = {};
    kind.defaults?.(obj);
    kind.prepareForCreate?.(obj);
    if (isService(kind)) this.failOn(kind, obj, allocate(obj, await this.serviceAllocations()));
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
   * Creates the namespaces of `names` that do not exist. Several servers over
   * one etcd may race: a namespace another created first is left as it is.
   */
  async ensureNamespaces(names: readonly string[]): Promise<void> {
    const kind = findByKind('v1', 'Namespace')!;
    for (const name of names) {
      if (await this.read(kind, undefined, name)) continue;
      try {
        await this.create(kind, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      } catch (err) {
        if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
      }
    }
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
      const next = this.prepareUpdate(kind, current, desired, scope);
      const allocating = isService(kind) && scope === 'main';
      if (allocating) keepAllocated(next, current);
      if (jsonEqual(stripRV(next), stripRV(current))) return current;
      if (allocating) {
        const used = await this.serviceAllocations(`${namespace}/${name}`);
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
      const pre = opts.preconditions;
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
      const finalizers = [...(meta.finalizers ?? [])];
      if (opts.propagationPolicy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
      if (opts.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion')) {
        finalizers.push('foregroundDeletion');
      }
      if (kind.kind === 'Namespace' && !finalizers.includes('kubernetes')) {
        // The namespace lifecycle: Terminating until its content is gone.
        (current as { spec?: { finalizers?: string[] } }).spec = { finalizers: ['kubernetes'] };
      }
      const marks = finalizers.length > 0 || kind.kind === 'Namespace';
      if (opts.dryRun) return current;
      try {
        if (marks) {
          if (meta.deletionTimestamp && jsonEqual(finalizers, meta.finalizers ?? [])) return current;
          const next = structuredClone(current);
          const nm = metaOf(next);
          nm.deletionTimestamp ??= rfc3339(this.clock.now());
          nm.deletionGracePeriodSeconds = 0;
          if (finalizers.length > 0) nm.finalizers = finalizers;
          if (kind.kind === 'Namespace') next.status = { ...(next.status as object), phase: 'Terminating' };
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

  /**
   * One pass of the namespace controller over a terminating namespace: its
   * content is deleted as a DELETE would (objects with finalizers are only
   * marked, and hold the namespace in Terminating until they go), then the
   * namespace itself. Returns true once the namespace is gone.
   */
  async finalizeNamespace(name: string, kinds: ResourceKind[]): Promise<boolean> {
    let held = 0;
    for (const kind of kinds) {
      if (!kind.namespaced) continue;
      const { items } = await this.store.list(objectKey(kind, name, ''));
      for (const kv of items) {
        const objectName = decodeStored(kv.value, kv.modRevision).metadata?.name ?? '';
        try {
          const after = await this.delete(kind, name, objectName);
          if (after.metadata?.finalizers?.length) held++;
        } catch (err) {
          // Gone meanwhile: that is what this pass wants.
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
    }
    if (held > 0) return false;
    const nsKind = findByPlural('', 'v1', 'namespaces')!;
    const kv = await this.read(nsKind, undefined, name);
    if (kv) {
      await this.store.delete(kv.key).catch(() => undefined);
      this.stats.writes++;
    }
    return true;
  }

  /** Owner references of `obj` (for the garbage collector of the simulated cluster). */
  static owners(obj: KubeObject): OwnerReference[] {
    return obj.metadata?.ownerReferences ?? [];
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

  private prepareUpdate(
    kind: ResourceKind,
    current: KubeObject,
    desired: KubeObject,
    scope: UpdateScope,
  ): KubeObject {
    const next = desired;
    const meta = metaOf(next);
    const cur = metaOf(current);
    next.apiVersion = apiVersionOf(kind);
    next.kind = kind.kind;
    // Server-owned metadata cannot be changed by clients.
    meta.name = cur.name;
    if (kind.namespaced) meta.namespace = cur.namespace;
    else delete meta.namespace;
    meta.uid = cur.uid;
    meta.creationTimestamp = cur.creationTimestamp;
    meta.resourceVersion = cur.resourceVersion;
    if (cur.deletionTimestamp) {
      meta.deletionTimestamp = cur.deletionTimestamp;
      meta.deletionGracePeriodSeconds = cur.deletionGracePeriodSeconds;
    } else {
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
    }
    delete meta.managedFields;
    delete meta.selfLink;
    if (kind.subresources.includes('status')) {
      if (scope === 'main') {
        next.status = current.status;
      } else {
        // Through /status the spec cannot change. Annotations can (the deployment
        // controller records its revision there), and so can labels except on the
        // apps workloads, whose status strategies reset them (PrepareForUpdate).
        const kept = structuredClone(current);
        kept.status = next.status;
        const keptMeta = metaOf(kept);
        if (meta.annotations === undefined) delete keptMeta.annotations;
        else keptMeta.annotations = meta.annotations;
        if (kind.group !== 'apps') {
          if (meta.labels === undefined) delete keptMeta.labels;
          else keptMeta.labels = meta.labels;
        }
        return this.prepareStatus(kind, kept);
      }
    }
    kind.defaults?.(next);
    if (kind.generationFields.length > 0) {
      const changed = kind.generationFields.some((f) => !jsonEqual(valueAt(next, f), valueAt(current, f)));
      meta.generation = (cur.generation ?? 1) + (changed ? 1 : 0);
    }
    if (meta.finalizers && meta.finalizers.length === 0) delete meta.finalizers;
    return next;
  }

  private prepareStatus(kind: ResourceKind, obj: KubeObject): KubeObject {
    kind.defaults?.(obj);
    return obj;
  }

  /** Cluster IPs and node ports held by the stored Services (but `except`, namespace/name). */
  private async serviceAllocations(except?: string): Promise<Allocations> {
    const { items } = await this.store.list('/core/services/');
    return allocationsOf(
      items.map((kv) => JSON.parse(kv.value) as KubeObject),
      except,
    );
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

/** The value at a dotted path (`spec`, `metadata.annotations`). */
function valueAt(obj: KubeObject, path: string): unknown {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function stripRV(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } };
}

/** Services get cluster IPs and node ports allocated on writes (see service-alloc.ts). */
function isService(kind: ResourceKind): boolean {
  return kind.group === '' && kind.kind === 'Service';
}
