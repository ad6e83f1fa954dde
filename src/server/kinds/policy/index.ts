/** The policy group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { podDisruptionBudgetKind } from './poddisruptionbudget.js';

/** The policy group's kinds. */
export const policyKinds: ResourceKind[] = [podDisruptionBudgetKind];
