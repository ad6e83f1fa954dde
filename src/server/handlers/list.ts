import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import type { WatchFilter } from '../cache/watcher.js';
import { listKindOf, type ResourceKind } from '../kinds/types.js';
import { storeErrorToStatus } from '../registry/object-errors.js';
import type { ListMode, ServerStats } from '../stats/stats.js';
import { decodeStored } from '../stores/codec.js';
import { resourcePrefix } from '../stores/keys.js';
import { type Store, StoreError } from '../stores/types.js';
import {
  awaitRevision,
  decodeContinue,
  encodeContinue,
  forbidden,
  invalidListOptions,
  type ListOptionsError,
  notSupported,
  parseQueryInt64,
  parseResourceVersion,
  tooLargeResourceVersion,
  tooOldResourceVersion,
} from './resource-version.js';

/** The list-relevant query parameters. */
export interface ListQuery {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: string;
  continue?: string;
  /** Forbidden for a list; given only to be refused as kube-apiserver refuses it. */
  sendInitialEvents?: string;
}

/** One listed object with its JSON text. */
export interface ListedObject {
  object: KubeObject;
  json: string;
}

/** A list answer before rendering. */
export interface ListResult {
  items: ListedObject[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
  mode: ListMode;
  /** Objects looked at to find the items. */
  examined: number;
}

/** What the list service needs from the server. */
export interface ListContext {
  store: Store;
  cacher: Cacher;
  clock: Clock;
  stats: ServerStats;
  /** How long a request for a future resourceVersion waits before its 504. */
  tooLargeWaitMs: number;
}

/**
 * Validates a list's parameters in kube-apiserver's order: the parameter
 * codec's parse of `limit` (400), then `ValidateListOptions`, every error at
 * once (422, k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation.go),
 * then the storage layer's checks: a continue token with a resourceVersion
 * other than "0" (400, k8s.io/apiserver/pkg/storage/etcd3/store.go `GetList`),
 * a resourceVersion Go's ParseUint refuses (400). Returns the parsed limit
 * and resourceVersion.
 */
export function validateListQuery(q: ListQuery): {
  limit: number;
  rv: number | undefined;
  match: string | undefined;
} {
  const match = q.resourceVersionMatch || undefined;
  let limit = 0;
  if (q.limit !== undefined && q.limit !== '') {
    // A zero or negative limit means no limit.
    limit = Math.max(0, parseQueryInt64(q.limit));
  }
  const errors: ListOptionsError[] = [];
  if (match !== undefined) {
    if (!q.resourceVersion) {
      errors.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden unless resourceVersion is provided',
        ),
      );
    }
    if (q.continue) {
      errors.push(
        forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'),
      );
    }
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errors.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && q.resourceVersion === '0') {
      errors.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ),
      );
    }
  }
  if (q.sendInitialEvents !== undefined) {
    errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errors.length > 0) throw invalidListOptions(errors);
  if (q.continue) {
    if (q.resourceVersion && q.resourceVersion !== '0') {
      throw StatusError.of('BadRequest', 'specifying resource version is not allowed when using continue');
    }
    return { limit, rv: undefined, match };
  }
  const rv = parseResourceVersion(q.resourceVersion, 'list');
  return { limit, rv, match };
}

/**
 * Serves a list with kube-apiserver's resourceVersion semantics:
 * unset = consistent read of the store; "0" = whatever the cache has;
 * N = not older than N (from the cache, waiting for it to catch up, 504 if it
 * cannot) or, with a limit or `Exact`, exactly N from the store (410 once
 * compacted); `continue` resumes at the token's revision.
 */
export async function serveList(
  ctx: ListContext,
  kind: ResourceKind,
  filter: WatchFilter,
  query: ListQuery,
): Promise<ListResult> {
  const validated = validateListQuery(query);
  const { rv, match } = validated;
  let { limit } = validated;
  // store.go `ListPredicate`: a field selector pinning one namespace narrows the
  // keys read to it (continue tokens start below that namespace); one pinning a
  // name reads that single key, a list that never has a next page.
  const exactNamespace = kind.namespaced ? (filter.namespace ?? filter.exact?.namespace) : undefined;
  const exactName = filter.exact?.name;
  if (exactName !== undefined && (!kind.namespaced || exactNamespace !== undefined)) limit = 0;
  // cacher.go `shouldDelegateList`: resourceVersion "0" is served from the
  // cache, which ignores the limit.
  if (rv === 0 && !query.continue && match !== 'Exact') limit = 0;
  const prefix = resourcePrefix(kind, exactNamespace);
  let result: ListResult;
  if (query.continue) {
    const token = decodeContinue(query.continue);
    result = await fromStore(ctx, kind, prefix, filter, limit, token.rv, prefix + token.start, 'continue');
  } else if (rv === undefined) {
    result = await fromStore(ctx, kind, prefix, filter, limit, undefined, prefix, 'consistent');
  } else if (match === 'Exact' || (match === undefined && rv !== 0 && limit > 0)) {
    result = await fromStore(ctx, kind, prefix, filter, limit, rv, prefix, 'exact');
  } else {
    await awaitRevision(ctx.cacher, ctx.stats, rv, ctx.tooLargeWaitMs);
    result = fromCache(ctx, kind, prefix, filter, limit, rv === 0 ? 'cache' : 'notOlderThan');
  }
  ctx.stats.lists[result.mode]++;
  ctx.stats.listObjects[result.mode] += result.items.length;
  ctx.stats.listObjectsExamined[result.mode] += result.examined;
  return result;
}

