import type { KubeObject } from '../protocol/events.js';
import type { CheckpointIdentity } from './checkpoint/checkpoint-file.js';
import { checkpointIdentity } from './checkpoint/checkpoint-identity.js';
import { type ClusterConnection, type LoadOptions, loadConnection } from './config/index.js';
import { Transport, type TransportOptions } from './http/transport.js';
import { Informer, type InformerOptions } from './informer/informer.js';
import { SharedInformerFactory, type SharedInformerFactoryOptions } from './informer/informer-factory.js';
import { type DeferredType, ResourceClient } from './rest.js';
import { RESTMapper, type RESTMapperOptions } from './restmapper/restmapper.js';
import type { ResourceType } from './watch/resources.js';
import { Watcher, type WatcherOptions } from './watch/watcher.js';

// The mapper's API, for src/index.ts (whose README lists client/ but not client/restmapper/).
export {
  AmbiguousResourceError,
  NoKindMatchError,
  NoResourceTypeError,
  RESTMapper,
  type RESTMapperOptions,
} from './restmapper/restmapper.js';

/** Which objects a watcher or informer follows. */
export interface Selection {
  /** A namespace; undefined = the connection's default namespace; `allNamespaces` overrides. */
  namespace?: string;
  allNamespaces?: boolean;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Only each object's metadata (PartialObjectMetadata), as client-go's metadata informers and
   * kube-controller-manager's garbage collector ask: far fewer bytes for large objects.
   */
  metadataOnly?: boolean;
}

/** Options of {@link KubeClient}: the transport's, and defaults for its informers. */
export type KubeClientOptions = TransportOptions & {
  /** Options every informer of the shared factory gets (timing, logger, ...). */
  informerDefaults?: InformerOptions<KubeObject>;
  /** Options of the shared informer factory (e.g. a checkpoint directory). */
  informerFactory?: SharedInformerFactoryOptions;
  /** Options of the client's {@link RESTMapper} (where its warnings go). */
  restMapper?: RESTMapperOptions;
};

/**
 * The entry point of the library: a connection to one API server with REST
 * verbs, watchers, informers and a shared informer factory.
 *
 * ```ts
 * const kube = await KubeClient.load();            // kubeconfig, KUBECONFIG or in-cluster
 * const pods = kube.informer('pods', { namespace: 'demo' });
 * await pods.synced();
 * ```
 */
export class KubeClient {
  readonly transport: Transport;
  readonly informers: SharedInformerFactory;
  /**
   * Resource type names to served types over discovery (custom types too),
   * cached for this client. Every method taking a type name resolves it here.
   */
  readonly mapper: RESTMapper;

  constructor(connection: ClusterConnection, opts: KubeClientOptions = {}) {
    this.transport = new Transport(connection, opts);
    this.informers = new SharedInformerFactory(this.transport, opts.informerDefaults, opts.informerFactory);
    this.mapper = new RESTMapper(this.transport, opts.restMapper);
  }

  /** Loads credentials the way kubectl does (see {@link loadConnection}) and connects. */
  static async load(opts: LoadOptions & KubeClientOptions = {}): Promise<KubeClient> {
    return new KubeClient(await loadConnection(opts), opts);
  }

  /** The connection's default namespace. */
  get namespace(): string {
    return this.transport.connection.namespace;
  }

  /**
   * REST verbs for a resource type: a {@link ResourceType}, or any name
   * kubectl takes (`pods`, `deploy`, `widgets`, `wg`, `widgets.example.com`,
   * `Widget.v1.example.com`). A name neither built in nor already known to
   * {@link KubeClient.mapper} is resolved over discovery by the first verb
   * (which throws `NoResourceTypeError` when the server has no such type).
   */
  resource<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    namespace?: string,
  ): ResourceClient<T> {
    return new ResourceClient<T>(this.transport, this.typeOrDeferred(type), namespace ?? this.namespace);
  }

  /** The served type a name means (see {@link KubeClient.resource}); a {@link ResourceType} is returned as is. */
  resolveType(type: ResourceType | string, signal?: AbortSignal): Promise<ResourceType> {
    if (typeof type !== 'string') return Promise.resolve(type);
    return this.mapper.resourceFor(type, signal);
  }

  /** A new (unshared) watcher; a custom type's name is resolved when it starts (a failure goes to `onError`, and is retried). */
  watcher<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    selection: Selection = {},
    opts: WatcherOptions = {},
  ): Watcher<T> {
    return new Watcher<T>(this.source(type, selection), opts);
  }

  /**
   * A new (unshared) informer, not yet started. A `checkpoint` without an
   * identity gets this cluster's. A custom type's name is resolved when it
   * starts; an unknown one is reported to `onError` and retried with backoff.
   */
  informer<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    selection: Selection = {},
    opts: InformerOptions<T> = {},
  ): Informer<T> {
    const checkpoint = opts.checkpoint && {
      identity: (signal?: AbortSignal) => this.checkpointIdentity(type, selection, signal),
      ...opts.checkpoint,
    };
    return new Informer<T>(this.source(type, selection), checkpoint ? { ...opts, checkpoint } : opts);
  }

  /** The identity a checkpoint of this selection carries on this cluster (one GET of `kube-system`). */
  async checkpointIdentity(
    type: ResourceType | string,
    selection: Selection = {},
    signal?: AbortSignal,
  ): Promise<CheckpointIdentity> {
    const t = await this.resolveType(type, signal);
    const key = {
      type: t,
      namespace: this.namespaceFor(t, selection),
      labelSelector: selection.labelSelector,
      fieldSelector: selection.fieldSelector,
    };
    return checkpointIdentity(this.transport, key, signal);
  }

  /**
   * The shared informer for this selection (one watch per process), started.
   * A custom type the mapper does not know yet is shared by the name given
   * until it resolves (see {@link SharedInformerFactory.deferredInformerFor}).
   */
  sharedInformer<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    selection: Selection = {},
  ): Informer<T> {
    const t = this.typeOrDeferred(type);
    const selectors = { labelSelector: selection.labelSelector, fieldSelector: selection.fieldSelector };
    if ('plural' in t)
      return this.informers.informerFor<T>({
        type: t,
        namespace: this.namespaceFor(t, selection),
        ...selectors,
      });
    const namespace = selection.allNamespaces ? undefined : (selection.namespace ?? this.namespace);
    return this.informers.deferredInformerFor<T>(t.name, { namespace, ...selectors }, async (signal) => {
      const resolved = await t.resolve(signal);
      return { type: resolved, namespace: this.namespaceFor(resolved, selection), ...selectors };
    });
  }

  /** Stops shared informers and closes connections. */
  async close(): Promise<void> {
    await this.informers.stop();
    this.transport.close();
  }

  private namespaceFor(t: ResourceType, selection: Selection): string | undefined {
    if (!t.namespaced || selection.allNamespaces) return undefined;
    return selection.namespace ?? this.namespace;
  }

  private source(type: ResourceType | string, selection: Selection) {
    // A cluster-scoped type drops the namespace (ResourcePath), known now or once resolved.
    const namespace = selection.allNamespaces ? undefined : (selection.namespace ?? this.namespace);
    return new ResourceClient(this.transport, this.typeOrDeferred(type), namespace).listWatch(selection);
  }

  /** A type known without a request (given, built in, or in the mapper's snapshot), else one resolved on first use. */
  private typeOrDeferred(type: ResourceType | string): ResourceType | DeferredType {
    if (typeof type !== 'string') return type;
    return (
      this.mapper.cached(type) ?? { name: type, resolve: (signal) => this.mapper.resourceFor(type, signal) }
    );
  }
}
