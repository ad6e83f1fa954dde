/**
 * authentication.k8s.io/v1 `tokenreviews` (create): the token run through the server's bearer
 * token authenticators for the review's audiences, or the API's (pkg/registry/authentication/
 * tokenreview/storage.go `Create`). watchmark's authenticators are its static tokens (the admin's
 * and `--token-file`'s, good for any audience, as kube's static token file) and the
 * service-account tokens it issues.
 */
import { StatusError } from '../../../protocol/status.js';
import { builtinKind } from '../builtin.js';
import type { ResourceKind } from '../types.js';
import { userInfoOf } from './user-info.js';

interface TokenReviewSpec {
  token?: string;
  audiences?: string[];
}

/** The TokenReviews' entry. */
export const tokenReviewKind: ResourceKind = builtinKind('authentication.k8s.io', 'v1', 'tokenreviews', {
  virtual: {
    managedFields: true,
    async create(request, review) {
      const spec = (review.spec ?? {}) as TokenReviewSpec;
      if (!spec.token)
        throw StatusError.of('BadRequest', 'token is required for TokenReview in authentication');
      const audiences =
        spec.audiences && spec.audiences.length > 0 ? spec.audiences : request.services.apiAudiences;
      const result = await request.services.authenticateToken(spec.token, audiences);
      const status: Record<string, unknown> = {};
      if (result.user) status.authenticated = true;
      status.user = result.user ? userInfoOf(result.user) : {};
      if (result.user) status.audiences = result.audiences ?? audiences;
      // The union of authenticators answers a token none took with `invalid bearer token`, and
      // one that failed with its error beside it (bearertoken.go `AuthenticateRequest`).
      if (!result.user)
        status.error = result.error ? `[invalid bearer token, ${result.error}]` : 'invalid bearer token';
      review.status = status;
      return { code: 201, body: review };
    },
  },
});
