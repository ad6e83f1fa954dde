/** The core group's PersistentVolumes and PersistentVolumeClaims. */

import type { ResourceKind } from '../../types.js';

/** Their kinds. */
export const coreVolumeKinds: ResourceKind[] = [];
