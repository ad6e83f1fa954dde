/** The node.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { runtimeClassKind } from './runtime-class.js';

/** The node.k8s.io group's kinds. */
export const nodeKinds: ResourceKind[] = [runtimeClassKind];
