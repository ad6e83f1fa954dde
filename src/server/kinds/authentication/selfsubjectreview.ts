/**
 * authentication.k8s.io/v1 `selfsubjectreviews` (create): who the request's sender is
 * (pkg/registry/authentication/selfsubjectreview/rest.go `Create`): a new object, whatever the
 * body held beside its type, with the creation time and the user's name, uid, groups and extra.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { StatusError } from '../../../protocol/status.js';
import { builtinKind } from '../builtin.js';
import type { ResourceKind } from '../types.js';
import { rfc3339Seconds, userInfoOf } from './user-info.js';

/** The SelfSubjectReviews' entry. */
export const selfSubjectReviewKind: ResourceKind = builtinKind(
  'authentication.k8s.io',
  'v1',
  'selfsubjectreviews',
  {
    virtual: {
      async create(request) {
        if (!request.user) throw StatusError.of('BadRequest', 'no user present on request');
        const review: KubeObject = {
          kind: 'SelfSubjectReview',
          apiVersion: 'authentication.k8s.io/v1',
          metadata: { creationTimestamp: rfc3339Seconds(request.now) },
          status: { userInfo: userInfoOf(request.user) },
        };
        return { code: 201, body: review };
      },
    },
  },
);
