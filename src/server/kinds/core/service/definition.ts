/**
 * The Service (core/v1): its entry in the served table (pkg/registry/core/service/strategy.go:
 * the selectable fields, create on update, the fields a type change wipes). Its cluster IPs and
 * node ports are allocated by the object storage with cluster-ips.ts's and allocation.ts's rules.
 */

import { type FieldGetter, pathField } from '../../selectable-fields.js';
import type { ResourceKind } from '../../types.js';
import { validateClusterIpUpdate } from './allocation.js';
import { serviceColumns } from './columns.js';
import { defaultService } from './defaults.js';
import { dropTypeDependentFields } from './type-change.js';
import { validateService } from './validation.js';

/** Services: `spec.clusterIP` and `spec.type` (kube-apiserver 1.30+). */
export const serviceFields: Record<string, FieldGetter> = {
  'spec.clusterIP': pathField('spec.clusterIP'),
  'spec.type': pathField('spec.type'),
};

/** The Service's entry in the served kinds. */
export const serviceKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  fields: serviceFields,
  subresources: ['status', 'proxy'],
  generationFields: [],
  defaults: defaultService,
  validate: validateService,
  validateUpdate: validateClusterIpUpdate,
  afterFieldManager: dropTypeDependentFields,
  columns: serviceColumns,
  // pkg/registry/core/service/strategy.go `AllowCreateOnUpdate`.
  allowCreateOnUpdate: true,
};
