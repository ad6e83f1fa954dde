/** The coordination.k8s.io group: every kind it serves, in discovery order. */

import type { ResourceKind } from '../types.js';
import { leaseKind } from './lease.js';

/** The coordination.k8s.io group's kinds. */
export const coordinationKinds: ResourceKind[] = [leaseKind];
