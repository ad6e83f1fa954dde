/** The flowcontrol.apiserver.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { flowSchemaKind } from './flowschema.js';
import { priorityLevelConfigurationKind } from './prioritylevelconfiguration.js';

/** The flowcontrol.apiserver.k8s.io group's kinds. */
export const flowcontrolKinds: ResourceKind[] = [flowSchemaKind, priorityLevelConfigurationKind];
