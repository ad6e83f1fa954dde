/**
 * The Deployment (apps/v1): defaults (pkg/apis/apps/v1/defaults.go `SetDefaults_Deployment`),
 * validation (pkg/apis/apps/validation `ValidateDeployment`), Table columns (printers.go
 * `printDeployment`) and its entry in the served table.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, num, rec, setDefault, setIfAbsent, specOf, statusOf, str } from '../access.js';
import { ageColumn, col, labelSelectorText, typeDocs, wide } from '../columns.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import { forbidden, invalid, notSupported, validateNonNegative, validateObjectMeta } from '../validation.js';
import { containersCol, defaultTemplate, imagesCol, replicasScale, zeroStatus } from './workload.js';
import {
  DEPLOYMENT_WORDS,
  intOrPercentValue,
  notOver100Percent,
  validateIntOrPercent,
  validateSelectorAndTemplate,
  validateSelectorUnchanged,
} from './workload-validation.js';

/** SetDefaults_Deployment: 1 replica, RollingUpdate 25%/25%, 10 old ReplicaSets kept, 600 s to progress. */
export function defaultDeployment(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setIfAbsent(spec, 'replicas', 1);
    const strategy = child(spec, 'strategy');
    if (strategy) {
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy.type === 'RollingUpdate') {
        const ru = child(strategy, 'rollingUpdate');
        if (ru) {
          setIfAbsent(ru, 'maxUnavailable', '25%');
          setIfAbsent(ru, 'maxSurge', '25%');
        }
      }
    }
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    setIfAbsent(spec, 'progressDeadlineSeconds', 600);
    defaultTemplate(spec);
  }
  zeroStatus(obj, []);
}

/** `ValidateDeployment`. */
export function validateDeployment(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errors = validateObjectMeta(obj);
  errors.push(...validateNonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...validateSelectorAndTemplate(spec, DEPLOYMENT_WORDS));
  const strategy = rec(spec.strategy);
  const type = str(strategy.type);
  if (type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      errors.push(
        forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"),
      );
    }
  } else if (type === 'RollingUpdate') {
    const ru = rec(strategy.rollingUpdate);
    errors.push(...validateIntOrPercent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'));
    errors.push(...validateIntOrPercent(ru.maxSurge, 'spec.strategy.rollingUpdate.maxSurge'));
    if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
      errors.push(
        invalid(
          'spec.strategy.rollingUpdate.maxUnavailable',
          ru.maxUnavailable ?? 0,
          'may not be 0 when `maxSurge` is 0',
        ),
      );
    }
    errors.push(...notOver100Percent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'));
  } else {
    // kube reports the whole strategy struct at spec.strategy; the type is what was wrong.
    errors.push(notSupported('spec.strategy.type', strategy.type ?? '', ['Recreate', 'RollingUpdate']));
  }
  errors.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...validateNonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errors.push(...validateNonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (spec.progressDeadlineSeconds <= minReady) {
      errors.push(
        invalid(
          'spec.progressDeadlineSeconds',
          spec.progressDeadlineSeconds,
          'must be greater than minReadySeconds',
        ),
      );
    }
  }
  return errors;
}

/** Column docs of apps/v1 types (printers.go `appsv1.T{}`). */
const apps = typeDocs('io.k8s.api.apps.v1');

/** Deployments: `READY UP-TO-DATE AVAILABLE AGE`, wide `CONTAINERS IMAGES SELECTOR`. */
export const deploymentColumns: TableColumn[] = [
  col('Ready', 'string', (o) => `${num(statusOf(o).readyReplicas)}/${num(specOf(o).replicas)}`, {
    description: 'Number of the pod with ready state',
  }),
  col(
    'Up-to-date',
    'string',
    (o) => num(statusOf(o).updatedReplicas),
    apps('DeploymentStatus', 'updatedReplicas'),
  ),
  col(
    'Available',
    'string',
    (o) => num(statusOf(o).availableReplicas),
    apps('DeploymentStatus', 'availableReplicas'),
  ),
  ageColumn,
  containersCol,
  imagesCol,
  // printDeployment uses the selector's plain String(): "" when empty, `<invalid>` when malformed.
  wide(
    'Selector',
    (o) => labelSelectorText(specOf(o).selector) ?? '<invalid>',
    apps('DeploymentSpec', 'selector'),
  ),
];

/** The Deployment's entry in the served kinds. */
export const deploymentKind: ResourceKind = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  fields: {},
  subresources: ['status', 'scale'],
  // Annotations count too: the deployment controller copies them onto ReplicaSets.
  generationFields: ['spec', 'metadata.annotations'],
  defaults: defaultDeployment,
  validate: validateDeployment,
  validateUpdate: validateSelectorUnchanged,
  columns: deploymentColumns,
  scale: replicasScale(['apps/v1beta1', 'apps/v1beta2', 'apps/v1']),
};
