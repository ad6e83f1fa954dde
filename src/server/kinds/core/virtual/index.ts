/** The core group's the resources answered and never stored: Bindings, ComponentStatuses. */

import type { ResourceKind } from '../../types.js';

/** Their kinds. */
export const coreVirtualKinds: ResourceKind[] = [];
