import type { KubeObject } from '../protocol/events.js';
import type { CheckpointIdentity } from './checkpoint/checkpoint-file.js';
import { checkpointIdentity } from './checkpoint/checkpoint-identity.js';
import { type ClusterConnection, type LoadOptions, loadConnection } from './config/index.js';
import { Transport, type TransportOptions } from './http/transport.js';
import { Informer, type InformerOptions } from './informer/informer.js';
import { SharedInformerFactory, type SharedInformerFactoryOptions } from './informer/informer-factory.js';
import { ResourceClient } from './rest.js';
import { findBuiltin, type ResourceType } from './watch/resources.js';
import { Watcher, type WatcherOptions } from './watch/watcher.js';

/** Which objects a watcher or informer follows. */
export interface Selection {
  /** A namespace; undefined = the connection's default namespace; `allNamespaces` overrides. */
  namespace?: string;
  allNamespaces?: boolean;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Options of {@link KubeClient}: the transport's, and defaults for its informers. */
export type KubeClientOptions = TransportOptions & {
  /** Options every informer of the shared factory gets (timing, logger, ...). */
  informerDefaults?: InformerOptions<KubeObject>;
  /** Options of the shared informer factory (e.g. a checkpoint directory). */
  informerFactory?: SharedInformerFactoryOptions;
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

  constructor(connection: ClusterConnection, opts: KubeClientOptions = {}) {
    this.transport = new Transport(connection, opts);
    this.informers = new SharedInformerFactory(this.transport, opts.informerDefaults, opts.informerFactory);
  }

  /** Loads credentials the way kubectl does (see {@link loadConnection}) and connects. */
  static async load(opts: LoadOptions & KubeClientOptions = {}): Promise<KubeClient> {
    return new KubeClient(await loadConnection(opts), opts);
  }

  /** The connection's default namespace. */
  get namespace(): string {
    return this.transport.connection.namespace;
  }

  /** REST verbs for a resource type (`'pods'`, `'deploy'`, or a {@link ResourceType}). */
  resource<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    namespace?: string,
  ): ResourceClient<T> {
    const t = resolveType(type);
    return new ResourceClient<T>(this.transport, t, t.namespaced ? (namespace ?? this.namespace) : undefined);
  }

  /** A new (unshared) watcher. */
  watcher<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    selection: Selection = {},
    opts: WatcherOptions = {},
  ): Watcher<T> {
    return new Watcher<T>(this.source(type, selection), opts);
  }

  /** A new (unshared) informer, not yet started. A `checkpoint` without an identity gets this cluster's. */
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
  checkpointIdentity(
    type: ResourceType | string,
    selection: Selection = {},
    signal?: AbortSignal,
  ): Promise<CheckpointIdentity> {
    const t = resolveType(type);
    const key = {
      type: t,
      namespace: this.namespaceFor(t, selection),
      labelSelector: selection.labelSelector,
      fieldSelector: selection.fieldSelector,
    };
    return checkpointIdentity(this.transport, key, signal);
  }

  /** The shared informer for this selection (one watch per process), started. */
  sharedInformer<T extends KubeObject = KubeObject>(
    type: ResourceType | string,
    selection: Selection = {},
  ): Informer<T> {
    const t = resolveType(type);
    return this.informers.informerFor<T>({
      type: t,
      namespace: this.namespaceFor(t, selection),
      labelSelector: selection.labelSelector,
      fieldSelector: selection.fieldSelector,
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
    const t = resolveType(type);
    return new ResourceClient(this.transport, t, this.namespaceFor(t, selection)).listWatch(selection);
  }
}

function resolveType(type: ResourceType | string): ResourceType {
  if (typeof type !== 'string') return type;
  const found = findBuiltin(type);
  if (!found)
    throw new Error(`unknown resource type ${JSON.stringify(type)}: describe it with a ResourceType`);
  return found;
}
