/** The batch group: every kind it serves. */

import type { ResourceKind } from '../types.js';

/** The batch group's kinds. */
export const batchKinds: ResourceKind[] = [];
