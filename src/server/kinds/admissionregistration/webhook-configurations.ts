/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration: their entries in the served table and their Table columns
 * (pkg/printers/internalversion/printers.go, `NAME WEBHOOKS AGE`).
 */

import { arr } from '../access.js';
import { ageColumn } from '../columns.js';
import type { ResourceKind, TableColumn } from '../types.js';
import { defaultMutatingWebhookConfiguration, defaultValidatingWebhookConfiguration } from './defaults.js';
import {
  validateMutatingWebhookConfiguration,
  validateValidatingWebhookConfiguration,
} from './validation.js';

/** printers.go `printMutatingWebhook` / `printValidatingWebhook`: `NAME WEBHOOKS AGE`. */
export const webhookConfigurationColumns: TableColumn[] = [
  {
    name: 'Webhooks',
    type: 'integer',
    priority: 0,
    description: 'Webhooks indicates the number of webhooks registered in this configuration',
    cell: (o) => arr(o.webhooks).length,
  },
  ageColumn,
];

/** The ValidatingWebhookConfiguration's entry in the served kinds. */
// The admission webhooks' configurations (pkg/registry/admissionregistration): cluster-scoped,
// no status, generation bumped by any change of `webhooks` (strategy.go `PrepareForUpdate`).
export const validatingWebhookConfigurationKind: ResourceKind = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  namespaced: false,
  shortNames: [],
  categories: ['api-extensions'],
  fields: {},
  subresources: [],
  generationFields: ['webhooks'],
  defaults: defaultValidatingWebhookConfiguration,
  validate: validateValidatingWebhookConfiguration,
  columns: webhookConfigurationColumns,
  // validatingwebhookconfiguration/strategy.go `AllowUnconditionalUpdate`.
  allowUnconditionalUpdate: false,
};

/** The MutatingWebhookConfiguration's entry in the served kinds. */
export const mutatingWebhookConfigurationKind: ResourceKind = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  namespaced: false,
  shortNames: [],
  categories: ['api-extensions'],
  fields: {},
  subresources: [],
  generationFields: ['webhooks'],
  defaults: defaultMutatingWebhookConfiguration,
  validate: validateMutatingWebhookConfiguration,
  columns: webhookConfigurationColumns,
  // mutatingwebhookconfiguration/strategy.go `AllowUnconditionalUpdate`.
  allowUnconditionalUpdate: false,
};
