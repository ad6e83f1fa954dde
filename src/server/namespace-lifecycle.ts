/**
 * The namespace lifecycle around the object layer: the system namespaces a
 * server creates at start, and the namespace controller's pass over a
 * terminating namespace (delete its content, then the namespace itself). The
 * other half, refusing new content in a terminating namespace and marking a
 * deleted namespace Terminating, is part of create and delete in
 * object-storage.ts.
 */
import { StatusError } from '../protocol/status.js';
import { objectKey } from './keys.js';
import { findByKind, findByPlural } from './kinds/registry.js';
import type { ResourceKind } from './kinds/types.js';
import { storeErrorToStatus } from './object-errors.js';
import type { ObjectStorage } from './object-storage.js';
import type { ServerStats } from './stats.js';
import type { Store, StoreKV } from './store/types.js';
import { decodeStored } from './watchcache/cacher.js';

/** Creates system namespaces and finishes terminating ones. */
export class NamespaceLifecycle {
  private readonly objects: ObjectStorage;
  private readonly store: Store;
  private readonly stats: ServerStats;

  constructor(objects: ObjectStorage, store: Store, stats: ServerStats) {
    this.objects = objects;
    this.store = store;
    this.stats = stats;
  }

  /**
   * Creates the namespaces of `names` that do not exist. Several servers over
   * one etcd may race: a namespace another created first is left as it is.
   */
  async ensureNamespaces(names: readonly string[]): Promise<void> {
    const kind = findByKind('v1', 'Namespace')!;
    for (const name of names) {
      if (await this.read(kind, name)) continue;
      try {
        await this.objects.create(kind, undefined, {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name },
        });
      } catch (err) {
        if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
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
          const after = await this.objects.delete(kind, name, objectName);
          if (after.metadata?.finalizers?.length) held++;
        } catch (err) {
          // Gone meanwhile: that is what this pass wants.
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
    }
    if (held > 0) return false;
    const nsKind = findByPlural('', 'v1', 'namespaces')!;
    const kv = await this.read(nsKind, name);
    if (kv) {
      await this.store.delete(kv.key).catch(() => undefined);
      this.stats.writes++;
    }
    return true;
  }

  /** The stored namespace `name`, if any. */
  private async read(kind: ResourceKind, name: string): Promise<StoreKV | undefined> {
    try {
      return await this.store.get(objectKey(kind, undefined, name));
    } catch (err) {
      throw storeErrorToStatus(err, kind, name);
    }
  }
}
