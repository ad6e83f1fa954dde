/**
 * Who sends a request, as k8s.io/apiserver's `WithAuthentication` (endpoints/filters/
 * authentication.go) decides it: the user goes on the request for what comes later (admission's
 * userInfo), and a request without a valid credential is answered 401 before anything else is
 * read, except on the paths anyone may read.
 */
import { failureStatus, StatusError } from '../../protocol/status.js';
import type { Filter } from './api-request.js';
import type { Authenticator } from './auth.js';

/**
 * Paths anyone may read: kube-apiserver's `system:public-info-viewer` role
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go) grants
 * unauthenticated users exactly the health roots and /version; the per-check
 * paths (`/livez/ping`) need credentials.
 */
const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

/** Authenticates each request with `authenticator`; without one (`insecureNoAuth`), lets all in. */
export function withAuthentication(authenticator: Authenticator | undefined): Filter {
  return async (request, next) => {
    if (authenticator && !PUBLIC_PATHS.has(request.path)) {
      request.user = await authenticator.authenticateRequest(request.req);
      if (!request.user) throw new StatusError(failureStatus('Unauthorized', 'Unauthorized'));
    }
    return next(request);
  };
}
