import { StatusError } from '../../protocol/status.js';
import type { CacheDelegator } from '../cache/delegator.js';
import type { ListResult } from '../cache/list-result.js';
import type { WatchFilter } from '../cache/watcher.js';
import { listKindOf, type ResourceKind } from '../kinds/types.js';
import {
  forbidden,
  invalidListOptions,
  type ListOptionsError,
  notSupported,
  parseQueryInt64,
  parseResourceVersion,
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

export type { ListedObject, ListResult } from '../cache/list-result.js';

/** What the list service needs from the server. */
export interface ListContext {
  /** Where lists are served from: the watch cache or the store (cache/delegator.ts). */
  data: CacheDelegator;
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
 * Serves a list with kube-apiserver's resourceVersion semantics: the
 * parameters validated here, the choice of cache or store made by the
 * delegator (cache/delegator.ts).
 */
export async function serveList(
  ctx: ListContext,
  kind: ResourceKind,
  filter: WatchFilter,
  query: ListQuery,
): Promise<ListResult> {
  const { limit, rv, match } = validateListQuery(query);
  return ctx.data.getList(kind, filter, { limit, rv, match, continue: query.continue || undefined });
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
