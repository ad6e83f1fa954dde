import { join } from 'node:path';
import type { KubeObject } from '../../protocol/events.js';
import type { CheckpointOptions } from '../checkpoint/checkpoint.js';
import { checkpointFileName, checkpointIdentity } from '../checkpoint/checkpoint-identity.js';
import type { Transport } from '../http/transport.js';
import { DeferredListWatch } from '../watch/deferred-listwatch.js';
import { type InformerKey, informerKeyId } from '../watch/informer-key.js';
import { HttpListWatch, type ListWatchSource } from '../watch/listwatch.js';
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
    const source = () => new HttpListWatch(this.transport, new ResourcePath(key.type, key.namespace), key);
    return this.shared<T>(id, source, options, this.checkpointFor(key));
  }

  /**
   * The shared informer for a type known by name only (a custom type the
   * client's mapper has not read yet): `resolve` gives its key when the
   * informer first lists. Shared by the name as given (lowercased) and the
   * selection; once resolved, the informer is also the one {@link informerFor}
   * returns for the resolved key, unless that one was made first. A
   * checkpoint's file is named after the resolved type, as {@link informerFor}
   * names it.
   */
  deferredInformerFor<T extends KubeObject = KubeObject>(
    name: string,
    selection: { namespace?: string; labelSelector?: string; fieldSelector?: string },
    resolve: (signal?: AbortSignal) => Promise<InformerKey>,
    options: InformerOptions<T> = {},
  ): Informer<T> {
    const id = JSON.stringify([
      'name',
      name.toLowerCase(),
      selection.namespace ?? '',
      selection.labelSelector ?? '',
      selection.fieldSelector ?? '',
    ]);
    let informer: Informer<KubeObject> | undefined;
    let key: Promise<InformerKey> | undefined;
    const resolveOnce = (signal?: AbortSignal) => {
      key ??= resolve(signal).then(
        (k) => {
          const canonical = informerKeyId(k);
          if (informer && !this.informers.has(canonical)) this.informers.set(canonical, informer);
          return k;
        },
        (err: unknown) => {
          key = undefined;
          throw err;
        },
      );
      return key;
    };
    const source = () =>
      new DeferredListWatch(name, async (signal) => {
        const k = await resolveOnce(signal);
        return new HttpListWatch(this.transport, new ResourcePath(k.type, k.namespace), k);
      });
    const pseudoKey: InformerKey = {
      type: { group: '', version: '', kind: '', plural: name.toLowerCase(), namespaced: true },
      ...selection,
    };
    const checkpoint = this.checkpointFor(pseudoKey, resolveOnce);
    informer = this.shared<KubeObject>(id, source, options as InformerOptions<KubeObject>, checkpoint);
    return informer as unknown as Informer<T>;
  }

  private shared<T extends KubeObject>(
    id: string,
    source: () => ListWatchSource,
    options: InformerOptions<T>,
    checkpoint: { checkpoint?: CheckpointOptions },
  ): Informer<T> {
    let informer = this.informers.get(id);
    if (!informer) {
      informer = new Informer<KubeObject>(source(), {
        ...this.defaults,
        ...(options as InformerOptions<KubeObject>),
        ...checkpoint,
      });
      this.informers.set(id, informer);
      informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  private checkpointFor(
    key: InformerKey,
    resolve?: (signal?: AbortSignal) => Promise<InformerKey>,
  ): { checkpoint?: CheckpointOptions } {
    const given = this.factoryOptions.checkpoint;
    if (!given) return {};
    const { dir, ...rest } = given;
    return {
      checkpoint: {
        ...rest,
        // A type known by name only: the file is named once the name resolves, so every
        // spelling of the type (and the resolved informer of another process) shares it.
        path: resolve
          ? async (signal?: AbortSignal) => join(dir, checkpointFileName(await resolve(signal)))
          : join(dir, checkpointFileName(key)),
        identity: async (signal?: AbortSignal) =>
          checkpointIdentity(this.transport, resolve ? await resolve(signal) : key, signal),
      },
    };
  }

  /** Every informer made so far. */
  all(): Informer<KubeObject>[] {
    // A resolved deferred informer is listed under two keys: count it once.
    return [...new Set(this.informers.values())];
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
