/** The networking.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { ingressKind } from './ingress.js';
import { ingressClassKind } from './ingressclass.js';
import { ipAddressKind } from './ipaddress.js';
import { networkPolicyKind } from './networkpolicy.js';
import { serviceCIDRKind } from './servicecidr.js';

/** The networking.k8s.io group's kinds. */
export const networkingKinds: ResourceKind[] = [
  ingressKind,
  ingressClassKind,
  networkPolicyKind,
  serviceCIDRKind,
  ipAddressKind,
];
