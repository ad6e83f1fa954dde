/** The certificates.k8s.io group: every kind it serves. */

import type { ResourceKind } from '../types.js';
import { clusterTrustBundleKind } from './cluster-trust-bundle.js';
import { certificateSigningRequestKind } from './csr.js';
import { podCertificateRequestKind } from './pcr.js';

/** The certificates.k8s.io group's kinds. */
export const certificatesKinds: ResourceKind[] = [
  certificateSigningRequestKind,
  clusterTrustBundleKind,
  podCertificateRequestKind,
];
