/** The authentication.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { selfSubjectReviewKind } from './selfsubjectreview.js';
import { tokenReviewKind } from './tokenreview.js';

/** The authentication.k8s.io group's kinds. */
export const authenticationKinds: ResourceKind[] = [selfSubjectReviewKind, tokenReviewKind];
