/**
 * The end of the handler chain (http/handler-chain.ts), as k8s.io/apiserver's director
 * (pkg/server/handler.go `director.ServeHTTP`) hands a request either to go-restful's resource
 * routes or to the non-go-restful mux: a resource request goes to the handlers, with the live
 * view following it when it is on; `/debug/watchmark/*` to watchmark's own actions; anything
 * else to the non-resource paths.
 */
import { type DebugContext, serveDebug } from './debug-routes.js';
import { handleResource, type ResourceContext } from './handlers/resource-handler.js';
import { type Handler, isResourceRequest } from './http/api-request.js';
import { type NonResourceContext, serveNonResource } from './non-resource.js';
import type { LiveUi } from './ui/live-ui.js';

const DEBUG_PREFIX = '/debug/watchmark/';

/** What the director hands requests to. */
export interface DirectorParts {
  resources: ResourceContext;
  nonResource: NonResourceContext;
  debug: DebugContext;
  /** The live view, when the server runs with `ui`. */
  liveView: LiveUi | undefined;
}

/** The chain's last handler. */
export function director({ resources, nonResource, debug, liveView }: DirectorParts): Handler {
  return (request) => {
    const { req, res, path } = request;
    if (isResourceRequest(request)) return handleResource(resources, request, liveView?.observe(request));
    if (path.startsWith(DEBUG_PREFIX)) return serveDebug(debug, req, path.slice(DEBUG_PREFIX.length), res);
    return serveNonResource(nonResource, req, res, path, request.query);
  };
}

/**
 * Whether `url` asks for a snapshot action: a restore waits for the requests under way, so the
 * request that asks for it must not be one of them (http/with-wait-group.ts).
 */
export function isSnapshotAction(url: string | undefined): boolean {
  return url?.startsWith(`${DEBUG_PREFIX}snapshots/`) === true;
}
