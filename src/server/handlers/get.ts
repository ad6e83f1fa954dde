/**
 * The reading verbs, as k8s.io/apiserver's handlers/get.go serves them: `GetResource` (one object,
 * or its Scale) and `ListResource`, which answers a list, or a watch when the request asks for one.
 * The answer's form (JSON, a Table, metadata only, protobuf) was negotiated before they run.
 */
import type { KubeObject } from '../../protocol/events.js';
import { jsonEncoder } from '../cache/event.js';
import { apiVersionOf } from '../kinds/types.js';
import { filterFromQuery } from './filter.js';
import { renderList, serveList } from './list.js';
import { partialListAnswer, partialObjectAnswer, partialWatch, type ReadOutput } from './partial-metadata.js';
import { reply, replyObject } from './reply.js';
import type { NamedScope, RequestScope } from './request-scope.js';
import { parseResourceVersion } from './resource-version.js';
import { toScale } from './scale.js';
import { toTable } from './table.js';
import { tableEncoder, tableRequest } from './table-response.js';
import { serveWatch } from './watch.js';

/** GET of one object (or of its Scale), in the form `output` negotiated. */
export async function getResource(scope: NamedScope, output: ReadOutput): Promise<void> {
  if (scope.subresource === 'scale') return reply(scope, 200, toScale(scope.kind, await getObject(scope)));
  const object = await getObject(scope);
  if (output && output.as !== 'Table')
    return reply(scope, 200, partialObjectAnswer(scope.kind, object, output));
  return replyObject(scope, 200, object);
}

/**
 * A GET of one object. Its resourceVersion, unset, "0" or N, is answered with
 * the newest object, which is never older than N; an N the server has not
 * reached yet is waited for and then answered with 504, as kube-apiserver's
 * cache does; a malformed one is a 400.
 */
async function getObject(scope: NamedScope): Promise<KubeObject> {
  const { server } = scope;
  const rv = parseResourceVersion(scope.query.get('resourceVersion') ?? undefined);
  if (rv !== undefined) await server.data.awaitRevision(rv);
  return server.objects.get(scope.kind, scope.namespace, scope.name);
}

/** A LIST of a collection, as JSON, a Table or a PartialObjectMetadataList. */
export async function listResource(scope: RequestScope, output: ReadOutput): Promise<void> {
  const { kind, query } = scope;
  const filter = filterFromQuery(kind, scope.namespace, query);
  const table = tableRequest(scope.req, query);
  const result = await serveList(scope.server, kind, filter, {
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
    limit: query.get('limit') ?? undefined,
    continue: query.get('continue') ?? undefined,
    sendInitialEvents: query.get('sendInitialEvents') ?? undefined,
  });
  if (table) {
    const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
      resourceVersion: String(result.resourceVersion),
    };
    if (result.continue) listMeta.continue = result.continue;
    if (result.remainingItemCount !== undefined) listMeta.remainingItemCount = result.remainingItemCount;
    reply(
      scope,
      200,
      toTable(
        kind,
        result.items.map((i) => i.object),
        { now: scope.server.clock.now(), listMeta, version: table.version, includeObject: table.include },
      ),
    );
    return;
  }
  if (output) return reply(scope, 200, partialListAnswer(kind, result, output));
  reply(scope, 200, renderList(kind, apiVersionOf(kind), result));
}

/** A WATCH: the stream stays open until the watch ends or the client goes. */
export async function watchResource(
  scope: RequestScope,
  output: ReadOutput,
  protobuf: typeof import('./protobuf-answer.js') | undefined,
): Promise<void> {
  const { server, kind, query, res } = scope;
  let fieldSelector = query.get('fieldSelector') ?? undefined;
  if (scope.name !== undefined) {
    // GET .../pods/NAME?watch=1 (and /watch/.../NAME) watch one object by name.
    const byName = `metadata.name=${scope.name}`;
    fieldSelector = fieldSelector ? `${fieldSelector},${byName}` : byName;
  }
  const filter = filterFromQuery(kind, scope.namespace, query, fieldSelector);
  const table = tableRequest(scope.req, query);
  const partial = partialWatch(output);
  const json =
    partial?.encoder ??
    (table ? tableEncoder(server.clock, kind, table.version, table.include) : jsonEncoder);
  const encoder = protobuf ? await protobuf.protobufWatchEncoder(json) : json;
  let clientGone = false;
  res.on('close', () => {
    clientGone = true;
  });
  // The live view follows this request's watch (the watch service reads the hook from its context).
  const watchContext = scope.observeWatch ? { ...server, observeWatch: scope.observeWatch } : server;
  const watcher = await serveWatch(
    watchContext,
    kind,
    filter,
    {
      resourceVersion: query.get('resourceVersion') ?? undefined,
      resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
      allowWatchBookmarks: query.get('allowWatchBookmarks') ?? undefined,
      sendInitialEvents: query.get('sendInitialEvents') ?? undefined,
      timeoutSeconds: query.get('timeoutSeconds') ?? undefined,
    },
    encoder,
    () => server.watchWriter.open(res, protobuf ? protobuf.PROTOBUF_WATCH_CONTENT_TYPE : undefined),
    partial?.bookmarkType,
  );
  if (!watcher) return;
  if (clientGone) watcher.close('client');
  else res.on('close', () => watcher.close('client'));
}
