/** The admissionregistration.k8s.io group: every kind it serves, in discovery order. */

import type { ResourceKind } from '../types.js';
import {
  mutatingAdmissionPolicyBindingKind,
  mutatingAdmissionPolicyKind,
  validatingAdmissionPolicyBindingKind,
  validatingAdmissionPolicyKind,
} from './admission-policies.js';
import {
  mutatingWebhookConfigurationKind,
  validatingWebhookConfigurationKind,
} from './webhook-configurations.js';

/** The admissionregistration.k8s.io group's kinds. */
export const admissionRegistrationKinds: ResourceKind[] = [
  validatingWebhookConfigurationKind,
  mutatingWebhookConfigurationKind,
  validatingAdmissionPolicyKind,
  validatingAdmissionPolicyBindingKind,
  mutatingAdmissionPolicyKind,
  mutatingAdmissionPolicyBindingKind,
];
