/**
 * The PodTemplate (core/v1): a pod template kept on its own, which controllers and the API
 * chunking conformance tests create by the hundred. Its `template` is defaulted and validated by
 * core/pod as the workloads' templates are (pkg/apis/core/v1/defaults.go reaches
 * `SetDefaults_PodSpec` through it; pkg/apis/core/validation `ValidatePodTemplate`,
 * `ValidatePodTemplateUpdate`), its strategy (pkg/registry/core/podtemplate/strategy.go) counts
 * template changes in metadata.generation, and printers.go `printPodTemplate` gives its columns.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, objects, rec, str } from '../access.js';
import { col, formatLabels } from '../columns.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { validateObjectMeta } from '../validation.js';
import { defaultPodTemplateSpec } from './pod/defaults.js';
import { validatePodTemplateSpec } from './pod/validation.js';

/**
 * The PodTemplate's defaults: none of its own; its `template` (a Go struct, so always there)
 * gets the PodTemplateSpec's.
 */
export function defaultPodTemplate(obj: KubeObject): void {
  const template = child(obj, 'template');
  if (template) defaultPodTemplateSpec(template);
}

/**
 * `ValidatePodTemplate`: metadata (a DNS subdomain name, `ValidatePodName`) and
 * `ValidatePodTemplateSpec` of `template`, which allows every restart policy. On update
 * (`ValidatePodTemplateUpdate`) the same template rules, and nothing is immutable.
 */
export function validatePodTemplateObject(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validatePodTemplateSpec(obj.template, 'template')];
}

/** printers.go `layoutContainerCells` of the template's containers: names or images, comma-joined. */
function containerCell(o: KubeObject, field: 'name' | 'image'): string {
  return objects(rec(rec(o.template).spec).containers)
    .map((c) => str(c[field]))
    .join(',');
}

/** PodTemplates: `CONTAINERS IMAGES POD LABELS`, and no Age (printers.go `podTemplateColumnDefinitions`). */
export const podTemplateColumns: TableColumn[] = [
  col('Containers', 'string', (o) => containerCell(o, 'name'), {
    description: 'Names of each container in the template.',
  }),
  col('Images', 'string', (o) => containerCell(o, 'image'), {
    description: 'Images referenced by each container in the template.',
  }),
  col('Pod Labels', 'string', (o) => formatLabels(rec(rec(o.template).metadata).labels), {
    description: 'The labels for the pod template.',
  }),
];

/** The PodTemplate's entry in the served kinds. */
export const podTemplateKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  shortNames: [],
  categories: [],
  fields: {},
  subresources: [],
  // PrepareForCreate sets generation 1; PrepareForUpdate bumps it when the template changes.
  generationFields: ['template'],
  defaults: defaultPodTemplate,
  validate: validatePodTemplateObject,
  columns: podTemplateColumns,
};
