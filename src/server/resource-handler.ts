import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject, WatchEventType } from '../protocol/events.js';
import { formatLabelSelector, labelSelectorFromObject, SelectorError } from '../protocol/labels.js';
import { applyPatch, applyStrategicMergePatch } from '../protocol/patch/index.js';
import { StatusError } from '../protocol/status.js';
import { buildFilter } from './filter.js';
import {
  checkNestingDepth,
  MAX_BODY_BYTES,
  mediaType,
  parseJsonBody,
  readBody,
  sendJson,
} from './http-io.js';
import { apiVersionOf, type ResourceKind } from './kinds/types.js';
import { type ListContext, renderList, serveList } from './list.js';
import { jsonEqual, metaOf } from './meta.js';
import { notFound, qualifiedResource } from './object-errors.js';
import type { DeleteOptions, ObjectStorage } from './object-storage.js';
import { decodeProtobufObject, PROTOBUF_CONTENT_TYPE } from './protobuf.js';
import type { ResourceRequest } from './request-info.js';
import { awaitRevision, parseResourceVersion } from './resource-version.js';
import { type IncludeObject, parseIncludeObject, type TableVersion, toTable, wantsTable } from './table.js';
import { serveWatch, type WatchContext } from './watch.js';
import { type EventEncoder, jsonEncoder } from './watchcache/event.js';
import type { WatchSink } from './watchcache/watcher.js';
import { parseYamlBody } from './yaml-body.js';

/** Everything a resource request needs from the server. */
export interface ResourceContext extends ListContext, WatchContext {
  objects: ObjectStorage;
  kinds: ResourceKind[];
  /** Runs the namespace controller's cleanup for a terminating namespace. */
  finalizeNamespace(name: string): void;
  /** Counts bytes of non-watch answers. */
  countBytes(bytes: number): void;
}

type Query = URLSearchParams;

const KNOWN_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

/** Serves one request for a resource URL. */
export async function handleResource(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequest,
  query: Query,
): Promise<void> {
  const method = req.method ?? 'GET';
  const { kind, name, subresource } = info;
  const namespace = kind.namespaced ? info.namespace : undefined;
  // `watch=1` means nothing to a subresource: its GET is a plain read, as in kube-apiserver.
  const isWatch = info.watchPath || (subresource === undefined && isTrue(query.get('watch')));
  // The legacy /watch/ paths and a namespaced kind's all-namespaces path (`/api/v1/pods`) serve
  // only list and watch: kube-apiserver registers no write there, so a cross-namespace
  // DELETE cannot wipe every namespace's objects.
  if ((info.watchPath || (kind.namespaced && namespace === undefined)) && method !== 'GET') {
    throw methodNotAllowed(method, kind);
  }
  switch (method) {
    case 'GET':
      if (isWatch) return watch(ctx, req, res, info, query);
      if (name === undefined) return list(ctx, req, res, kind, namespace, query);
      if (subresource === 'scale')
        return reply(ctx, res, 200, toScale(await getObject(ctx, kind, namespace, name, query)));
      return replyObject(ctx, req, res, 200, kind, await getObject(ctx, kind, namespace, name, query), query);
    case 'POST': {
      if (name !== undefined) throw methodNotAllowed(method, kind);
      const body = await readObject(req);
      checkFields(kind, body, query);
      const created = await ctx.objects.create(kind, namespace, body, { dryRun: dryRun(query) });
      return replyObject(ctx, req, res, 201, kind, created, query);
    }
    case 'PUT': {
      if (name === undefined) throw methodNotAllowed(method, kind);
      const body = await readObject(req);
      if (subresource === 'scale')
        return reply(ctx, res, 200, await updateScale(ctx, kind, namespace, name, () => body, query));
      checkFields(kind, body, query);
      const scope = subresource === 'status' ? 'status' : 'main';
      const updated = await ctx.objects.update(kind, namespace, name, body, scope, { dryRun: dryRun(query) });
      return replyObject(ctx, req, res, 200, kind, updated, query);
    }
    case 'PATCH': {
      if (name === undefined) throw methodNotAllowed(method, kind);
      return patch(ctx, req, res, kind, namespace, name, subresource, query);
    }
    case 'DELETE': {
      const opts = await deleteOptions(req, query);
      if (name === undefined) return deleteCollection(ctx, req, res, kind, namespace, query, opts);
      if (subresource !== undefined) throw methodNotAllowed(method, kind);
      const deleted = await ctx.objects.delete(kind, namespace, name, opts);
      if (kind.kind === 'Namespace' && !opts.dryRun) ctx.finalizeNamespace(name);
      return replyObject(ctx, req, res, 200, kind, deleted, query);
    }
    default:
      throw methodNotAllowed(method, kind);
  }
}

