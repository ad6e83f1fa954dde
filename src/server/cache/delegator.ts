/**
 * The one place that decides whether a read is served by the watch cache or
 * read through to the store, in the shape of k8s.io/apiserver's
 * pkg/storage/cacher/delegator.go (`CacheDelegator`): handlers and the
 * registry reach data through it and the object storage, never through a
 * store or a cache of their own choosing.
 *
 * Lists (`shouldDelegateList`):
 * - `continue`: the store, at the token's revision;
 * - resourceVersion unset: a consistent read of the store;
 * - `Exact`, or N > 0 with a limit: exactly N, from the store (410 once compacted);
 * - "0", or N without a limit (`NotOlderThan`): the cache, once it has
 *   reached N (a 504 if it does not in time); "0" ignores the limit.
 *
 * Watches always come from the cache; one that must start from the newest
 * state first waits for the cache to reach the store's current revision
 * (the consistent-read revision, `storage.GetCurrentResourceVersionFromStorage`).
 */
import type { ResourceKind } from '../kinds/types.js';
import type { ServerStats } from '../stats/stats.js';
import { decodeContinue } from '../stores/continue.js';
import { resourcePrefix } from '../stores/keys.js';
import { tooLargeResourceVersion } from '../stores/revision-errors.js';
import type { Store } from '../stores/types.js';
import { listFromCache } from './cache-list.js';
import type { Cacher } from './cacher.js';
import type { ListResult } from './list-result.js';
import type { ResourceCache } from './resource-cache.js';
import { listFromStore } from './store-list.js';
import type { WatchFilter } from './watcher.js';

/** A list's validated parameters. */
export interface ListRead {
  /** 0: no limit. */
  limit: number;
  /** The resourceVersion asked for; undefined: unset. */
  rv: number | undefined;
  match: string | undefined;
  /** The continue token as the client sent it. */
  continue?: string;
}

export class CacheDelegator {
  constructor(
    private readonly store: Store,
    private readonly cacher: Cacher,
    private readonly stats: ServerStats,
    /** How long a read of a future resourceVersion waits before its 504. */
    readonly tooLargeWaitMs: number,
  ) {}

  /** The newest revision the watch cache has applied. */
  get latestRevision(): number {
    return this.cacher.latestRevision;
  }

  /** The cache of `kind`, for a watch to start from. */
  cacheFor(kind: ResourceKind): ResourceCache {
    return this.cacher.cacheFor(kind);
  }

  /** The keys a list or watch of `kind` in `namespace` (all when undefined) covers. */
  prefixOf(kind: ResourceKind, namespace?: string): string {
    return resourcePrefix(kind, namespace);
  }

  /** Lists `kind` as {@link CacheDelegator} says, counting the list by where it was served. */
  async getList(kind: ResourceKind, filter: WatchFilter, read: ListRead): Promise<ListResult> {
    const { rv, match } = read;
    let limit = read.limit;
    // store.go `ListPredicate`: a field selector pinning one namespace narrows the
    // keys read to it (continue tokens start below that namespace); one pinning a
    // name reads that single key, a list that never has a next page.
    const exactNamespace = kind.namespaced ? (filter.namespace ?? filter.exact?.namespace) : undefined;
    const exactName = filter.exact?.name;
    if (exactName !== undefined && (!kind.namespaced || exactNamespace !== undefined)) limit = 0;
    // cacher.go `shouldDelegateList`: resourceVersion "0" is served from the
    // cache, which ignores the limit.
    if (rv === 0 && !read.continue && match !== 'Exact') limit = 0;
    const prefix = resourcePrefix(kind, exactNamespace);
    const through = { kind, prefix, filter, limit };
    let result: ListResult;
    if (read.continue) {
      const token = decodeContinue(read.continue);
      result = await listFromStore(this.store, this.stats, {
        ...through,
        // storage/interfaces.go `ValidateListOptions`: a negative rv (the token of an expired
        // continue's 410) goes on at the latest revision.
        revision: token.rv > 0 ? token.rv : undefined,
        startKey: prefix + token.start,
        mode: 'continue',
      });
    } else if (rv === undefined) {
      result = await listFromStore(this.store, this.stats, {
        ...through,
        revision: undefined,
        startKey: prefix,
        mode: 'consistent',
      });
    } else if (match === 'Exact' || (match === undefined && rv !== 0 && limit > 0)) {
      result = await listFromStore(this.store, this.stats, {
        ...through,
        revision: rv,
        startKey: prefix,
        mode: 'exact',
      });
    } else {
      await this.awaitRevision(rv);
      result = listFromCache(
        this.cacher.cacheFor(kind),
        this.cacher.latestRevision,
        prefix,
        filter,
        limit,
        rv === 0 ? 'cache' : 'notOlderThan',
      );
    }
    this.stats.lists[result.mode]++;
    this.stats.listObjects[result.mode] += result.items.length;
    this.stats.listObjectsExamined[result.mode] += result.examined;
    return result;
  }

  /**
   * Waits, up to the too-large wait, for the watch cache to reach `revision`; a revision
   * it does not reach in time is a 504 (counted).
   */
  async awaitRevision(revision: number): Promise<void> {
    if (revision <= this.cacher.latestRevision) return;
    if (await this.cacher.waitForRevision(revision, this.tooLargeWaitMs)) return;
    this.stats.tooLargeSent++;
    throw tooLargeResourceVersion(revision, this.cacher.latestRevision);
  }

  /** Waits until the watch cache holds everything the store held when called (false: it did not in time). */
  async awaitConsistent(): Promise<boolean> {
    return this.cacher.waitForRevision(await this.store.currentRevision(), this.tooLargeWaitMs);
  }
}
