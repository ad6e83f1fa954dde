/** The events.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { eventsV1EventKind } from './event.js';

/** The events.k8s.io group's kinds. */
export const eventsKinds: ResourceKind[] = [eventsV1EventKind];