function methodNotAllowed(method: string, kind: ResourceKind): StatusError {
  return StatusError.of(
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource (${method.toLowerCase()} ${qualifiedResource(kind)})`,
  );
}

function isTrue(value: string | null): boolean {
  return value === 'true' || value === '1';
}

function dryRun(query: Query): boolean {
  const values = query.getAll('dryRun');
  for (const v of values) {
    if (v !== 'All')
      throw StatusError.of('BadRequest', `dryRun: Unsupported value: "${v}": supported values: "All"`);
  }
  return values.length > 0;
}

/** Reads a create/update body: JSON, YAML, or the protobuf kubectl 1.32+ sends for `create`. */
async function readObject(req: IncomingMessage): Promise<KubeObject> {
  const body = await readBody(req, MAX_BODY_BYTES);
  const type = mediaType(req.headers['content-type']);
  let value: unknown;
  if (type === PROTOBUF_CONTENT_TYPE) value = await decodeProtobufObject(body);
  else if (type === 'application/yaml' || type === 'application/apply-patch+yaml')
    value = await parseYamlBody(body);
  else if (type === '' || type === 'application/json' || type === 'text/plain') value = parseJsonBody(body);
  else {
    throw StatusError.of(
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw StatusError.of('BadRequest', 'the request body must be a single object');
  }
  checkNestingDepth(value);
  return value as KubeObject;
}

/**
 * `fieldValidation`: Strict rejects unknown fields (400), Warn reports them in
 * a Warning header (not implemented beyond top level and metadata), Ignore
 * drops them silently. Only the top level and metadata are checked: the
 * server has no full schemas.
 */
function checkFields(kind: ResourceKind, obj: KubeObject, query: Query): void {
  const mode = query.get('fieldValidation') ?? 'Warn';
  if (mode !== 'Strict' && mode !== 'Warn' && mode !== 'Ignore') {
    throw StatusError.of(
      'BadRequest',
      `fieldValidation: Unsupported value: "${mode}": supported values: "Ignore", "Strict", "Warn"`,
    );
  }
  if (mode !== 'Strict') return;
  const unknown: string[] = [];
  for (const key of Object.keys(obj)) {
    if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata' && !kind.topLevelFields.includes(key)) {
      unknown.push(key);
    }
  }
  if (obj.metadata && typeof obj.metadata === 'object') {
    for (const key of Object.keys(obj.metadata))
      if (!KNOWN_META_FIELDS.has(key)) unknown.push(`metadata.${key}`);
  }
  if (unknown.length > 0) {
    throw StatusError.of(
      'BadRequest',
      `strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`,
    );
  }
}

function reply(ctx: ResourceContext, res: ServerResponse, code: number, body: unknown): void {
  ctx.countBytes(sendJson(res, code, body));
}

function tableRequest(
  req: IncomingMessage,
  query: Query,
): { version: TableVersion; include: IncludeObject } | undefined {
  const version = wantsTable(req.headers.accept);
  if (!version) return undefined;
  return { version, include: parseIncludeObject(query.get('includeObject')) };
}

function replyObject(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  kind: ResourceKind,
  obj: KubeObject,
  query: Query,
): void {
  const table = tableRequest(req, query);
  if (table) {
    reply(
      ctx,
      res,
      code,
      toTable(kind, [obj], { now: ctx.clock.now(), version: table.version, includeObject: table.include }),
    );
    return;
  }
  reply(ctx, res, code, obj);
}

async function list(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  query: Query,
): Promise<void> {
  const filter = buildFilter(
    kind,
    namespace,
    query.get('labelSelector') ?? undefined,
    query.get('fieldSelector') ?? undefined,
  );
  const table = tableRequest(req, query);
  const result = await serveList(ctx, kind, filter, {
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
    limit: query.get('limit') ?? undefined,
    continue: query.get('continue') ?? undefined,
  });
  if (table) {
    const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
      resourceVersion: String(result.resourceVersion),
    };
    if (result.continue) listMeta.continue = result.continue;
    if (result.remainingItemCount !== undefined) listMeta.remainingItemCount = result.remainingItemCount;
    reply(
      ctx,
      res,
      200,
      toTable(
        kind,
        result.items.map((i) => i.object),
        { now: ctx.clock.now(), listMeta, version: table.version, includeObject: table.include },
      ),
    );
    return;
  }
  reply(ctx, res, 200, renderList(kind, apiVersionOf(kind), result));
}

/** A watch line encoder producing one-row Tables, shared by every Table watcher of the same shape. */
function tableEncoder(
  ctx: ResourceContext,
  kind: ResourceKind,
  version: TableVersion,
  include: IncludeObject,
): EventEncoder {
  return {
    id: `table-${version}-${include}`,
    encode(type: WatchEventType, object: KubeObject): Buffer {
      // Watch Tables carry no column definitions: kubectl reuses the list's header.
      const table = toTable(kind, [object], {
        now: ctx.clock.now(),
        version,
        includeObject: include,
        includeColumnDefinitions: false,
      });
      return Buffer.from(`{"type":"${type}","object":${JSON.stringify(table)}}\n`);
    },
  };
}

async function watch(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequest,
  query: Query,
): Promise<void> {
  const { kind } = info;
  const namespace = kind.namespaced ? info.namespace : undefined;
  let fieldSelector = query.get('fieldSelector') ?? undefined;
  if (info.name !== undefined) {
    // GET .../pods/NAME?watch=1 (and /watch/.../NAME) watch one object by name.
    const byName = `metadata.name=${info.name}`;
    fieldSelector = fieldSelector ? `${fieldSelector},${byName}` : byName;
  }
  const filter = buildFilter(kind, namespace, query.get('labelSelector') ?? undefined, fieldSelector);
  const table = tableRequest(req, query);
  const encoder = table ? tableEncoder(ctx, kind, table.version, table.include) : jsonEncoder;
  let clientGone = false;
  res.on('close', () => {
    clientGone = true;
  });
  const watcher = await serveWatch(
    ctx,
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
    () => openWatchSink(res),
  );
  if (!watcher) return;
  if (clientGone) watcher.close('client');
  else res.on('close', () => watcher.close('client'));
}

function openWatchSink(res: ServerResponse): WatchSink {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  return {
    write: (chunk) => {
      if (!res.destroyed && !res.writableEnded) res.write(chunk);
    },
    get bufferedBytes() {
      return res.writableLength;
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
    destroy: () => {
      res.destroy();
      res.socket?.destroy();
    },
  };
}

async function patch(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  subresource: string | undefined,
  query: Query,
): Promise<void> {
  const raw = await readBody(req, MAX_BODY_BYTES);
  const contentType = mediaType(req.headers['content-type']);
  const isDryRun = dryRun(query);
  if (contentType === 'application/apply-patch+yaml') {
    return serverSideApply(ctx, req, res, kind, namespace, name, raw, query, isDryRun);
  }
  const body = parseJsonBody(raw);
  if (subresource === 'scale') {
    const scale = await updateScale(
      ctx,
      kind,
      namespace,
      name,
      (current) => applyPatch(current, body, contentType, 'Scale') as KubeObject,
      query,
    );
    return reply(ctx, res, 200, scale);
  }
  const scope = subresource === 'status' ? 'status' : 'main';
  const updated = await ctx.objects.guaranteedUpdate(
    kind,
    namespace,
    name,
    scope,
    { dryRun: isDryRun },
    (current) => {
      const patched = applyPatch(current, body, contentType, kind.kind);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
        throw StatusError.of('BadRequest', 'the patch must produce an object');
      }
      // A JSON patch can nest a deep value under a deep path: the result is bounded too.
      checkNestingDepth(patched);
      const obj = patched as KubeObject;
      checkFields(kind, obj, query);
      // A patch that carries a resourceVersion is a precondition, as kube-apiserver treats it.
      const wanted = (body as KubeObject)?.metadata?.resourceVersion;
      if (typeof wanted === 'string' && wanted !== current.metadata?.resourceVersion) {
        throw StatusError.of(
          'Conflict',
          `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      return obj;
    },
  );
  replyObject(ctx, req, res, 200, kind, updated, query);
}

