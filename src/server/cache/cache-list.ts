/**
 * A list served from the watch cache (k8s.io/apiserver/pkg/storage/cacher/cacher.go
 * `GetList`): the cache's objects under a prefix, filtered, at the cache's
 * newest revision, paged with a continue token that the store reads on.
 */
import type { ListMode } from '../stats/stats.js';
import { encodeContinue } from '../stores/continue.js';
import type { ListedObject, ListResult } from './list-result.js';
import type { ResourceCache } from './resource-cache.js';
import type { WatchFilter } from './watcher.js';

export function listFromCache(
  cache: ResourceCache,
  revision: number,
  prefix: string,
  filter: WatchFilter,
  limit: number,
  mode: ListMode,
): ListResult {
  const items: ListedObject[] = [];
  const index = filter.index;
  const keys =
    (index?.field === 'spec.nodeName' ? cache.keysOnNode(index.value, prefix) : undefined) ??
    cache.keys(prefix);
  let lastKey = '';
  let i = 0;
  for (; i < keys.length; i++) {
    const cached = cache.objects.get(keys[i])!;
    if (!filter.everything || filter.namespace !== undefined) {
      if (!filter.matches(cached.object)) continue;
    }
    if (limit > 0 && items.length === limit) break;
    items.push({ object: cached.object, json: cached.json });
    lastKey = keys[i];
  }
  // The loop stops on the first match past a full page, having looked at it.
  const examined = Math.min(i + 1, keys.length);
  const result: ListResult = { items, resourceVersion: revision, mode, examined };
  if (i < keys.length) {
    result.continue = encodeContinue({ rv: revision, start: `${lastKey.slice(prefix.length)}\u0000` });
    if (filter.everything) result.remainingItemCount = keys.length - i;
  }
  return result;
}
