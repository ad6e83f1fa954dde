/**
 * The Namespace (core/v1): its defaults (pkg/apis/core/v1/defaults.go), validation
 * (pkg/apis/core/validation `ValidateNamespace`), create strategy
 * (pkg/registry/core/namespace/strategy.go), Table columns and selectable fields.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, rec, setDefault, statusOf, str } from '../access.js';
import { ageColumn, col } from '../columns.js';
import { type FieldGetter, pathField } from '../selectable-fields.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { validateObjectMeta } from '../validation.js';
import { isDNS1123Label } from '../validation-names.js';

/** SetDefaults_Namespace and SetDefaults_NamespaceStatus: the name label (always kept equal to the name) and phase Active. */
export function defaultNamespace(obj: KubeObject): void {
  const meta = child(obj, 'metadata');
  const name = str(meta?.name);
  if (meta && name !== '') {
    const labels = child(meta, 'labels');
    if (labels) labels['kubernetes.io/metadata.name'] = name;
  }
  const status = child(obj, 'status');
  if (status) setDefault(status, 'phase', 'Active');
}

/**
 * Namespaces are created with the `kubernetes` finalizer, which the namespace lifecycle removes
 * once they are empty; and the name label defaulting could not set on a generated name
 * (pkg/registry/core/namespace/strategy.go `PrepareForCreate`, `Canonicalize`).
 */
function prepareNamespace(obj: KubeObject): void {
  defaultNamespace(obj);
  const spec = rec(obj.spec);
  const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
  if (!finalizers.includes('kubernetes')) obj.spec = { ...spec, finalizers: [...finalizers, 'kubernetes'] };
}

/** `ValidateNamespace`: the name is a DNS-1123 label (it becomes part of DNS names). */
export function validateNamespace(obj: KubeObject): FieldError[] {
  return validateObjectMeta(obj, isDNS1123Label);
}

/** Namespaces: `STATUS AGE`. */
export const namespaceColumns: TableColumn[] = [
  col('Status', 'string', (o) => str(statusOf(o).phase), { description: 'The status of the namespace' }),
  ageColumn,
];

/** Namespaces: `status.phase`. */
export const namespaceFields: Record<string, FieldGetter> = { 'status.phase': pathField('status.phase') };

/** The Namespace's entry in the served kinds. */
export const namespaceKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  categories: [],
  fields: namespaceFields,
  subresources: ['status', 'finalize'],
  generationFields: [],
  defaults: defaultNamespace,
  prepareForCreate: prepareNamespace,
  validate: validateNamespace,
  columns: namespaceColumns,
};
