/**
 * The kinds one server serves: the built-in kinds, and kinds added and removed
 * while it runs (custom resources, once their definition is established). Each
 * server has its own table, so two servers in one process never see each
 * other's kinds. Readers take `all()`, a snapshot that is replaced, never
 * changed, on every add or remove, so a cache keyed by it (the OpenAPI
 * documents) is rebuilt exactly when the kinds change.
 */

import type { ResourceKind } from '../types.js';
import { kindKey, REGISTRY } from './registry.js';

/** What changed in a {@link KindTable}. */
export type KindChange = { added: ResourceKind } | { removed: ResourceKind };

const CORE_VERSION_RE = /^v\d+((alpha|beta)\d+)?$/;
const servedAt = (k: Pick<ResourceKind, 'group' | 'version' | 'plural'>) =>
  `${k.group}/${k.version}/${k.plural}`;

export class KindTable {
  private snapshot: readonly ResourceKind[];
  private readonly byPlural = new Map<string, ResourceKind>();
  private readonly byKindKey = new Map<string, ResourceKind>();
  private readonly listeners = new Set<(change: KindChange) => void>();

  constructor(kinds: readonly ResourceKind[] = REGISTRY) {
    for (const k of kinds) this.index(k);
    this.snapshot = Object.freeze([...kinds]);
  }

  /** Every kind served now, in discovery order (built-ins first, then in the order added). */
  all(): readonly ResourceKind[] {
    return this.snapshot;
  }

  /** The kind served at `/apis/<group>/<version>/<plural>` (`group` "" for `/api/v1`). */
  findByPlural(group: string, version: string, plural: string): ResourceKind | undefined {
    return this.byPlural.get(`${group}/${version}/${plural}`);
  }

  /** The kind `kind` of an apiVersion (`apps/v1`, `v1`), or of a group (`apps`, "" for core) in any served version. */
  findByKind(groupOrApiVersion: string, kind: string): ResourceKind | undefined {
    if (groupOrApiVersion.includes('/') || CORE_VERSION_RE.test(groupOrApiVersion)) {
      const slash = groupOrApiVersion.indexOf('/');
      const group = slash < 0 ? '' : groupOrApiVersion.slice(0, slash);
      const version = slash < 0 ? groupOrApiVersion : groupOrApiVersion.slice(slash + 1);
      return this.byKindKey.get(kindKey({ group, version, kind }));
    }
    return this.snapshot.find((k) => k.group === groupOrApiVersion && k.kind === kind);
  }

  /**
   * Serves `kind` from now on. Throws when its URL or its apiVersion/kind is
   * taken: deciding which definition wins is the caller's (for custom
   * resources, the names controller's), never a silent replacement.
   */
  add(kind: ResourceKind): void {
    if (this.byPlural.has(servedAt(kind))) throw new Error(`${servedAt(kind)} is already served`);
    if (this.byKindKey.has(kindKey(kind))) throw new Error(`${kindKey(kind)} is already served`);
    this.index(kind);
    this.snapshot = Object.freeze([...this.snapshot, kind]);
    this.emit({ added: kind });
  }

  /** Stops serving `kind` (the same object that was added); false when it was not served. */
  remove(kind: ResourceKind): boolean {
    if (this.byPlural.get(servedAt(kind)) !== kind) return false;
    this.byPlural.delete(servedAt(kind));
    this.byKindKey.delete(kindKey(kind));
    this.snapshot = Object.freeze(this.snapshot.filter((k) => k !== kind));
    this.emit({ removed: kind });
    return true;
  }

  /** Calls `listener` after every add and remove; returns the unsubscriber. */
  onChange(listener: (change: KindChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private index(kind: ResourceKind): void {
    this.byPlural.set(servedAt(kind), kind);
    this.byKindKey.set(kindKey(kind), kind);
  }

  private emit(change: KindChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
