/**
 * The ReplicaSet (apps/v1): defaults (`SetDefaults_ReplicaSet`), validation
 * (`ValidateReplicaSet`), Table columns (printers.go `printReplicaSet`), selectable fields and
 * its entry in the served table.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, num, setIfAbsent, specOf, statusOf } from '../access.js';
import { ageColumn, col, formatSelectorCell, typeDocs, wide } from '../columns.js';
import { type FieldGetter, intField } from '../selectable-fields.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { validateNonNegative, validateObjectMeta } from '../validation.js';
import {
  containersCol,
  defaultTemplate,
  imagesCol,
  replicasScale,
  SPEC_GENERATION,
  zeroStatus,
} from './workload.js';
import {
  DEPLOYMENT_WORDS,
  validateSelectorAndTemplate,
  validateSelectorUnchanged,
} from './workload-validation.js';

/** SetDefaults_ReplicaSet: 1 replica. */
export function defaultReplicaSet(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setIfAbsent(spec, 'replicas', 1);
    defaultTemplate(spec);
  }
  zeroStatus(obj, ['replicas']);
}

/** `ValidateReplicaSet` (its empty-selector message says "deployment" in kube too). */
export function validateReplicaSet(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errors = validateObjectMeta(obj);
  errors.push(...validateNonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...validateSelectorAndTemplate(spec, DEPLOYMENT_WORDS));
  return errors;
}

/** Column docs of apps/v1 types (printers.go `appsv1.T{}`). */
const apps = typeDocs('io.k8s.api.apps.v1');

/** ReplicaSets: `DESIRED CURRENT READY AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const replicaSetColumns: TableColumn[] = [
  col('Desired', 'integer', (o) => num(specOf(o).replicas), apps('ReplicaSetSpec', 'replicas')),
  col('Current', 'integer', (o) => num(statusOf(o).replicas), apps('ReplicaSetStatus', 'replicas')),
  col('Ready', 'integer', (o) => num(statusOf(o).readyReplicas), apps('ReplicaSetStatus', 'readyReplicas')),
  ageColumn,
  containersCol,
  imagesCol,
  wide('Selector', (o) => formatSelectorCell(specOf(o).selector), apps('ReplicaSetSpec', 'selector')),
];

/** ReplicaSets: `status.replicas`. */
export const replicaSetFields: Record<string, FieldGetter> = {
  'status.replicas': intField('status.replicas'),
};

/** The ReplicaSet's entry in the served kinds. */
export const replicaSetKind: ResourceKind = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  fields: replicaSetFields,
  subresources: ['status', 'scale'],
  generationFields: SPEC_GENERATION,
  defaults: defaultReplicaSet,
  validate: validateReplicaSet,
  validateUpdate: validateSelectorUnchanged,
  columns: replicaSetColumns,
  scale: replicasScale(['apps/v1beta2', 'apps/v1']),
};
