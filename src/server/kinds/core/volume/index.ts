/** The core group's PersistentVolumes and PersistentVolumeClaims. */

import type { ResourceKind } from '../../types.js';
import { persistentVolumeKind } from './persistentvolume.js';
import { persistentVolumeClaimKind } from './persistentvolumeclaim.js';

/** Their kinds, in discovery order. */
export const coreVolumeKinds: ResourceKind[] = [persistentVolumeClaimKind, persistentVolumeKind];
