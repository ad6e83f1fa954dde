import type { KubeObject } from '../protocol/events.js';
import { Informer, type InformerOptions } from './informer.js';
import { HttpListWatch } from './listwatch.js';
import { ResourcePath, type ResourceType } from './resources.js';
import type { Transport } from './transport.js';

/** What identifies a shared informer: resource, namespace and selectors. */
export interface InformerKey {
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * Gives every part of a process the same informer (one watch) per resource,
 * namespace and selectors, as client-go's SharedInformerFactory: ten
 * controllers that all care about pods cost the server one watch, not ten.
 */
export class SharedInformerFactory {
  private readonly transport: Transport;
  private readonly defaults: InformerOptions<KubeObject>;
  private readonly informers = new Map<string, Informer<KubeObject>>();

  /** `defaults` apply to every informer made (timing, logger, ...). */
  constructor(transport: Transport, defaults: InformerOptions<KubeObject> = {}) {
    this.transport = transport;
    this.defaults = defaults;
  }

  /** The shared informer for `key`, created and started on first use. */
  informerFor<T extends KubeObject = KubeObject>(
    key: InformerKey,
    options: InformerOptions<T> = {},
  ): Informer<T> {
    const id = JSON.stringify([
      key.type.group,
      key.type.version,
      key.type.plural,
      key.type.namespaced ? (key.namespace ?? '') : '',
      key.labelSelector ?? '',
      key.fieldSelector ?? '',
    ]);
    let informer = this.informers.get(id);
    if (!informer) {
      const source = new HttpListWatch(this.transport, new ResourcePath(key.type, key.namespace), key);
      informer = new Informer<KubeObject>(source, {
        ...this.defaults,
        ...(options as InformerOptions<KubeObject>),
      });
      this.informers.set(id, informer);
      informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  /** Every informer made so far. */
  all(): Informer<KubeObject>[] {
    return [...this.informers.values()];
  }

  /** Resolves when every informer made so far has synced. */
  async synced(): Promise<void> {
    await Promise.all(this.all().map((i) => i.synced()));
  }

  /** Stops every informer. */
  async stop(): Promise<void> {
    await Promise.all(this.all().map((i) => i.stop()));
    this.informers.clear();
  }
}