function fromCache(
  ctx: ListContext,
  kind: ResourceKind,
  prefix: string,
  filter: WatchFilter,
  limit: number,
  mode: ListMode,
): ListResult {
  const cache = ctx.cacher.cacheFor(kind);
  const revision = ctx.cacher.latestRevision;
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

async function fromStore(
  ctx: ListContext,
  kind: ResourceKind,
  prefix: string,
  filter: WatchFilter,
  limit: number,
  revision: number | undefined,
  startKey: string,
  mode: ListMode,
): Promise<ListResult> {
  const items: ListedObject[] = [];
  let readAt = revision;
  let start = startKey;
  let more = false;
  let remaining: number | undefined;
  let lastKey = '';
  let examined = 0;
  try {
    for (;;) {
      // Without selectors one page of `limit` is exact; with them, read ahead
      // in pages and filter until the page is full, as the etcd3 store does.
      const want = limit > 0 ? limit - items.length : 0;
      const page = await ctx.store.list(prefix, {
        revision: readAt,
        startKey: start,
        limit: want > 0 && filter.everything ? want : want > 0 ? Math.max(want, 500) : 0,
      });
      readAt = page.revision;
      examined += page.items.length;
      let consumed = 0;
      for (const kv of page.items) {
        consumed++;
        const object = decodeStored(kv.value, kv.modRevision);
        // The storage decoder of the kind (a custom resource's: converted to the version asked
        // for, pruned and defaulted, customresource_handler.go `schemaCoercingConverter`).
        kind.fromStorage?.(object);
        if (!filter.matches(object)) continue;
        items.push(storedItem(object));
        lastKey = kv.key;
        if (limit > 0 && items.length === limit) break;
      }
      const leftInPage = consumed < page.items.length;
      if (limit > 0 && items.length === limit) {
        more = leftInPage || page.more;
        if (filter.everything && more) remaining = (page.remaining ?? 0) + (page.items.length - consumed);
        break;
      }
      if (!page.more) break;
      start = `${page.items[page.items.length - 1].key}\u0000`;
    }
  } catch (err) {
    if (err instanceof StoreError && err.code === 'compacted') {
      ctx.stats.expiredSent++;
      if (mode === 'continue') {
        throw StatusError.of(
          'Expired',
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
          undefined,
          410,
        );
      }
      throw tooOldResourceVersion(revision ?? 0, err.revision ?? 0);
    }
    if (err instanceof StoreError && err.code === 'future') {
      ctx.stats.tooLargeSent++;
      throw tooLargeResourceVersion(revision ?? 0, err.revision ?? 0);
    }
    throw storeErrorToStatus(err, kind, '');
  }
  const result: ListResult = { items, resourceVersion: readAt ?? 0, mode, examined };
  if (more) {
    result.continue = encodeContinue({ rv: readAt!, start: `${lastKey.slice(prefix.length)}\u0000` });
    if (remaining !== undefined) result.remainingItemCount = remaining;
  }
  return result;
}

/**
 * An item read from the store: its JSON text is made on first use, so an answer that never
 * looks at it (a PartialObjectMetadataList, a Table) does not serialise the whole object.
 */
function storedItem(object: KubeObject): ListedObject {
  let json: string | undefined;
  return {
    object,
    get json() {
      json ??= JSON.stringify(object);
      return json;
    },
  };
}

/**
 * Renders a list as JSON text, reusing each item's JSON. A built-in kind's items go out without
 * `apiVersion` and `kind`: kube-apiserver encodes a typed list, whose items are Go structs that
 * carry no TypeMeta once decoded from storage. A custom resource's list is unstructured: its items
 * keep both, and its ListMeta always holds `continue` (apimachinery `UnstructuredList.SetContinue`,
 * called by the storage's `UpdateList` with "" when there is no next page).
 */
export function renderList(kind: ResourceKind, apiVersion: string, result: ListResult): string {
  const metadata: Record<string, unknown> = {};
  if (result.continue || kind.custom) metadata.continue = result.continue ?? '';
  metadata.resourceVersion = String(result.resourceVersion);
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  let out = `{"kind":"${listKindOf(kind)}","apiVersion":"${apiVersion}","metadata":${JSON.stringify(metadata)},"items":[`;
  const typed = !kind.custom;
  for (let i = 0; i < result.items.length; i++) {
    if (i > 0) out += ',';
    out += typed ? withoutTypeMeta(result.items[i].json) : result.items[i].json;
  }
  return `${out}]}`;
}

const TYPE_META_HEAD = /^"(?:apiVersion|kind)":"(?:[^"\\]|\\.)*",?/;
const TYPE_META_TAIL = /,?"(?:apiVersion|kind)":"(?:[^"\\]|\\.)*"$/;

/**
 * An object's JSON text without its top-level `apiVersion` and `kind`, as a typed list's item is
 * encoded. A stored object holds the two first (as sent) or last (set by the server when a client
 * left them out): they are cut off either end; any other layout is parsed and written again.
 */
export function withoutTypeMeta(json: string): string {
  let rest = json.slice(1, -1);
  let cut = 0;
  for (const pattern of [TYPE_META_HEAD, TYPE_META_HEAD, TYPE_META_TAIL, TYPE_META_TAIL]) {
    if (cut === 2) break;
    const m = pattern.exec(rest);
    if (!m) continue;
    rest = pattern === TYPE_META_HEAD ? rest.slice(m[0].length) : rest.slice(0, m.index);
    cut++;
  }
  if (cut === 2) return `{${rest}}`;
  const { apiVersion: _v, kind: _k, ...object } = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify(object);
}
