/**
 * The Lease (coordination.k8s.io/v1): validation (pkg/apis/coordination/validation
 * `ValidateLease`), Table columns and its strategy's update rules
 * (pkg/registry/coordination/lease/strategy.go). Leases have no defaulting in kube.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { rec, specOf, str } from '../access.js';
import { ageColumn, col, swaggerDoc } from '../columns.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { invalid, validateObjectMeta } from '../validation.js';

/** `ValidateLease`: positive duration, non-negative transitions. */
export function validateLease(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const spec = rec(obj.spec);
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errors.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errors.push(
      invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'),
    );
  }
  return errors;
}

/** Leases: `HOLDER AGE`. */
export const leaseColumns: TableColumn[] = [
  col(
    'Holder',
    'string',
    (o) => str(specOf(o).holderIdentity),
    swaggerDoc('io.k8s.api.coordination.v1.LeaseSpec', 'holderIdentity'),
  ),
  ageColumn,
];

/** The Lease's entry in the served kinds. */
export const leaseKind: ResourceKind = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  shortNames: [],
  categories: [],
  fields: {},
  subresources: [],
  generationFields: [],
  validate: validateLease,
  columns: leaseColumns,
  // pkg/registry/coordination/lease/strategy.go: a PUT may create a lease, and must name the
  // version it replaces.
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
};
