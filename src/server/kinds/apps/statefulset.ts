/**
 * The StatefulSet (apps/v1): defaults (`SetDefaults_StatefulSet`), validation
 * (`ValidateStatefulSet`, `ValidateStatefulSetUpdate`), Table columns (printers.go
 * `printStatefulSet`) and its entry in the served table.
 */

import type { KubeObject } from '../../../protocol/events.js';
import {
  child,
  isObject,
  num,
  objects,
  rec,
  sameJson,
  setDefault,
  setIfAbsent,
  specOf,
  statusOf,
  str,
} from '../access.js';
import { ageColumn, col } from '../columns.js';
import { type GoRendered, goNamedString, goStruct } from '../field-value.js';
import type { FieldError, ResourceKind, TableColumn } from '../types.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { isDNS1123Label } from '../validation-names.js';
import {
  containersCol,
  defaultTemplate,
  imagesCol,
  replicasScale,
  SPEC_GENERATION,
  zeroStatus,
} from './workload.js';
import {
  intOrPercentValue,
  notOver100Percent,
  validateIntOrPercent,
  validateSelectorAndTemplate,
} from './workload-validation.js';

/**
 * SetDefaults_StatefulSet: OrderedReady, RollingUpdate with partition 0 and
 * maxUnavailable 1 (only when kube created the rollingUpdate itself or one
 * was sent; maxUnavailable since MaxUnavailableStatefulSet went on by default
 * in 1.37, pkg/features/kube_features.go), PVCs retained
 * (StatefulSetAutoDeletePVC is on by default since 1.27), 1 replica, 10
 * revisions; claim templates get SetDefaults_PersistentVolumeClaim(Spec).
 */
export function defaultStatefulSet(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (spec) {
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    const strategy = child(spec, 'updateStrategy');
    if (strategy) {
      if (str(strategy.type) === '') {
        strategy.type = 'RollingUpdate';
        child(strategy, 'rollingUpdate');
      }
      if (strategy.type === 'RollingUpdate' && isObject(strategy.rollingUpdate)) {
        setIfAbsent(strategy.rollingUpdate, 'partition', 0);
        setIfAbsent(strategy.rollingUpdate, 'maxUnavailable', 1);
      }
    }
    const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
    if (retention) {
      setDefault(retention, 'whenDeleted', 'Retain');
      setDefault(retention, 'whenScaled', 'Retain');
    }
    setIfAbsent(spec, 'replicas', 1);
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
    for (const claim of objects(spec.volumeClaimTemplates)) {
      const claimSpec = child(claim, 'spec');
      if (claimSpec) setIfAbsent(claimSpec, 'volumeMode', 'Filesystem');
      const claimStatus = child(claim, 'status');
      if (claimStatus) setDefault(claimStatus, 'phase', 'Pending');
    }
  }
  zeroStatus(obj, ['availableReplicas', 'replicas']);
}

const RETENTION = ['Retain', 'Delete'];

/**
 * `validateRollingUpdateStatefulSet`: a non-negative partition, and a maxUnavailable (when set)
 * that is a valid int or percent, not 0 and not over 100%.
 */
function validateRollingUpdateStatefulSet(ru: Record<string, unknown>): FieldError[] {
  const base = 'spec.updateStrategy.rollingUpdate';
  const errors = validateNonNegative(ru.partition, `${base}.partition`);
  const maxUnavailable = ru.maxUnavailable;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const field = `${base}.maxUnavailable`;
    errors.push(...validateIntOrPercent(maxUnavailable, field));
    if (intOrPercentValue(maxUnavailable) === 0) errors.push(invalid(field, maxUnavailable, 'cannot be 0'));
    errors.push(...notOver100Percent(maxUnavailable, field));
  }
  return errors;
}

/** An `*apps.RollingUpdateStatefulSetStrategy` as a bad value (an internal struct: Go's field names). */
function rollingUpdateValue(ru: unknown): GoRendered | null {
  if (!isObject(ru)) return null;
  return goStruct([
    ['Partition', ru.partition ?? 0],
    ['MaxUnavailable', ru.maxUnavailable ?? null],
  ]);
}

/** `ValidateStatefulSet`. */
export function validateStatefulSet(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  // ValidateStatefulSetName is NameIsDNSLabel: pod names and hostnames are built from it.
  const errors = validateObjectMeta(obj, isDNS1123Label);
  const pmp = str(spec.podManagementPolicy);
  if (pmp === '') errors.push(required('spec.podManagementPolicy'));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') {
    errors.push(
      invalid('spec.podManagementPolicy', goNamedString(pmp), "must be 'OrderedReady' or 'Parallel'"),
    );
  }
  const strategy = rec(spec.updateStrategy);
  const type = str(strategy.type);
  if (type === '') errors.push(required('spec.updateStrategy'));
  else if (type === 'OnDelete') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      errors.push(
        invalid(
          'spec.updateStrategy.rollingUpdate',
          rollingUpdateValue(strategy.rollingUpdate),
          "only allowed for updateStrategy 'RollingUpdate'",
        ),
      );
    }
  } else if (type === 'RollingUpdate') {
    if (isObject(strategy.rollingUpdate))
      errors.push(...validateRollingUpdateStatefulSet(strategy.rollingUpdate));
  } else {
    const value = goStruct([
      ['Type', goNamedString(type)],
      ['RollingUpdate', rollingUpdateValue(strategy.rollingUpdate)],
    ]);
    errors.push(invalid('spec.updateStrategy', value, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  if (isObject(spec.persistentVolumeClaimRetentionPolicy)) {
    const policy = spec.persistentVolumeClaimRetentionPolicy;
    for (const key of ['whenDeleted', 'whenScaled']) {
      const value = str(policy[key]);
      if (!RETENTION.includes(value)) {
        errors.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${key}`, value, RETENTION));
      }
    }
  }
  errors.push(...validateNonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(
    ...validateSelectorAndTemplate(spec, { selectorNoun: 'statefulset', templateOwner: 'StatefulSet' }),
  );
  return errors;
}

const STATEFULSET_MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

/** `ValidateStatefulSetUpdate`: only the listed spec fields may change (volumeClaimTemplates, serviceName, ... may not). */
export function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const strip = (spec: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(spec).filter(([k]) => !STATEFULSET_MUTABLE.includes(k)));
  if (sameJson(strip(specOf(obj)), strip(specOf(old)))) return [];
  return [
    forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

/** StatefulSets: `READY AGE`, wide `CONTAINERS IMAGES`. */
export const statefulSetColumns: TableColumn[] = [
  col('Ready', 'string', (o) => `${num(statusOf(o).readyReplicas)}/${num(specOf(o).replicas)}`, {
    description: 'Number of the pod with ready state',
  }),
  ageColumn,
  containersCol,
  imagesCol,
];

/** The StatefulSet's entry in the served kinds. */
export const statefulSetKind: ResourceKind = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  fields: {},
  subresources: ['status', 'scale'],
  generationFields: SPEC_GENERATION,
  defaults: defaultStatefulSet,
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
  columns: statefulSetColumns,
  scale: replicasScale(['apps/v1beta1', 'apps/v1beta2', 'apps/v1']),
};
