import { join } from 'node:path';
import type { KubeObject } from '../../protocol/events.js';
import type { CheckpointOptions } from '../checkpoint/checkpoint.js';
import { checkpointFileName, checkpointIdentity } from '../checkpoint/checkpoint-identity.js';
import type { Transport } from '../http/transport.js';
import { type InformerKey, informerKeyId } from '../watch/informer-key.js';
import { HttpListWatch } from '../watch/listwatch.js';
import { ResourcePath } from '../watch/resources.js';
import { Informer, type InformerOptions } from './informer.js';

export type { InformerKey } from '../watch/informer-key.js';

/** Options of {@link SharedInformerFactory}. */
export interface SharedInformerFactoryOptions {
  /**
   * Checkpoint every informer in this directory (one file per resource,
   * namespace and selectors) and resume from it on start; the other
   * {@link CheckpointOptions} apply to each.
   */
  checkpoint?: Omit<CheckpointOptions, 'path' | 'identity'> & { dir: string };
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
  private readonly factoryOptions: SharedInformerFactoryOptions;

  /** `defaults` apply to every informer made (timing, logger, ...). */
  constructor(
    transport: Transport,
    defaults: InformerOptions<KubeObject> = {},
    factoryOptions: SharedInformerFactoryOptions = {},
  ) {
    this.transport = transport;
    this.defaults = defaults;
    this.factoryOptions = factoryOptions;
  }

  /** The shared informer for `key`, created and started on first use. */
  informerFor<T extends KubeObject = KubeObject>(
    key: InformerKey,
    options: InformerOptions<T> = {},
  ): Informer<T> {
    const id = informerKeyId(key);
    let informer = this.informers.get(id);
    if (!informer) {
      const source = new HttpListWatch(this.transport, new ResourcePath(key.type, key.namespace), key);
      informer = new Informer<KubeObject>(source, {
        ...this.defaults,
        ...(options as InformerOptions<KubeObject>),
        ...this.checkpointFor(key),
      });
      this.informers.set(id, informer);
      informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  private checkpointFor(key: InformerKey): { checkpoint?: CheckpointOptions } {
    const given = this.factoryOptions.checkpoint;
    if (!given) return {};
    const { dir, ...rest } = given;
    return {
      checkpoint: {
        ...rest,
        path: join(dir, checkpointFileName(key)),
        identity: (signal?: AbortSignal) => checkpointIdentity(this.transport, key, signal),
      },
    };
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
