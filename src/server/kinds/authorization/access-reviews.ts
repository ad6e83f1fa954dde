/**
 * The access reviews of authorization.k8s.io/v1, answered by the server's authorizer and never
 * stored (pkg/registry/authorization/{subjectaccessreview,selfsubjectaccessreview,
 * localsubjectaccessreview,selfsubjectrulesreview}/rest.go).
 *
 * watchmark authorizes every authenticated request (RBAC comes with issue 43): a review of a
 * `system:masters` subject is answered as kube-apiserver answers it; any other subject is allowed
 * too, with a reason saying so, where kube-apiserver would ask RBAC and may deny.
 */
import type { KubeObject } from '../../../protocol/events.js';
import { StatusError } from '../../../protocol/status.js';
import { builtinKind } from '../builtin.js';
import type {
  AccessAttributes,
  AccessDecision,
  ResourceKind,
  VirtualRequest,
  VirtualUser,
} from '../types.js';
import {
  type ReviewSpec,
  reviewInvalid,
  validateLocalSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateSubjectAccessReview,
} from './review-validation.js';

/** util/helpers.go `ResourceAttributesFrom` / `NonResourceAttributesFrom`. */
function attributesOf(user: VirtualUser, spec: ReviewSpec): AccessAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      namespace: r.namespace ?? '',
      group: r.group ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '' };
}

/** `SubjectAccessReviewStatus`: allowed, denied only when true, the reason when given. */
function statusOf(decision: AccessDecision): Record<string, unknown> {
  const status: Record<string, unknown> = { allowed: decision.allowed };
  if (decision.denied) status.denied = true;
  if (decision.reason) status.reason = decision.reason;
  return status;
}

/** The subject a SubjectAccessReview names. */
function subjectOf(spec: ReviewSpec): VirtualUser {
  return { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
}

function requestUser(request: VirtualRequest): VirtualUser {
  if (!request.user)
    throw StatusError.of(
      'InternalError',
      'Internal error occurred: no user present on request',
      undefined,
      500,
    );
  return request.user;
}

/** `subjectaccessreviews`: may the named subject do this? */
export const subjectAccessReviewKind: ResourceKind = builtinKind(
  'authorization.k8s.io',
  'v1',
  'subjectaccessreviews',
  {
    virtual: {
      managedFields: true,
      async create(request, review) {
        const errors = validateSubjectAccessReview(review);
        if (errors.length > 0) throw reviewInvalid(errors);
        const spec = (review.spec ?? {}) as ReviewSpec;
        review.status = statusOf(request.services.authorize(attributesOf(subjectOf(spec), spec)));
        return { code: 201, body: review };
      },
    },
  },
);

/** `selfsubjectaccessreviews`: may I do this? */
export const selfSubjectAccessReviewKind: ResourceKind = builtinKind(
  'authorization.k8s.io',
  'v1',
  'selfsubjectaccessreviews',
  {
    virtual: {
      managedFields: true,
      async create(request, review) {
        const errors = validateSelfSubjectAccessReview(review);
        if (errors.length > 0) throw reviewInvalid(errors);
        const spec = (review.spec ?? {}) as ReviewSpec;
        review.status = statusOf(request.services.authorize(attributesOf(requestUser(request), spec)));
        return { code: 201, body: review };
      },
    },
  },
);

/** `localsubjectaccessreviews`: a SubjectAccessReview within the path's namespace. */
export const localSubjectAccessReviewKind: ResourceKind = builtinKind(
  'authorization.k8s.io',
  'v1',
  'localsubjectaccessreviews',
  {
    virtual: {
      managedFields: true,
      async create(request, review) {
        // create.go fills an empty namespace from the path before the storage sees the object.
        review.metadata = { ...review.metadata };
        if (!review.metadata.namespace) review.metadata.namespace = request.namespace;
        const errors = validateLocalSubjectAccessReview(review);
        if (errors.length > 0) throw reviewInvalid(errors);
        const spec = (review.spec ?? {}) as ReviewSpec;
        review.status = statusOf(request.services.authorize(attributesOf(subjectOf(spec), spec)));
        return { code: 201, body: review };
      },
    },
  },
);

/**
 * The rules kube-apiserver's bootstrap RBAC policy gives every authenticated user
 * (system:basic-user, system:discovery, system:public-info-viewer) after the `*` a
 * `system:masters` member holds; watchmark allows everyone all of it.
 */
const RESOURCE_RULES = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];
const NON_RESOURCE_RULES = [
  { verbs: ['*'], nonResourceURLs: ['*'] },
  {
    verbs: ['get'],
    nonResourceURLs: [
      '/api',
      '/api/*',
      '/apis',
      '/apis/*',
      '/healthz',
      '/livez',
      '/openapi',
      '/openapi/*',
      '/readyz',
      '/version',
      '/version/',
    ],
  },
  { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
];

/** `selfsubjectrulesreviews`: what may I do in a namespace? A new object with only the status. */
export const selfSubjectRulesReviewKind: ResourceKind = builtinKind(
  'authorization.k8s.io',
  'v1',
  'selfsubjectrulesreviews',
  {
    virtual: {
      async create(request, review) {
        requestUser(request);
        const namespace = ((review.spec ?? {}) as { namespace?: string }).namespace;
        if (!namespace) throw StatusError.of('BadRequest', 'no namespace on request');
        const answer: KubeObject = {
          kind: 'SelfSubjectRulesReview',
          apiVersion: 'authorization.k8s.io/v1',
          metadata: {},
          spec: {},
          status: {
            resourceRules: RESOURCE_RULES.map((r) => structuredClone(r)),
            nonResourceRules: NON_RESOURCE_RULES.map((r) => structuredClone(r)),
            incomplete: false,
          },
        };
        return { code: 201, body: answer };
      },
    },
  },
);
