import type { KubeList, KubeObject } from '../protocol/events.js';
import { isNotFound, type Status, StatusError } from '../protocol/status.js';
import type { Transport } from './http/transport.js';
import {
  type DeleteOptions,
  deleteBody,
  type ListOptions,
  PATCH_TYPES,
  type PatchType,
  type Scale,
  type ServerSideApplyOptions,
  type WriteOptions,
  writeQuery,
} from './rest-options.js';
import { DeferredListWatch } from './watch/deferred-listwatch.js';
import { HttpListWatch, type ListWatchOptions, type ListWatchSource } from './watch/listwatch.js';
import { apiVersionOf, ResourcePath, type ResourceType } from './watch/resources.js';

/**
 * A resource type known by name only, resolved on first use (a custom type
 * the client learns from discovery: see `KubeClient.mapper`).
 */
export interface DeferredType {
  /** The name asked for (`widgets`, `wg`, `widgets.example.com`), for messages. */
  name: string;
  /** Resolves the name; a rejection (no such type) fails the verb that needed it. */
  resolve: (signal?: AbortSignal) => Promise<ResourceType>;
}

/**
 * Typed REST verbs for one resource type in one namespace (or all):
 * get, list, create, update, patch, delete, and the status and scale
 * subresources. Failures throw {@link StatusError} with the server's Status.
 */
export class ResourceClient<T extends KubeObject = KubeObject> {
  private readonly transport: Transport;
  private readonly deferred: DeferredType | undefined;
  private readonly namespace: string | undefined;
  private resolved: ResourcePath | undefined;

  /**
   * `type` is a {@link ResourceType}, or a {@link DeferredType} resolved on
   * the first verb and kept (a failed resolution is tried again next time).
   * `namespace` is ignored for a cluster-scoped type.
   */
  constructor(transport: Transport, type: ResourceType | DeferredType, namespace?: string) {
    this.transport = transport;
    this.namespace = namespace;
    if ('resolve' in type) this.deferred = type;
    else this.resolved = new ResourcePath(type, namespace);
  }

  /**
   * The resource's paths. For a deferred type this throws until a verb (or
   * {@link ResourceClient.resolvePath}) has resolved it.
   */
  get path(): ResourcePath {
    if (this.resolved) return this.resolved;
    throw new Error(
      `resource type ${JSON.stringify(this.deferred?.name)} is not resolved yet: await resolvePath() first`,
    );
  }

  /** The resource's paths, resolving a deferred type first (once; then kept). */
  async resolvePath(signal?: AbortSignal): Promise<ResourcePath> {
    if (this.resolved) return this.resolved;
    // Concurrent first calls share the mapper's one discovery read; each keeps its own signal.
    const type = await (this.deferred as DeferredType).resolve(signal);
    this.resolved ??= new ResourcePath(type, this.namespace);
    return this.resolved;
  }

  /** The same resource in another namespace. */
  inNamespace(namespace: string | undefined): ResourceClient<T> {
    return new ResourceClient<T>(
      this.transport,
      this.resolved?.type ?? (this.deferred as DeferredType),
      namespace,
    );
  }

