/**
 * The verbs on a resource URL: get, list, watch, create, update, patch,
 * delete and deletecollection, dispatched by method and path. The jobs they
 * share live beside: write-input.ts (body, dryRun, field validation),
 * server-side-apply.ts, scale.ts, delete-options.ts, table-response.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../protocol/events.js';
import { failureStatus, type Status, StatusError } from '../../protocol/status.js';
import { jsonEncoder } from '../cache/event.js';
import { checkNestingDepth, MAX_BODY_BYTES, mediaType, parseJsonBody, readBody } from '../http/http-io.js';
import { queryFlag } from '../http/query-flag.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { resourceVerbs } from '../openapi/discovery.js';
import { qualifiedResource } from '../registry/object-errors.js';
import type { DeleteOptions } from '../registry/object-storage.js';
import { patchStrictErrors } from '../schema/patch-strict-errors.js';
import type { TypedWrite } from '../schema/write-rules.js';
import { answerProtobufIfChosen, answerYamlIfChosen } from './answer-form.js';
import { deleteOptions } from './delete-options.js';
// Installs the field manager into storage's write path.
import './field-ownership.js';
import { sendPlainNotFound } from '../http/non-resource-routes.js';
import { type ResourceRequest, routeMethodNotAllowed, routeNotFound } from '../http/request-info.js';
import { WarningRecorder } from '../http/warnings.js';
import { filterFromQuery } from './filter.js';
import { renderList, serveList } from './list.js';
import {
  negotiateRead,
  negotiateWrite,
  partialListAnswer,
  partialObjectAnswer,
  partialWatch,
  type ReadOutput,
} from './partial-metadata.js';
import { bindPod, servesBinding } from './pod-binding.js';
import { type Query, type ResourceContext, reply, replyObject } from './resource-context.js';
import { awaitRevision, parseResourceVersion } from './resource-version.js';
import { toScale, updateScale } from './scale.js';
import { toTable } from './table.js';
import { tableEncoder, tableRequest } from './table-response.js';
import { serveWatch } from './watch.js';
import { deleteOptionFields, writeAdmission } from './write-admission.js';
import {
  checkBodyNamed,
  dryRun,
  loadWriteRules,
  type OptionError,
  readObject,
  repeatedKeysOf,
  typedWrite,
  validateWriteOptions,
  writeManager,
} from './write-input.js';

export type { ResourceContext } from './resource-context.js';

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
  // A version whose objects need a conversion webhook: kube-apiserver answers the webhook's
  // failure as an internal error (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go).
  if (kind.custom?.conversionError) {
    throw StatusError.of('InternalError', `Internal error occurred: ${kind.custom.conversionError}`);
  }
  // customresource_handler.go `ServeHTTP`: every request to a deprecated version of a custom
  // resource warns, with the version's own words or `<group>/<version> <Kind> is deprecated`.
  if (kind.custom?.deprecated) {
    new WarningRecorder(res).add(
      kind.custom.deprecationWarning ?? `${kind.group}/${kind.version} ${kind.kind} is deprecated`,
    );
  }
  const namespace = kind.namespaced ? info.namespace : undefined;
  // A namespaced kind's cluster-wide path has a route for the collection only
  // (`/api/v1/configmaps`: list and watch); a name under it matches no route.
  if (kind.namespaced && namespace === undefined && (name !== undefined || subresource !== undefined))
    throw routeNotFound();
  // `watch=1` turns only a collection's GET into a watch: RequestInfo reads it only when the path
  // names no object (requestinfo.go `NewRequestInfo`), and the object's GET route answers the
  // object (kubernetes/kubernetes#89755). The legacy /watch/ paths watch one object by name.
  const isWatch =
    info.watchPath ||
    (subresource === undefined && name === undefined && queryFlag(query.get('watch')) === true);
  // The legacy /watch/ paths and a namespaced kind's all-namespaces path (`/api/v1/pods`) serve
  // only list and watch: kube-apiserver registers no write there, so a cross-namespace
  // DELETE cannot wipe every namespace's objects.
  if ((info.watchPath || (kind.namespaced && namespace === undefined)) && method !== 'GET') {
    // apiextensions-apiserver's crdHandler has no such route either, and hands the request to the
    // mux's NotFound handler: Go's text 404 (customresource_handler.go `ServeHTTP`).
    if (kind.custom && !info.watchPath) {
      sendPlainNotFound(res);
      return;
    }
    throw routeMethodNotAllowed();
  }
  // FinalizeREST (pkg/registry/core/namespace/storage/storage.go) is an Updater
  // only: no get, hence no patch either.
  if (subresource === 'finalize' && method !== 'PUT') throw routeMethodNotAllowed();
  // BindingREST is a NamedCreater only: POST, nothing else.
  if (subresource === 'binding') {
    if (method !== 'POST' || name === undefined || !servesBinding(kind)) throw routeMethodNotAllowed();
    return bindPod(ctx, req, res, kind, namespace, name, query);
  }
  // A built-in kind's PATCH route consumes the patch types only: go-restful refuses any other
  // Content-Type before the route runs, so before the Accept header is looked at (its router's
  // `detectRoute` checks consumes, then produces) with its own 415 (`NewGenericServerResponse`).
  if (
    method === 'PATCH' &&
    !kind.custom &&
    !BUILTIN_PATCH_TYPES.includes(mediaType(req.headers['content-type']))
  ) {
    throw new StatusError({
      ...failureStatus('UnsupportedMediaType', '415: Unsupported Media Type'),
      details: {},
    });
  }
  // Every write negotiates its answer's form first (create.go and the others): a 406 writes nothing.
  if (method !== 'GET') negotiateWrite(req, kind);
  // A plain answer negotiated as YAML is written by the YAML serializer, errors included
  // (handlers/responsewriters/writers.go `WriteObjectNegotiated`, `ErrorNegotiated`).
  if (!isWatch) await answerYamlIfChosen(req, res, kind);
  const protobuf = await answerProtobufIfChosen(req, res, kind);
  switch (method) {
    case 'GET': {
      // The answer's form is negotiated before anything is read (handlers/get.go, `ListResource`).
      const output = negotiateRead(req.headers.accept, kind);
      if (isWatch) return watch(ctx, req, res, info, query, output, protobuf);
      if (name === undefined) return list(ctx, req, res, kind, namespace, query, output);
      if (subresource === 'scale')
        return reply(ctx, res, 200, toScale(kind, await getObject(ctx, kind, namespace, name, query)));
      const object = await getObject(ctx, kind, namespace, name, query);
      if (output && output.as !== 'Table')
        return reply(ctx, res, 200, partialObjectAnswer(kind, object, output));
      return replyObject(ctx, req, res, 200, kind, object, query);
    }
    case 'POST': {
      if (name !== undefined) throw routeMethodNotAllowed();
      // customresource_handler.go `serveResource`: a terminating definition's objects may be
      // read, changed and deleted, but no new one created.
      if (kind.custom?.state.terminating) {
        throw StatusError.of(
          'MethodNotAllowed',
          'create not allowed while custom resource definition is terminating',
        );
      }
      const body = await readObject(req, repeatedKeysOf(kind), goKindOf(kind));
      const rules = await loadWriteRules();
      rules.decodeBody(typedWrite(ctx, res, rules.decodeTargetOf(kind), query, 'CreateOptions'), body);
      const isDryRun = dryRun(query);
      const created = await ctx.objects.create(kind, namespace, body, {
        dryRun: isDryRun,
        owned: true,
        fieldManager: writeManager(req, query),
        admission: writeAdmission(ctx, req, res, query, kind, { namespace, dryRun: isDryRun }),
      });
      return replyObject(ctx, req, res, 201, kind, created, query);
    }
    case 'PUT': {
      if (name === undefined) throw routeMethodNotAllowed();
      // autoscaling/v1 Scale is a Go struct whatever the kind.
      const body = await readObject(
        req,
        subresource === 'scale' ? 'merge' : repeatedKeysOf(kind),
        subresource === 'scale' ? 'Scale' : goKindOf(kind),
      );
      const rules = await loadWriteRules();
      if (subresource === 'scale') {
        // A kind without /scale answers 404 before its body is looked at.
        if (kind.scale)
          rules.decodeBody(typedWrite(ctx, res, rules.SCALE_TARGET, query, 'UpdateOptions'), body);
        return reply(
          ctx,
          res,
          200,
          await updateScale(ctx, req, res, kind, namespace, name, () => body, query),
        );
      }
      rules.decodeBody(typedWrite(ctx, res, rules.decodeTargetOf(kind), query, 'UpdateOptions'), body);
      checkBodyNamed(body, name);
      const scope = subresource === 'status' || subresource === 'finalize' ? subresource : 'main';
      const isDryRun = dryRun(query);
      const { object: updated, created } = await ctx.objects.update(kind, namespace, name, body, scope, {
        dryRun: isDryRun,
        owned: true,
        fieldManager: writeManager(req, query),
        admission: writeAdmission(ctx, req, res, query, kind, {
          namespace,
          name,
          subresource,
          dryRun: isDryRun,
        }),
      });
      return replyObject(ctx, req, res, created ? 201 : 200, kind, updated, query);
    }
    case 'PATCH': {
      if (name === undefined) throw routeMethodNotAllowed();
      return patch(ctx, req, res, kind, namespace, name, subresource, query);
    }
    case 'DELETE': {
      if (name === undefined && !resourceVerbs(kind).includes('deletecollection'))
        throw routeMethodNotAllowed();
      const opts = await deleteOptions(req, query);
      opts.admission = writeAdmission(ctx, req, res, query, kind, {
        namespace,
        name,
        dryRun: opts.dryRun === true,
        options: deleteOptionFields(opts),
      });
      if (name === undefined) return deleteCollection(ctx, req, res, kind, namespace, query, opts);
      if (subresource !== undefined) throw routeMethodNotAllowed();
      const deleted = await ctx.objects.delete(kind, namespace, name, opts);
      if (kind.kind === 'Namespace' && !opts.dryRun) ctx.finalizeNamespace(name);
      if (answersDeletedObject(kind, deleted)) return replyObject(ctx, req, res, 200, kind, deleted, query);
      return reply(ctx, res, 200, deletedStatus(kind, deleted));
    }
    default:
      throw routeMethodNotAllowed();
  }
}

/** The Go type a built-in kind's body decodes into; custom resources have no protobuf form. */
function goKindOf(kind: ResourceKind): string | undefined {
  return kind.custom ? undefined : kind.kind;
}

