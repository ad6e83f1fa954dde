/**
 * The cache of a client-node informer: objects by namespace, then name, and
 * the rules by which a change becomes an `add`, `update` or `delete`
 * callback. These are client-node's (1.x and 2.x cache.ts, `ListWatch`),
 * kept because users' code depends on them:
 *
 * - an object not cached is an `add`; a cached one is an `update` only when
 *   its resourceVersion differs (the same version again is no event);
 * - a deletion of an object not cached is no event;
 * - a (re)list first removes, with a `delete` each, every cached object the
 *   list lacks, then adds or updates the list's objects in its order;
 * - `list(namespace)` with no namespace gives every object, namespace by
 *   namespace in the order each was first seen; `get(name)` without a
 *   namespace finds cluster-scoped objects.
 */

/**
 * An object as client-node's `KubernetesObject`: what the informer reads of
 * it. client-node's generated models (V1Pod, ...) fit it.
 */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

/** Which callbacks a change calls, and with what. */
export type CacheChange<T> = { verb: 'add' | 'update' | 'delete'; object: T };

function namespaceOf(object: KubernetesObject): string {
  return object.metadata?.namespace || '';
}

function nameOf(object: KubernetesObject): string {
  return object.metadata?.name || '';
}

/** client-node's version test: an object with no resourceVersion is always new. */
function sameVersion(a: KubernetesObject, b: KubernetesObject): boolean {
  const rv = a.metadata?.resourceVersion;
  return rv !== undefined && rv !== null && rv === b.metadata?.resourceVersion;
}

/** Objects by namespace ("" for cluster-scoped), then name. See the file comment for the rules. */
export class NamespacedCache<T extends KubernetesObject> {
  private byNamespace = new Map<string, Map<string, T>>();

  get(name: string, namespace?: string): T | undefined {
    return this.byNamespace.get(namespace || '')?.get(name);
  }

  list(namespace?: string): T[] {
    if (!namespace) {
      const all: T[] = [];
      for (const objects of this.byNamespace.values()) for (const o of objects.values()) all.push(o);
      return all;
    }
    const objects = this.byNamespace.get(namespace);
    return objects ? [...objects.values()] : [];
  }

  /** Stores `object`; the change it makes, if any. */
  addOrUpdate(object: T): CacheChange<T> | undefined {
    const ns = namespaceOf(object);
    let objects = this.byNamespace.get(ns);
    if (!objects) {
      objects = new Map();
      this.byNamespace.set(ns, objects);
    }
    const name = nameOf(object);
    const before = objects.get(name);
    if (before && sameVersion(before, object)) return undefined;
    objects.set(name, object);
    return { verb: before ? 'update' : 'add', object };
  }

  /** Removes the object `object` names; the change (with the object given) if it was cached. */
  delete(object: T): CacheChange<T> | undefined {
    const ns = namespaceOf(object);
    const objects = this.byNamespace.get(ns);
    if (!objects?.delete(nameOf(object))) return undefined;
    if (objects.size === 0) this.byNamespace.delete(ns);
    return { verb: 'delete', object };
  }

  /**
   * Takes a new list: the deletions of cached objects it lacks (with the
   * cached object), then its adds and updates, in the list's order.
   */
  replace(items: readonly T[]): CacheChange<T>[] {
    const present = new Map<string, Set<string>>();
    for (const o of items) {
      const ns = namespaceOf(o);
      const names = present.get(ns) ?? new Set<string>();
      present.set(ns, names);
      names.add(nameOf(o));
    }
    const changes: CacheChange<T>[] = [];
    for (const [ns, objects] of this.byNamespace) {
      const names = present.get(ns);
      for (const [name, o] of objects) {
        if (names?.has(name)) continue;
        objects.delete(name);
        changes.push({ verb: 'delete', object: o });
      }
      if (!names) this.byNamespace.delete(ns);
    }
    for (const o of items) {
      const change = this.addOrUpdate(o);
      if (change) changes.push(change);
    }
    return changes;
  }
}