  /** Reads one object. */
  async get(name: string, opts: { resourceVersion?: string; signal?: AbortSignal } = {}): Promise<T> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<T>({
      path: path.objectPath(name),
      query: { resourceVersion: opts.resourceVersion },
      signal: opts.signal,
    });
  }

  /** Reads one object, or undefined when it does not exist. */
  async find(name: string, opts: { signal?: AbortSignal } = {}): Promise<T | undefined> {
    try {
      return await this.get(name, opts);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** One list call (one page when `limit` is set). */
  async list(opts: ListOptions = {}): Promise<KubeList<T>> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<KubeList<T>>({
      path: path.collectionPath,
      query: {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        limit: opts.limit,
        continue: opts.continue,
        resourceVersion: opts.resourceVersion,
        resourceVersionMatch: opts.resourceVersionMatch,
      },
      signal: opts.signal,
    });
  }

  /** Every object, fetched in pages of `pageSize` (500), as client-go's pager. */
  async listAll(
    opts: Omit<ListOptions, 'limit' | 'continue'> & { pageSize?: number } = {},
  ): Promise<KubeList<T>> {
    const items: T[] = [];
    let cont: string | undefined;
    let last: KubeList<T>;
    do {
      last = await this.list({
        ...opts,
        limit: opts.pageSize ?? 500,
        continue: cont,
        ...(cont ? { resourceVersion: undefined, resourceVersionMatch: undefined } : {}),
      });
      items.push(...last.items);
      cont = last.metadata.continue || undefined;
    } while (cont);
    return { ...last, metadata: { resourceVersion: last.metadata.resourceVersion }, items };
  }

  /** Creates an object (its namespace is this client's). */
  async create(object: T, opts: WriteOptions = {}): Promise<T> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<T>({
      method: 'POST',
      path: path.collectionPath,
      query: writeQuery(opts),
      body: withTypeMeta(object, path.type),
      signal: opts.signal,
    });
  }

  /** Replaces an object; its resourceVersion, if set, must be current (409 otherwise). */
  async update(object: T, opts: WriteOptions = {}): Promise<T> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<T>({
      method: 'PUT',
      path: path.objectPath(nameOf(object)),
      query: writeQuery(opts),
      body: withTypeMeta(object, path.type),
      signal: opts.signal,
    });
  }

  /** Replaces an object's status through the `status` subresource. */
  async updateStatus(object: T, opts: WriteOptions = {}): Promise<T> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<T>({
      method: 'PUT',
      path: path.objectPath(nameOf(object), 'status'),
      query: writeQuery(opts),
      body: withTypeMeta(object, path.type),
      signal: opts.signal,
    });
  }

  /** Patches an object (`merge` by default), or its `status`. */
  async patch(
    name: string,
    patch: unknown,
    type: PatchType = 'merge',
    opts: WriteOptions & { subresource?: 'status' | 'scale'; force?: boolean } = {},
  ): Promise<T> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<T>({
      method: 'PATCH',
      path: path.objectPath(name, opts.subresource),
      query: { ...writeQuery(opts), force: opts.force ? 'true' : undefined },
      body: patch,
      contentType: PATCH_TYPES[type],
      signal: opts.signal,
    });
  }

  /**
   * Server-side apply of `object` (the manager's whole intent; created when
   * absent), addressed by its name and namespace (else this client's);
   * apiVersion and kind default to the type's. Fields another manager holds
   * at another value fail with a 409 {@link StatusError}, one
   * `FieldManagerConflict` per field in `status.details.causes`, unless `force`.
   */
  async apply(object: T, opts: ServerSideApplyOptions): Promise<T> {
    return this.applyTo(object, opts, undefined);
  }

  /** Server-side apply of the object's `status` through the status subresource (see {@link ResourceClient.apply}). */
  async applyStatus(object: T, opts: ServerSideApplyOptions): Promise<T> {
    return this.applyTo(object, opts, 'status');
  }

  private async applyTo(
    object: T,
    opts: ServerSideApplyOptions,
    subresource: 'status' | undefined,
  ): Promise<T> {
    const name = checkApplied(object, opts);
    const path = await this.resolvePath(opts.signal);
    const namespace = applyNamespace(object, path);
    const target = namespace === path.namespace ? path : new ResourcePath(path.type, namespace);
    return this.transport.json<T>({
      method: 'PATCH',
      path: target.objectPath(name, subresource),
      // client-go's ApplyOptions.ToPatchOptions sends force always (`Force: &o.Force`), as kubectl does.
      query: { ...writeQuery(opts), force: opts.force ? 'true' : 'false' },
      // JSON is YAML: kubectl sends the object as JSON with the apply-patch+yaml type too.
      body: withTypeMeta(object, path.type),
      contentType: PATCH_TYPES.apply,
      signal: opts.signal,
    });
  }

  /** Deletes an object; resolves to what the server answered (the object, or a Status). */
  async delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<T | Status>({
      method: 'DELETE',
      path: path.objectPath(name),
      query: { dryRun: opts.dryRun ? 'All' : undefined },
      body: deleteBody(opts),
      signal: opts.signal,
    });
  }

  /** Deletes every object matching the selectors. */
  async deleteCollection(
    opts: DeleteOptions & { labelSelector?: string; fieldSelector?: string } = {},
  ): Promise<KubeList<T>> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<KubeList<T>>({
      method: 'DELETE',
      path: path.collectionPath,
      query: {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        dryRun: opts.dryRun ? 'All' : undefined,
      },
      body: deleteBody(opts),
      signal: opts.signal,
    });
  }

  /** Reads the `scale` subresource. */
  async getScale(name: string, opts: { signal?: AbortSignal } = {}): Promise<Scale> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<Scale>({ path: path.objectPath(name, 'scale'), signal: opts.signal });
  }

  /** Sets replicas through the `scale` subresource. */
  async scale(name: string, replicas: number, opts: WriteOptions = {}): Promise<Scale> {
    const path = await this.resolvePath(opts.signal);
    return this.transport.json<Scale>({
      method: 'PATCH',
      path: path.objectPath(name, 'scale'),
      query: writeQuery(opts),
      body: { spec: { replicas } },
      contentType: PATCH_TYPES.merge,
      signal: opts.signal,
    });
  }

  /**
   * The list-watch source for a {@link Watcher} or {@link Informer} over this resource; with
   * `metadataOnly`, its objects are PartialObjectMetadata (see {@link ListWatchOptions}).
   */
  listWatch(selectors: ListWatchOptions = {}): ListWatchSource {
    if (this.resolved) return new HttpListWatch(this.transport, this.resolved, selectors);
    return new DeferredListWatch(
      (this.deferred as DeferredType).name,
      async (signal) => new HttpListWatch(this.transport, await this.resolvePath(signal), selectors),
    );
  }
}

function withTypeMeta<T extends KubeObject>(object: T, type: ResourceType): T {
  return { apiVersion: apiVersionOf(type), kind: type.kind, ...object };
}

/**
 * What is refused before sending an apply. The empty manager would come
 * back as kube-apiserver's 400 (`PATCH, fieldManager: Required value: is
 * required for apply patch`: apiserver handlers/patch.go, `PatchResource`).
 */
function checkApplied(object: KubeObject, opts: ServerSideApplyOptions): string {
  if (!opts?.fieldManager) {
    throw new Error('server-side apply needs a fieldManager: the server refuses an apply without one');
  }
  const name = object.metadata?.name;
  // The name builds the path. managedFields in the object are left to the server to refuse,
  // as kubectl and client-go's typed clients leave them (only the dynamic client checks).
  if (!name) throw new Error("server-side apply needs the object's metadata.name");
  return name;
}

/** The object's own namespace, else the client's (`kube.resource(type)` carries the context's as a default). */
function applyNamespace(object: KubeObject, path: ResourcePath): string | undefined {
  if (!path.type.namespaced) return undefined;
  return object.metadata?.namespace || path.namespace;
}

function nameOf(object: KubeObject): string {
  const name = object.metadata?.name;
  if (!name) throw new Error('the object has no metadata.name');
  return name;
}
