/** The scheduling.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { priorityClassKind } from './priority-class.js';

/** The scheduling.k8s.io group's kinds. */
export const schedulingKinds: ResourceKind[] = [priorityClassKind];
