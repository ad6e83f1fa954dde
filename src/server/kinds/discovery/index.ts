/** The discovery.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { endpointSliceKind } from './endpointslice.js';

/** The discovery.k8s.io group's kinds. */
export const discoveryKinds: ResourceKind[] = [endpointSliceKind];
