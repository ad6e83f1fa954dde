/** The batch group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { cronJobKind } from './cronjob.js';
import { jobKind } from './job.js';

/** The batch group's kinds. */
export const batchKinds: ResourceKind[] = [cronJobKind, jobKind];
