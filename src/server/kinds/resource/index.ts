/** The resource.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { deviceClassKind } from './deviceclass.js';
import { deviceTaintRuleKind } from './devicetaintrule.js';
import { resourceClaimKind } from './resourceclaim.js';
import { resourceClaimTemplateKind } from './resourceclaimtemplate.js';
import { resourceSliceKind } from './resourceslice.js';

/** The resource.k8s.io group's kinds. */
export const resourceKinds: ResourceKind[] = [
  deviceClassKind,
  resourceClaimKind,
  resourceClaimTemplateKind,
  resourceSliceKind,
  deviceTaintRuleKind,
];
