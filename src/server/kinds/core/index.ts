/**
 * The core group (`/api/v1`): every kind it serves, in discovery order. A new core kind is a
 * file here (or a folder, when it is big: pod/, service/) and one line in this list.
 */

import type { ResourceKind } from '../types.js';
import { configMapKind } from './configmap.js';
import { endpointsKind } from './endpoints.js';
import { eventKind } from './event.js';
import { limitRangeKind } from './limitrange.js';
import { namespaceKind } from './namespace.js';
import { nodeKind } from './node.js';
import { podKind } from './pod/definition.js';
import { podTemplateKind } from './podtemplate.js';
import { replicationControllerKind } from './replicationcontroller.js';
import { resourceQuotaKind } from './resourcequota.js';
import { secretKind } from './secret.js';
import { serviceKind } from './service/definition.js';
import { serviceAccountKind } from './serviceaccount.js';
import { coreVirtualKinds } from './virtual/index.js';
import { coreVolumeKinds } from './volume/index.js';

/** The core group's kinds. */
export const coreKinds: ResourceKind[] = [
  namespaceKind,
  podKind,
  nodeKind,
  configMapKind,
  secretKind,
  serviceKind,
  eventKind,
  podTemplateKind,
  serviceAccountKind,
  endpointsKind,
  limitRangeKind,
  resourceQuotaKind,
  replicationControllerKind,
  ...coreVolumeKinds,
  ...coreVirtualKinds,
];
