/** The autoscaling group: every kind it serves. */

import type { ResourceKind } from '../types.js';

/** The autoscaling group's kinds. */
export const autoscalingKinds: ResourceKind[] = [];
