/**
 * The DaemonSet (apps/v1): defaults (`SetDefaults_DaemonSet`), validation
 * (`ValidateDaemonSet`), Table columns (printers.go `printDaemonSet`) and its entry in the
 * served table; its strategy's template generation is daemonset-generation.ts's.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, isObject, num, rec, setDefault, setIfAbsent, specOf, statusOf, str } from '../access.js';
import { ageColumn, col, formatLabels, formatSelectorCell, typeDocs, wide } from '../columns.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { invalid, notSupported, required, validateNonNegative, validateObjectMeta } from '../validation.js';
import {
  prepareDaemonSetCreate,
  roundTripTemplateGeneration,
  settleDaemonSetUpdate,
} from './daemonset-generation.js';
import { containersCol, defaultTemplate, imagesCol, SPEC_GENERATION, zeroStatus } from './workload.js';
import {
  intOrPercentValue,
  notOver100Percent,
  validateIntOrPercent,
  validateSelectorAndTemplate,
  validateSelectorUnchanged,
} from './workload-validation.js';

/**
 * SetDefaults_DaemonSet: RollingUpdate one node at a time without surge, 10 revisions; and the
 * template generation annotation as the apps/v1 conversion writes it back.
 */
export function defaultDaemonSet(obj: KubeObject): void {
  roundTripTemplateGeneration(obj);
  const spec = child(obj, 'spec');
  if (spec) {
    const strategy = child(spec, 'updateStrategy');
    if (strategy) {
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') {
        const ru = child(strategy, 'rollingUpdate');
        if (ru) {
          setIfAbsent(ru, 'maxUnavailable', 1);
          setIfAbsent(ru, 'maxSurge', 0);
        }
      }
    }
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
  }
  zeroStatus(obj, ['currentNumberScheduled', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady']);
}

/** `ValidateDaemonSet`: exactly one of maxUnavailable and maxSurge is non-zero. */
export function validateDaemonSet(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errors = validateObjectMeta(obj);
  errors.push(
    ...validateSelectorAndTemplate(spec, {
      selectorNoun: 'daemonset',
      templateOwner: 'DaemonSet',
      nilSelectorSelectsNothing: true,
    }),
  );
  errors.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...validateNonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  const strategy = rec(spec.updateStrategy);
  const type = str(strategy.type);
  if (type === 'RollingUpdate') {
    if (!isObject(strategy.rollingUpdate)) errors.push(required('spec.updateStrategy.rollingUpdate'));
    else {
      const ru = strategy.rollingUpdate;
      const base = 'spec.updateStrategy.rollingUpdate';
      errors.push(...validateIntOrPercent(ru.maxUnavailable, `${base}.maxUnavailable`));
      errors.push(...validateIntOrPercent(ru.maxSurge, `${base}.maxSurge`));
      errors.push(...notOver100Percent(ru.maxUnavailable, `${base}.maxUnavailable`));
      errors.push(...notOver100Percent(ru.maxSurge, `${base}.maxSurge`));
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) {
        errors.push(
          invalid(`${base}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'),
        );
      } else if (!hasUnavailable && !hasSurge) {
        errors.push(required(`${base}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      }
    }
  } else if (type !== 'OnDelete') {
    errors.push(notSupported('spec.updateStrategy.type', strategy.type ?? '', ['RollingUpdate', 'OnDelete']));
  }
  return errors;
}

/** Column docs of apps/v1 types (printers.go `appsv1.T{}`). */
const apps = typeDocs('io.k8s.api.apps.v1');
/** Column docs of core/v1 types (printers.go `apiv1.T{}`). */
const core = typeDocs('io.k8s.api.core.v1');

/** A DaemonSet's count column: the status field `field`, described by its doc. */
function daemonSetCount(name: string, field: string): TableColumn {
  return col(name, 'integer', (o) => num(statusOf(o)[field]), apps('DaemonSetStatus', field));
}

/** DaemonSets: `DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const daemonSetColumns: TableColumn[] = [
  daemonSetCount('Desired', 'desiredNumberScheduled'),
  daemonSetCount('Current', 'currentNumberScheduled'),
  daemonSetCount('Ready', 'numberReady'),
  daemonSetCount('Up-to-date', 'updatedNumberScheduled'),
  daemonSetCount('Available', 'numberAvailable'),
  col(
    'Node Selector',
    'string',
    (o) => formatLabels(rec(rec(specOf(o).template).spec).nodeSelector),
    core('PodSpec', 'nodeSelector'),
  ),
  ageColumn,
  containersCol,
  imagesCol,
  wide('Selector', (o) => formatSelectorCell(specOf(o).selector), apps('DaemonSetSpec', 'selector')),
];

/** The DaemonSet's entry in the served kinds. */
export const daemonSetKind: ResourceKind = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  fields: {},
  subresources: ['status'],
  generationFields: SPEC_GENERATION,
  defaults: defaultDaemonSet,
  prepareForCreate: prepareDaemonSetCreate,
  afterFieldManager: settleDaemonSetUpdate,
  validate: validateDaemonSet,
  validateUpdate: validateSelectorUnchanged,
  columns: daemonSetColumns,
};
