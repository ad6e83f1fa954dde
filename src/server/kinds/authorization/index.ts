/** The authorization.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import {
  localSubjectAccessReviewKind,
  selfSubjectAccessReviewKind,
  selfSubjectRulesReviewKind,
  subjectAccessReviewKind,
} from './access-reviews.js';

/** The authorization.k8s.io group's kinds, in discovery order. */
export const authorizationKinds: ResourceKind[] = [
  localSubjectAccessReviewKind,
  selfSubjectAccessReviewKind,
  selfSubjectRulesReviewKind,
  subjectAccessReviewKind,
];
