/**
 * apps/v1 validation (pkg/apis/apps/validation): Deployments, ReplicaSets,
 * StatefulSets and DaemonSets, on create and on update.
 */

import type { KubeObject } from '../../../protocol/events.js';
import {
  isEverything,
  type LabelSelectorObject,
  labelSelectorFromObject,
  matchesLabels,
  SelectorError,
} from '../../../protocol/labels.js';
import { isObject, rec, sameJson, str } from '../access.js';
import { type GoRendered, goNamedString, goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import {
  forbidden,
  invalid,
  labelSelectorValue,
  notSupported,
  required,
  validateLabelSelector,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { isDNS1123Label } from '../validation-names.js';
import { validatePodTemplate } from '../core/pod/validation.js';

const PERCENT_RE = /^[0-9]+%$/;

/** An IntOrString's magnitude (`getIntOrPercentValue`): 5 for 5 and for "5%". */
function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  if (PERCENT_RE.test(value)) return Number.parseInt(value, 10);
  // intstr `IntValue` of a string: strconv.Atoi, 0 when it is no integer.
  return /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

/** `ValidatePositiveIntOrPercent`: a non-negative integer or a `[0-9]+%` string. */
function validateIntOrPercent(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return validateNonNegative(value, field);
  if (typeof value === 'string') {
    return PERCENT_RE.test(value)
      ? []
      : [
          invalid(
            field,
            value,
            "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
          ),
        ];
  }
  return [invalid(field, value, "must be an integer or percentage (e.g '5%')")];
}

/** `IsNotMoreThan100Percent`. */
function notOver100Percent(value: unknown, field: string): FieldError[] {
  return typeof value === 'string' && PERCENT_RE.test(value) && intOrPercentValue(value) > 100
    ? [invalid(field, value, 'must not be greater than 100%')]
    : [];
}

/** How kube's messages name a workload (they reuse ReplicaSet wording for Deployments). */
interface WorkloadWords {
  /** In "empty selector is invalid for X". */
  selectorNoun: string;
  /** In "activeDeadlineSeconds in X is not Supported". */
  templateOwner: string;
  /**
   * No `Required` for a missing selector: `ValidateDaemonSetSpec` (pkg/apis/apps/validation)
   * reports only that nil selects nothing, so the template's labels do not match.
   */
  nilSelectorSelectsNothing?: true;
}

const DEPLOYMENT_WORDS: WorkloadWords = { selectorNoun: 'deployment', templateOwner: 'ReplicaSet' };

/**
 * The selector rules shared by the workloads: present, well formed, not
 * empty, and matching the template's labels. A missing selector selects
 * nothing in apimachinery, so it also fails the match, as kube reports both.
 */
function validateSelectorAndTemplate(spec: Record<string, unknown>, owner: WorkloadWords): FieldError[] {
  const errors: FieldError[] = [];
  const selector = spec.selector;
  if (selector === undefined || selector === null) {
    if (!owner.nilSelectorSelectsNothing) errors.push(required('spec.selector'));
  } else {
    errors.push(...validateLabelSelector(selector, 'spec.selector'));
    const sel = rec(selector);
    const count =
      Object.keys(rec(sel.matchLabels)).length +
      (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0);
    if (count === 0) {
      errors.push(
        invalid(
          'spec.selector',
          labelSelectorValue(selector),
          `empty selector is invalid for ${owner.selectorNoun}`,
        ),
      );
    }
  }
  const templateLabels = rec(rec(spec.template).metadata).labels;
  try {
    const parsed = labelSelectorFromObject(selector as LabelSelectorObject | undefined);
    const labels = isObject(templateLabels) ? (templateLabels as Record<string, string>) : undefined;
    if (!isEverything(parsed) && !matchesLabels(parsed, labels)) {
      errors.push(
        invalid(
          'spec.template.metadata.labels',
          templateLabels,
          '`selector` does not match template `labels`',
        ),
      );
    }
  } catch (err) {
    // A malformed selector was reported field by field above; there is nothing to match against.
    if (!(err instanceof SelectorError)) throw err;
  }
  errors.push(...validatePodTemplate(spec.template, 'spec.template'));
  if (rec(rec(spec.template).spec).activeDeadlineSeconds !== undefined) {
    errors.push(
      forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        `activeDeadlineSeconds in ${owner.templateOwner} is not Supported`,
      ),
    );
  }
  return errors;
}

function specOf(obj: KubeObject): Record<string, unknown> {
  return rec(obj.spec);
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

/** `ValidateReplicaSet` (its empty-selector message says "deployment" in kube too). */
export function validateReplicaSet(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errors = validateObjectMeta(obj);
  errors.push(...validateNonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errors.push(...validateSelectorAndTemplate(spec, DEPLOYMENT_WORDS));
  return errors;
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

/**
 * apps/v1 made workload selectors immutable (`ValidateImmutableField`): a
 * changed selector would orphan the pods the old one adopted.
 */
export function validateSelectorUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  const now = specOf(obj).selector;
  return sameJson(now, specOf(old).selector)
    ? []
    : [invalid('spec.selector', labelSelectorValue(now), 'field is immutable')];
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
