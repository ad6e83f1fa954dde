/** The apps group (`/apis/apps/v1`): every kind it serves, in discovery order. */

import type { ResourceKind } from '../types.js';
import { controllerRevisionKind } from './controllerrevision.js';
import { daemonSetKind } from './daemonset.js';
import { deploymentKind } from './deployment.js';
import { replicaSetKind } from './replicaset.js';
import { statefulSetKind } from './statefulset.js';

/** The apps group's kinds. */
export const appsKinds: ResourceKind[] = [
  deploymentKind,
  replicaSetKind,
  statefulSetKind,
  daemonSetKind,
  controllerRevisionKind,
];
