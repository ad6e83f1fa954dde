/** The core group's resources answered and never stored: Bindings, ComponentStatuses. */

import type { ResourceKind } from '../../types.js';
import { bindingKind } from './binding.js';
import { componentStatusKind } from './componentstatus.js';

/** Their kinds. */
export const coreVirtualKinds: ResourceKind[] = [bindingKind, componentStatusKind];