/**
 * Server-side apply, as far as kubectl's `apply --server-side` needs: the same
 * request creates (201) or updates (200). Managed fields are not tracked: the
 * applied configuration is merged onto the live object strategically.
 */
async function serverSideApply(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  raw: Buffer,
  query: Query,
  isDryRun: boolean,
): Promise<void> {
  if (!query.get('fieldManager')) {
    throw StatusError.of('BadRequest', 'PATCH, fieldManager: Required value: is required for apply patch');
  }
  const applied = (await parseYamlBody(raw)) as KubeObject;
  if (typeof applied !== 'object' || applied === null || Array.isArray(applied)) {
    throw StatusError.of('BadRequest', 'the apply configuration must be an object');
  }
  const meta = metaOf(applied);
  if (meta.name !== undefined && meta.name !== name) {
    throw StatusError.of(
      'BadRequest',
      `the name of the object (${meta.name}) does not match the name on the URL (${name})`,
    );
  }
  checkFields(kind, applied, query);
  try {
    const updated = await ctx.objects.guaranteedUpdate(
      kind,
      namespace,
      name,
      'main',
      { dryRun: isDryRun },
      (current) => {
        const merged = applyStrategicMergePatch(current, applied, kind.kind) as KubeObject;
        return jsonEqual(merged, current) ? current : merged;
      },
    );
    replyObject(ctx, req, res, 200, kind, updated, query);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404 && err.status.details?.name === name)) throw err;
    meta.name = name;
    const created = await ctx.objects.create(kind, namespace, applied, { dryRun: isDryRun });
    replyObject(ctx, req, res, 201, kind, created, query);
  }
}

