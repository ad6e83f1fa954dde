/** The resource.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';

/** The resource.k8s.io group's kinds. */
export const resourceKinds: ResourceKind[] = [];
