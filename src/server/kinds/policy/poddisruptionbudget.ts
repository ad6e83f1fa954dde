/**
 * The PodDisruptionBudget (policy/v1): its strategy (pkg/registry/policy/poddisruptionbudget/
 * strategy.go: status reset on create and kept on update, generation 1 and bumped by a spec
 * change, the v1beta1 marker label stripped from a changed selector), validation
 * (pkg/apis/policy/validation `ValidatePodDisruptionBudgetSpec`,
 * `ValidatePodDisruptionBudgetStatusUpdate`) and Table columns (printers.go
 * `printPodDisruptionBudget`). policy/v1 has no defaulting function.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, type JsonObject, num, objects, rec, sameJson, specOf, statusOf } from '../access.js';
import { notOver100Percent, validateIntOrPercent } from '../apps/workload-validation.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import { goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import {
  invalid,
  labelSelectorValue,
  notSupported,
  validateLabelSelector,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { isPathSegmentName } from '../validation-names.js';
import { validateConditions } from './conditions.js';

/** The status integers Go writes even at 0 (no `omitempty` in policy/v1 PodDisruptionBudgetStatus). */
const STATUS_COUNTS = ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const;

/** The label policy/v1beta1 used for its match-all and match-none selectors (policy `PDBV1beta1Label`). */
const V1BETA1_LABEL = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector';

/** The status as a decoded Go object has it: there, with its counts 0 when absent. */
export function defaultPodDisruptionBudget(obj: KubeObject): void {
  if (!isObject(obj.status)) obj.status = {};
  const status = obj.status as JsonObject;
  for (const f of STATUS_COUNTS) if (status[f] === undefined || status[f] === null) status[f] = 0;
}

/**
 * The strategy's `dropDisabledFields`: a selector other than v1beta1's match-all or match-none
 * loses any expression on the marker label, so users cannot mix it with their own.
 */
function stripV1beta1Label(obj: KubeObject, old?: KubeObject): void {
  const selector = rec(specOf(obj)).selector;
  if (!isObject(selector)) return;
  if (old && sameJson(selector, specOf(old).selector)) return;
  const expressions = objects(selector.matchExpressions);
  const marker = (op: string) =>
    Object.keys(rec(selector.matchLabels)).length === 0 &&
    expressions.length === 1 &&
    expressions[0].key === V1BETA1_LABEL &&
    expressions[0].operator === op &&
    (expressions[0].values === undefined ||
      (Array.isArray(expressions[0].values) && expressions[0].values.length === 0));
  if (marker('Exists') || marker('DoesNotExist')) return;
  if (!Array.isArray(selector.matchExpressions)) return;
  const kept = expressions.filter((e) => e.key !== V1BETA1_LABEL);
  if (kept.length === expressions.length) return;
  selector.matchExpressions = kept;
}

/** PrepareForCreate: status empty (reset by the generic create), generation 1, selector cleaned. */
function preparePodDisruptionBudgetCreate(obj: KubeObject): void {
  stripV1beta1Label(obj);
}

/** PrepareForUpdate: the selector cleaned when it changed. */
function preparePodDisruptionBudgetUpdate(obj: KubeObject, old: KubeObject): void {
  stripV1beta1Label(obj, old);
}

/**
 * The internal PodDisruptionBudgetSpec as `field.Invalid` prints it (json.Marshal of a struct
 * without json tags: Go field names in declaration order, nil pointers as null).
 */
function specValue(spec: JsonObject) {
  const orNull = (v: unknown) => (v === undefined ? null : v);
  return goStruct([
    ['MinAvailable', orNull(spec.minAvailable)],
    ['Selector', labelSelectorValue(spec.selector)],
    ['MaxUnavailable', orNull(spec.maxUnavailable)],
    ['UnhealthyPodEvictionPolicy', orNull(spec.unhealthyPodEvictionPolicy)],
  ]);
}

/** `ValidatePodDisruptionBudgetSpec`. */
export function validatePodDisruptionBudgetSpec(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable)) {
    errors.push(invalid('spec', specValue(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const f of ['minAvailable', 'maxUnavailable'] as const) {
    if (!has(spec[f])) continue;
    errors.push(...validateIntOrPercent(spec[f], `spec.${f}`));
    errors.push(...notOver100Percent(spec[f], `spec.${f}`));
  }
  errors.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (has(policy) && policy !== 'IfHealthyBudget' && policy !== 'AlwaysAllow') {
    errors.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, ['AlwaysAllow', 'IfHealthyBudget']));
  }
  return errors;
}

/** `ValidatePodDisruptionBudgetStatusUpdate` (policy/v1): conditions, and no negative count. */
export function validatePodDisruptionBudgetStatus(status: JsonObject): FieldError[] {
  const errors = validateConditions(status.conditions, 'status.conditions');
  for (const f of STATUS_COUNTS) errors.push(...validateNonNegative(status[f], `status.${f}`));
  return errors;
}

/**
 * The strategy's Validate and ValidateUpdate with the generic metadata rules where
 * rest.BeforeCreate and BeforeUpdate put them: on a create after the spec's errors and only
 * when there are none (rest.ValidateCreate), on an update first (validateCommonFields). An
 * update through the main resource keeps the stored status and one through /status the stored
 * spec, so checking both here answers each as its own strategy does.
 */
export function validatePodDisruptionBudget(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = validatePodDisruptionBudgetSpec(rec(obj.spec));
  if (!old) return spec.length > 0 ? spec : validateObjectMeta(obj, isPathSegmentName);
  return [
    ...validateObjectMeta(obj, isPathSegmentName),
    ...spec,
    ...validatePodDisruptionBudgetStatus(statusOf(obj)),
  ];
}

/** `IntOrString.String()`, or `N/A` for an unset bound. */
function boundCell(value: unknown): string {
  if (value === undefined || value === null) return 'N/A';
  return String(value);
}

/** The PodDisruptionBudget's entry in the served kinds. */
export const podDisruptionBudgetKind = builtinKind('policy', 'v1', 'poddisruptionbudgets', {
  generationFields: ['spec'],
  defaults: defaultPodDisruptionBudget,
  prepareForCreate: preparePodDisruptionBudgetCreate,
  prepareForUpdate: preparePodDisruptionBudgetUpdate,
  validate: validatePodDisruptionBudget,
  allowUnconditionalUpdate: false,
  cells: {
    'Min Available': (o) => boundCell(specOf(o).minAvailable),
    'Max Unavailable': (o) => boundCell(specOf(o).maxUnavailable),
    'Allowed Disruptions': (o) => num(statusOf(o).disruptionsAllowed),
    Age: ageColumn.cell,
  },
});
