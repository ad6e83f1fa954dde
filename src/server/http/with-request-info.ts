/**
 * What a request addresses, as k8s.io/apiserver's `WithRequestInfo` (endpoints/filters/
 * requestinfo.go) resolves it: a resource URL's kind, namespace, name and subresource go on the
 * request (request-info.ts `parseResourcePath`); any other path goes on without. Unlike kube's,
 * this step also routes: an unknown resource is the router's 404 here, so it runs after
 * authentication, where kube's go-restful router runs.
 */
import type { ResourceKind } from '../kinds/types.js';
import type { Filter } from './api-request.js';
import { answerNotFound, claimedByGoRestful, servedGroups } from './non-resource-routes.js';
import { isRouteNotFound, type KindLookup, parseResourcePath } from './request-info.js';

/** The kinds served now (kinds/ `KindTable`): custom ones come and go. */
export interface ServedKinds {
  all(): readonly ResourceKind[];
  findByPlural: KindLookup;
}

/** Resolves each request's resource among `kinds`; `countBytes` counts a text 404's bytes. */
export function withRequestInfo(kinds: ServedKinds, countBytes: (bytes: number) => void): Filter {
  const lookup: KindLookup = (g, v, p) => kinds.findByPlural(g, v, p);
  return (request, next) => {
    try {
      request.info = parseResourcePath(request.segments, lookup);
    } catch (err) {
      // A group nothing serves has no web service: the mux's text 404, not go-restful's Status.
      const { path, segments } = request;
      if (isRouteNotFound(err) && segments[0] === 'apis' && !claimedByGoRestful(path, servedGroups(kinds))) {
        countBytes(answerNotFound(request.res, path, servedGroups(kinds)));
        return Promise.resolve();
      }
      throw err;
    }
    return next(request);
  };
}
