/**
 * One resource request as the verbs see it, built once per request by resource-handler.ts and
 * handed to every handler whole. k8s.io/apiserver's `handlers.RequestScope`
 * (endpoints/handlers/rest.go) is the model: kube builds one per resource at install time and
 * passes the request beside it; here the request's own parts (its message and response, the
 * object it names, its query and user) travel in the same object, so no handler takes the
 * seven to ten positional parameters it took before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WatcherObserver } from '../cache/watcher.js';
import type { ResourceApiRequest } from '../http/api-request.js';
import type { UserInfo } from '../http/auth.js';
import type { ResourceKind } from '../kinds/types.js';
import type { Query, ResourceContext } from './resource-context.js';
import type { WatchStart } from './watch.js';

/** A request to a resource URL, and the server it reached. */
export interface RequestScope {
  /** The server's side: storage, caches, admission, settings. */
  readonly server: ResourceContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly kind: ResourceKind;
  /** The namespace of a namespaced kind's path; undefined for a cluster-scoped kind or all namespaces. */
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
  readonly query: Query;
  /** The legacy `/watch/` path form. */
  readonly watchPath: boolean;
  /** Who sent it (http/with-authentication.ts); undefined on a server without authentication. */
  readonly user: UserInfo | undefined;
  /** The live view's hook for this request's watch, when the view is on (watch.ts `observeWatch`). */
  readonly observeWatch: ((start: WatchStart) => WatcherObserver | undefined) | undefined;
}

/** The scope of a request that names one object. */
export interface NamedScope extends RequestScope {
  readonly name: string;
}

/** Whether `scope`'s path names an object. */
export function isNamed(scope: RequestScope): scope is NamedScope {
  return scope.name !== undefined;
}

/** The scope of `request` on `server`. */
export function newRequestScope(
  server: ResourceContext,
  request: ResourceApiRequest,
  observeWatch?: (start: WatchStart) => WatcherObserver | undefined,
): RequestScope {
  const { info } = request;
  const { kind } = info;
  return {
    server,
    req: request.req,
    res: request.res,
    method: request.method,
    kind,
    namespace: kind.namespaced ? info.namespace : undefined,
    name: info.name,
    subresource: info.subresource,
    query: request.query,
    watchPath: info.watchPath,
    user: request.user,
    observeWatch,
  };
}
