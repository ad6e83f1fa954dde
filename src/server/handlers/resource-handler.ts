/**
 * The verbs on a resource URL, dispatched by method and path: the routes kube-apiserver's
 * installer registers (endpoints/installer.go) and refuses, the answer's form negotiated, then
 * one verb's handler with the request's scope (request-scope.ts): get.ts (get, list, watch),
 * create.ts, update.ts, patch.ts (and server-side-apply.ts), delete.ts, pod-binding.ts.
 */
import { failureStatus, StatusError } from '../../protocol/status.js';
import type { WatcherObserver } from '../cache/watcher.js';
import type { ResourceApiRequest } from '../http/api-request.js';
import { mediaType } from '../http/http-io.js';
import { sendPlainNotFound } from '../http/non-resource-routes.js';
import { queryFlag } from '../http/query-flag.js';
import { routeMethodNotAllowed, routeNotFound } from '../http/request-info.js';
import { WarningRecorder } from '../http/warnings.js';
import { builtinDeprecationWarning } from '../kinds/lifecycle.js';
import { resourceVerbs } from '../openapi/discovery.js';
import { answerProtobufIfChosen, answerYamlIfChosen } from './answer-form.js';
import { createResource } from './create.js';
import { deleteResource } from './delete.js';
import { getResource, listResource, watchResource } from './get.js';
import { negotiateRead, negotiateWrite } from './partial-metadata.js';
import { BUILTIN_PATCH_TYPES, patchResource } from './patch.js';
import { isNamed, newRequestScope, type RequestScope } from './request-scope.js';
import type { ResourceContext } from './resource-context.js';
import { subresourceHandler, verbOf } from './subresources.js';
import { updateResource } from './update.js';
import { serveVirtual } from './virtual.js';
import { virtualServices } from './virtual-services.js';
import type { WatchStart } from './watch.js';

export type { ResourceContext } from './resource-context.js';

/**
 * Serves one request for a resource URL on `server`; `observeWatch`, when the live view is on,
 * follows its watch.
 */
export async function handleResource(
  server: ResourceContext,
  request: ResourceApiRequest,
  observeWatch?: (start: WatchStart) => WatcherObserver | undefined,
): Promise<void> {
  const scope = newRequestScope(server, request, observeWatch);
  const { req, res, method, kind, namespace, name, subresource, query } = scope;
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
  // A namespaced kind's cluster-wide path has a route for the collection only
  // (`/api/v1/configmaps`: list and watch); a name under it matches no route.
  if (kind.namespaced && namespace === undefined && (name !== undefined || subresource !== undefined))
    throw routeNotFound();
  // `watch=1` turns only a collection's GET into a watch: RequestInfo reads it only when the path
  // names no object (requestinfo.go `NewRequestInfo`), and the object's GET route answers the
  // object (kubernetes/kubernetes#89755). The legacy /watch/ paths watch one object by name.
  const isWatch =
    scope.watchPath ||
    (subresource === undefined && name === undefined && queryFlag(query.get('watch')) === true);
  // The legacy /watch/ paths and a namespaced kind's all-namespaces path (`/api/v1/pods`) serve
  // only list and watch: kube-apiserver registers no write there, so a cross-namespace
  // DELETE cannot wipe every namespace's objects.
  if ((scope.watchPath || (kind.namespaced && namespace === undefined)) && method !== 'GET') {
    // apiextensions-apiserver's crdHandler has no such route either, and hands the request to the
    // mux's NotFound handler: Go's text 404 (customresource_handler.go `ServeHTTP`).
    if (kind.custom && !scope.watchPath) {
      sendPlainNotFound(res);
      return;
    }
    throw routeMethodNotAllowed();
  }
  // FinalizeREST (pkg/registry/core/namespace/storage/storage.go) is an Updater
  // only: no get, hence no patch either.
  if (subresource === 'finalize' && method !== 'PUT') throw routeMethodNotAllowed();
  // The subresources with a REST storage of their own (a pod's binding, eviction, log, ...).
  const special = subresource === undefined ? undefined : subresourceHandler(kind, subresource);
  if (special) return special(scope);
  if (kind.virtual) checkVirtualRoute(scope, isWatch);
  // A built-in resource serves the reference's verbs only: a review takes only create,
  // ComponentStatuses only get and list (go-restful's 405 for a route it does not have).
  if (subresource === undefined && !resourceVerbs(kind).includes(verbOf(method, isNamed(scope), isWatch)))
    throw routeMethodNotAllowed();
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
  // installer.go: a built-in type k8s.io/api marks deprecated warns on every route of its
  // resource (a POST to an object or a PUT or PATCH of the collection has none, and a 415 comes first).
  const deprecation = builtinDeprecationWarning(kind);
  const routed = isNamed(scope) ? method !== 'POST' : method !== 'PUT' && method !== 'PATCH';
  if (deprecation && routed) new WarningRecorder(res).add(deprecation);
  // Every write negotiates its answer's form first (create.go and the others): a 406 writes nothing.
  if (method !== 'GET') negotiateWrite(req, kind);
  // A plain answer negotiated as YAML is written by the YAML serializer, errors included
  // (handlers/responsewriters/writers.go `WriteObjectNegotiated`, `ErrorNegotiated`).
  if (!isWatch) await answerYamlIfChosen(req, res, kind);
  const protobuf = await answerProtobufIfChosen(req, res, kind);
  // A resource answered and never stored: its own create, get and list (virtual.ts).
  if (kind.virtual)
    return serveVirtual(scope, negotiateRead(req.headers.accept, kind), virtualServices(server));
  switch (method) {
    case 'GET': {
      // The answer's form is negotiated before anything is read (handlers/get.go, `ListResource`).
      const output = negotiateRead(req.headers.accept, kind);
      if (isWatch) return watchResource(scope, output, protobuf);
      if (!isNamed(scope)) return listResource(scope, output);
      return getResource(scope, output);
    }
    case 'POST':
      if (name !== undefined) throw routeMethodNotAllowed();
      return createResource(scope);
    case 'PUT':
      if (!isNamed(scope)) throw routeMethodNotAllowed();
      return updateResource(scope);
    case 'PATCH':
      if (!isNamed(scope)) throw routeMethodNotAllowed();
      return patchResource(scope);
    case 'DELETE':
      return deleteResource(scope);
    default:
      throw routeMethodNotAllowed();
  }
}

/**
 * The routes kube-apiserver's installer gives a storage answered and never stored: none naming an
 * object when it serves no verb on one (a review, `bindings`: the router's 404), and a watch of a
 * lister that cannot watch reaching the list handler, which refuses it after the deprecation
 * filter warned (handlers/get.go `ListResource`'s `watch is not supported`).
 */
function checkVirtualRoute(scope: RequestScope, isWatch: boolean): void {
  const { kind } = scope;
  const verbs = resourceVerbs(kind);
  if (scope.name !== undefined && !['get', 'update', 'patch', 'delete'].some((v) => verbs.includes(v)))
    throw routeNotFound();
  if (isWatch && scope.method === 'GET' && verbs.includes('list') && !verbs.includes('watch')) {
    if (kind.virtual?.deprecationWarning) new WarningRecorder(scope.res).add(kind.virtual.deprecationWarning);
    throw StatusError.of(
      'MethodNotAllowed',
      `watch is not supported on resources of kind ${JSON.stringify(kind.plural)}`,
      { kind: kind.plural },
    );
  }
}
