/** The apiregistration.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { apiServiceKind } from './apiservice.js';

/** The apiregistration.k8s.io group's kinds. */
export const apiRegistrationKinds: ResourceKind[] = [apiServiceKind];
