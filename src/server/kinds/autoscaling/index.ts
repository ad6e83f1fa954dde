/** The autoscaling group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { hpaV1Kind, hpaV2Kind } from './hpa.js';

/** The autoscaling group's kinds: v2 first, as discovery orders the versions. */
export const autoscalingKinds: ResourceKind[] = [hpaV2Kind, hpaV1Kind];
