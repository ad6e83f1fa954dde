/**
 * The API approval policy for CRDs in Kubernetes' own groups: k8s.io,
 * kubernetes.io and their subdomains need an `api-approved.kubernetes.io`
 * annotation (a URL of the approving pull request, or a reason starting with
 * "unapproved"). Shared by validation (which refuses a missing or invalid
 * annotation) and the `KubernetesAPIApprovalPolicyConformant` condition.
 * Upstream: k8s.io/apiextensions-apiserver pkg/apihelpers/helpers.go
 * (`IsProtectedCommunityGroup`, `GetAPIApprovalState`) and
 * pkg/controller/apiapproval/apiapproval_controller.go (`calculateCondition`).
 */
import { rec, str } from '../../kinds/access.js';
import type { CustomResourceDefinitionCondition } from './types.js';

/** `KubeAPIApprovedAnnotation`. */
export const API_APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

/** apihelpers `APIApprovalState`. */
export type APIApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing';

/** apihelpers `IsProtectedCommunityGroup`: k8s.io and kubernetes.io and their subdomains. */
export function isProtectedCommunityGroup(group: string): boolean {
  return (
    group === 'k8s.io' ||
    group.endsWith('.k8s.io') ||
    group === 'kubernetes.io' ||
    group.endsWith('.kubernetes.io')
  );
}

/**
 * apihelpers `GetAPIApprovalState`: the state and its reason. A URL counts
 * when it has a scheme and a host (Go's `url.ParseRequestURI`, approximated).
 */
export function apiApprovalState(annotations: unknown): [APIApprovalState, string] {
  const value = str(rec(annotations)[API_APPROVAL_ANNOTATION]);
  const name = JSON.stringify(API_APPROVAL_ANNOTATION);
  const pr = 'see https://github.com/kubernetes/enhancements/pull/1111';
  if (value === '') return ['missing', `protected groups must have approval annotation ${name}, ${pr}`];
  if (value.startsWith('unapproved')) return ['bypassed', `not approved: ${JSON.stringify(value)}`];
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#\s]+/.test(value)) return ['approved', `approved in ${value}`];
  return [
    'invalid',
    `protected groups must have approval annotation ${name} with either a URL or a reason starting with "unapproved", ${pr}`,
  ];
}

const REASONS: Record<APIApprovalState, [string, string]> = {
  invalid: ['False', 'InvalidAnnotation'],
  missing: ['False', 'MissingAnnotation'],
  approved: ['True', 'ApprovedAnnotation'],
  bypassed: ['False', 'UnapprovedAnnotation'],
};

/**
 * `calculateCondition`: the `KubernetesAPIApprovalPolicyConformant`
 * condition of a CRD, undefined outside the protected groups (where the
 * controller sets none).
 */
export function apiApprovalCondition(crd: unknown): CustomResourceDefinitionCondition | undefined {
  const c = rec(crd);
  if (!isProtectedCommunityGroup(str(rec(c.spec).group))) return undefined;
  const [state, message] = apiApprovalState(rec(c.metadata).annotations);
  const [status, reason] = REASONS[state];
  return { type: 'KubernetesAPIApprovalPolicyConformant', status, reason, message };
}