/** The autoscaling/v1 Scale view of a scalable object. */
function toScale(obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as {
    replicas?: number;
    selector?: Parameters<typeof labelSelectorFromObject>[0];
  };
  const status = (obj.status ?? {}) as { replicas?: number };
  let selector = '';
  try {
    selector = formatLabelSelector(labelSelectorFromObject(spec.selector, { nilSelectsNothing: false }));
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
  }
  const m = obj.metadata ?? {};
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector },
  };
}

async function updateScale(
  ctx: ResourceContext,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  change: (current: KubeObject) => KubeObject,
  query: Query,
): Promise<KubeObject> {
  if (!kind.scale) throw notFound(kind, name);
  const updated = await ctx.objects.guaranteedUpdate(
    kind,
    namespace,
    name,
    'main',
    { dryRun: dryRun(query) },
    (current) => {
      const before = toScale(current);
      const after = change(structuredClone(before));
      const wanted = after.metadata?.resourceVersion;
      if (typeof wanted === 'string' && wanted !== '' && wanted !== current.metadata?.resourceVersion) {
        throw StatusError.of(
          'Conflict',
          `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      const replicas = (after.spec as { replicas?: unknown } | undefined)?.replicas;
      if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
        throw StatusError.of(
          'Invalid',
          `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
        );
      }
      return { ...current, spec: { ...(current.spec as object), replicas } };
    },
  );
  return toScale(updated);
}

async function deleteOptions(req: IncomingMessage, query: Query): Promise<DeleteOptions> {
  const raw = await readBody(req, MAX_BODY_BYTES);
  let body: {
    propagationPolicy?: unknown;
    preconditions?: unknown;
    dryRun?: unknown;
    orphanDependents?: unknown;
  } = {};
  if (raw.length > 0 && raw.toString('utf8').trim() !== '') {
    const parsed = parseJsonBody(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw StatusError.of('BadRequest', 'DeleteOptions must be an object');
    }
    body = parsed as typeof body;
  }
  const policy =
    query.get('propagationPolicy') ??
    body.propagationPolicy ??
    (body.orphanDependents === true ? 'Orphan' : undefined);
  if (policy !== undefined && policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
    throw StatusError.of(
      'BadRequest',
      `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Background", "Foreground", "Orphan"`,
    );
  }
  const dry = dryRun(query) || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  const pre = body.preconditions as DeleteOptions['preconditions'] | undefined;
  return { propagationPolicy: policy, preconditions: pre ?? undefined, dryRun: dry };
}

async function deleteCollection(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  query: Query,
  opts: DeleteOptions,
): Promise<void> {
  const filter = buildFilter(
    kind,
    namespace,
    query.get('labelSelector') ?? undefined,
    query.get('fieldSelector') ?? undefined,
  );
  const result = await serveList(ctx, kind, filter, {});
  const deleted: KubeObject[] = [];
  for (const item of result.items) {
    const m = item.object.metadata ?? {};
    try {
      deleted.push(await ctx.objects.delete(kind, m.namespace, m.name ?? '', opts));
      if (kind.kind === 'Namespace' && !opts.dryRun) ctx.finalizeNamespace(m.name ?? '');
    } catch (err) {
      // Deleted meanwhile by someone else: that is what was asked.
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  const body = {
    kind: `${kind.kind}List`,
    apiVersion: apiVersionOf(kind),
    metadata: { resourceVersion: String(ctx.cacher.latestRevision) },
    items: deleted,
  };
  replyObjectList(ctx, req, res, body);
}

function replyObjectList(
  ctx: ResourceContext,
  _req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): void {
  reply(ctx, res, 200, body);
}

/**
 * A GET of one object. Its resourceVersion, unset, "0" or N, is answered with
 * the newest object, which is never older than N; an N the server has not
 * reached yet is waited for and then answered with 504, as kube-apiserver's
 * cache does; a malformed one is a 400.
 */
async function getObject(
  ctx: ResourceContext,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  query: Query,
): Promise<KubeObject> {
  const rv = parseResourceVersion(query.get('resourceVersion') ?? undefined);
  if (rv !== undefined) await awaitRevision(ctx.cacher, ctx.stats, rv, ctx.tooLargeWaitMs);
  return ctx.objects.get(kind, namespace, name);
}