// Each loaded once: a dynamic import() per request costs a module-map lookup and its promise
// (under a loader such as tsx's, a round trip to the loader's thread: ~150 µs a patch).
let applyModule: Promise<typeof import('./server-side-apply.js')> | undefined;
let patchModule: Promise<typeof import('../../protocol/patch/index.js')> | undefined;

const CUSTOM_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
];

/**
 * The patch types a built-in kind's PATCH route consumes (endpoints/installer.go,
 * `supportedTypes`; CBOR apply is behind a feature gate that is off by default).
 */
const BUILTIN_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

async function list(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  query: Query,
  output: ReadOutput,
): Promise<void> {
  const filter = filterFromQuery(kind, namespace, query);
  const table = tableRequest(req, query);
  const result = await serveList(ctx, kind, filter, {
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
  if (output) return reply(ctx, res, 200, partialListAnswer(kind, result, output));
  reply(ctx, res, 200, renderList(kind, apiVersionOf(kind), result));
}

async function watch(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequest,
  query: Query,
  output: ReadOutput,
  protobuf: typeof import('./protobuf-answer.js') | undefined,
): Promise<void> {
  const { kind } = info;
  const namespace = kind.namespaced ? info.namespace : undefined;
  let fieldSelector = query.get('fieldSelector') ?? undefined;
  if (info.name !== undefined) {
    // GET .../pods/NAME?watch=1 (and /watch/.../NAME) watch one object by name.
    const byName = `metadata.name=${info.name}`;
    fieldSelector = fieldSelector ? `${fieldSelector},${byName}` : byName;
  }
  const filter = filterFromQuery(kind, namespace, query, fieldSelector);
  const table = tableRequest(req, query);
  const partial = partialWatch(output);
  const json =
    partial?.encoder ?? (table ? tableEncoder(ctx.clock, kind, table.version, table.include) : jsonEncoder);
  const encoder = protobuf ? await protobuf.protobufWatchEncoder(json) : json;
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
    () => ctx.watchWriter.open(res, protobuf ? protobuf.PROTOBUF_WATCH_CONTENT_TYPE : undefined),
    partial?.bookmarkType,
  );
  if (!watcher) return;
  if (clientGone) watcher.close('client');
  else res.on('close', () => watcher.close('client'));
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
  // Custom resources have no Go struct to read patch strategies from: the custom resource
  // handler (apiextensions-apiserver customresource_handler.go, `supportedTypes`) accepts JSON
  // patches, merge patches and apply, and answers anything else with the negotiation's 415.
  if (kind.custom && !CUSTOM_PATCH_TYPES.includes(contentType)) {
    throw StatusError.of(
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${CUSTOM_PATCH_TYPES.join(', ')}`,
    );
  }
  // patch.go `PatchResource` refuses bad options before reading the object (meta/v1 validation
  // `ValidatePatchOptions`): `force` belongs to apply alone, which requires a fieldManager; the
  // options every write has come after.
  const isApply = contentType === 'application/apply-patch+yaml';
  const patchErrors: OptionError[] = [];
  if (!isApply && query.get('force') !== null) {
    patchErrors.push({
      field: 'force',
      reason: 'FieldValueForbidden',
      body: 'Forbidden: may not be specified for non-apply patch',
    });
  }
  if (isApply && !query.get('fieldManager')) {
    patchErrors.push({
      field: 'fieldManager',
      reason: 'FieldValueRequired',
      body: 'Required value: is required for apply patch',
    });
  }
  validateWriteOptions(query, 'PatchOptions', patchErrors);
  const isDryRun = dryRun(query, 'PatchOptions');
  // The patch code is loaded on the first PATCH: a server that is only read
  // or watched (most programs importing it) never pays for it.
  if (contentType === 'application/apply-patch+yaml') {
    applyModule ??= import('./server-side-apply.js');
    const { serverSideApply } = await applyModule;
    return serverSideApply(ctx, req, res, kind, namespace, name, subresource, raw, query, isDryRun);
  }
  const body = parseJsonBody(raw);
  const patchStrictErrs = patchStrictErrors(raw.toString('utf8'), contentType);
  patchModule ??= import('../../protocol/patch/index.js');
  const { applyPatch } = await patchModule;
  const rules = await loadWriteRules();
  // The patched object is decoded into the Go type as a JSON or merge patch's result is, or
  // converted from a map as a strategic merge patch's is: each has its own words (write-rules.ts).
  const strategic = contentType === 'application/strategic-merge-patch+json';
  const checkPatched = (write: TypedWrite, patched: KubeObject) =>
    strategic
      ? rules.convertStrategicPatched(write, patched, body, patchStrictErrs)
      : rules.decodeJsonPatched(write, patched, patchStrictErrs);
  if (subresource === 'scale') {
    const write = typedWrite(ctx, res, rules.SCALE_TARGET, query, 'PatchOptions');
    const scale = await updateScale(
      ctx,
      req,
      res,
      kind,
      namespace,
      name,
      (current) => {
        const patched = applyPatch(current, body, contentType, 'Scale') as KubeObject;
        checkPatched(write, patched);
        return patched;
      },
      query,
    );
    return reply(ctx, res, 200, scale);
  }
  const write = typedWrite(ctx, res, rules.decodeTargetOf(kind), query, 'PatchOptions');
  const scope = subresource === 'status' ? 'status' : 'main';
  const updated = await ctx.objects.guaranteedUpdate(
    kind,
    namespace,
    name,
    scope,
    {
      dryRun: isDryRun,
      fieldManager: writeManager(req, query),
      admission: writeAdmission(ctx, req, res, query, kind, {
        namespace,
        name,
        subresource,
        dryRun: isDryRun,
      }),
    },
    (current) => {
      const patched = applyPatch(current, body, contentType, kind.kind);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
        throw StatusError.of('BadRequest', 'the patch must produce an object');
      }
      // A JSON patch can nest a deep value under a deep path: the result is bounded too.
      checkNestingDepth(patched);
      const obj = patched as KubeObject;
      checkPatched(write, obj);
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
 * The kinds whose REST storage answers a delete with the object deleted (genericregistry.Store
 * `ReturnDeletedObject`: pkg/registry/core/{pod,namespace,service,persistentvolume,
 * persistentvolumeclaim}/storage/storage.go); every other kind is answered with a Status.
 */
const RETURNS_DELETED_OBJECT = new Set([
  'Pod',
  'Namespace',
  'Service',
  'PersistentVolume',
  'PersistentVolumeClaim',
]);

/**
 * Whether a DELETE answers with the object: for the kinds above, and for any object the delete
 * only marked (finalizers hold it, or a Namespace turned Terminating), which the generic store's
 * `Delete` hands back as it now is instead of going on to `finalizeDelete`.
 */
function answersDeletedObject(kind: ResourceKind, deleted: KubeObject): boolean {
  if (!kind.custom && kind.group === '' && RETURNS_DELETED_OBJECT.has(kind.kind)) return true;
  const meta = deleted.metadata ?? {};
  return meta.deletionTimestamp !== undefined && (meta.finalizers?.length ?? 0) > 0;
}

/**
 * registry/store.go `finalizeDelete`: the Status of a deletion, naming the object with its
 * resource (Kind holds the resource's plural, as upstream says) and uid so a client can tell it
 * was removed, not left waiting for finalizers. A dry run is answered alike.
 */
function deletedStatus(kind: ResourceKind, deleted: KubeObject): Omit<Status, 'code'> {
  const meta = deleted.metadata ?? {};
  const details: NonNullable<Status['details']> = { name: meta.name };
  if (kind.group) details.group = kind.group;
  details.kind = kind.plural;
  if (meta.uid) details.uid = meta.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/**
 * registry/store.go `DeleteCollection`: the objects are listed, each is deleted, and the answer is
 * the list as it was read (its resourceVersion that of the read, its items as they were before
 * their deletion), whichever of them someone else deleted meanwhile included.
 */
async function deleteCollection(
  ctx: ResourceContext,
  _req: IncomingMessage,
  res: ServerResponse,
  kind: ResourceKind,
  namespace: string | undefined,
  query: Query,
  opts: DeleteOptions,
): Promise<void> {
  const filter = filterFromQuery(kind, namespace, query);
  const result = await serveList(ctx, kind, filter, {});
  for (const item of result.items) {
    const m = item.object.metadata ?? {};
    try {
      await ctx.objects.delete(kind, m.namespace, m.name ?? '', opts);
      if (kind.kind === 'Namespace' && !opts.dryRun) ctx.finalizeNamespace(m.name ?? '');
    } catch (err) {
      // Deleted meanwhile by someone else: that is what was asked.
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  reply(ctx, res, 200, renderList(kind, apiVersionOf(kind), result));
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
