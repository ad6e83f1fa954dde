/**
 * A list read through to the store (k8s.io/apiserver/pkg/storage/etcd3/store.go
 * `GetList`): pages of keys at one revision, decoded by the kind's storage
 * decoder and filtered until the page is full; a compacted revision is a 410,
 * a future one a 504.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ListMode, ServerStats } from '../stats/stats.js';
import { decodeStored } from '../stores/codec.js';
import { encodeContinue } from '../stores/continue.js';
import { tooLargeResourceVersion, tooOldResourceVersion } from '../stores/revision-errors.js';
import { storeErrorToStatus } from '../stores/status-errors.js';
import { type Store, StoreError } from '../stores/types.js';
import type { ListedObject, ListResult } from './list-result.js';
import type { WatchFilter } from './watcher.js';

/** Where a read-through list starts and how much it takes. */
export interface StoreListRead {
  kind: ResourceKind;
  prefix: string;
  filter: WatchFilter;
  /** 0: no limit. */
  limit: number;
  /** The revision to read at; undefined: the newest (a consistent read). */
  revision: number | undefined;
  startKey: string;
  mode: ListMode;
}

/** etcd3/errors.go `inconsistentContinue`. */
const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new ' +
  'list without the continue parameter, or use the continue token in this response to retrieve the ' +
  'remainder of the results. Continuing with the provided token results in an inconsistent list - ' +
  'objects that were created, modified, or deleted between the time the first chunk was returned and ' +
  'now may show up in the list.';

export async function listFromStore(
  store: Store,
  stats: Pick<ServerStats, 'expiredSent' | 'tooLargeSent'>,
  read: StoreListRead,
): Promise<ListResult> {
  const { kind, prefix, filter, limit, revision, mode } = read;
  const items: ListedObject[] = [];
  let readAt = revision;
  let start = read.startKey;
  let more = false;
  let remaining: number | undefined;
  let lastKey = '';
  let examined = 0;
  try {
    for (;;) {
      // Without selectors one page of `limit` is exact; with them, read ahead
      // in pages and filter until the page is full, as the etcd3 store does.
      const want = limit > 0 ? limit - items.length : 0;
      const page = await store.list(prefix, {
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
      stats.expiredSent++;
      if (mode === 'continue') {
        // etcd3/errors.go `handleCompactedErrorForPaging`: the 410 carries a token that goes on
        // from the same key at the latest revision (rv -1), for a client willing to take an
        // inconsistent list (the API chunking conformance test does).
        const expired = StatusError.of('Expired', INCONSISTENT_CONTINUE, undefined, 410);
        expired.status.metadata = {
          continue: encodeContinue({ rv: -1, start: read.startKey.slice(prefix.length) }),
        };
        throw expired;
      }
      throw tooOldResourceVersion(revision ?? 0, err.revision ?? 0);
    }
    if (err instanceof StoreError && err.code === 'future') {
      stats.tooLargeSent++;
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
