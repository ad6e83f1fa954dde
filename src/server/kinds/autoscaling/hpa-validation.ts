/**
 * A HorizontalPodAutoscaler's validation (pkg/apis/autoscaling/validation/validation.go), on the
 * autoscaling/v2 form (the internal type's layout; autoscaling/v1 objects are converted first), with
 * the options its strategy computes (pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go
 * `validationOptionsForHorizontalPodAutoscaler`): in 1.37 HPAScaleToZero is on, so minReplicas may
 * be 0 when an Object or External metric is given.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { parseQuantity } from '../../../protocol/quantity.js';
import { type JsonObject, objects, rec, str } from '../access.js';
import { validateContainerResourceName } from '../core/resource-names.js';
import { goNamedString } from '../field-value.js';
import type { FieldError } from '../types.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { isDNS1123Label, isPathSegmentName } from '../validation-names.js';

/** validation.go `MaxPeriodSeconds`, `MaxStabilizationWindowSeconds`. */
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

/** The sorted lists `sets.NewString(...).List()` gives. */
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

interface RefOptions {
  allowEmptyAPIGroup: boolean;
  allowInvalidAPIVersion: boolean;
}

/** `schema.ParseGroupVersion`'s error, or the empty-group refusal (`ValidateAPIVersion`). */
function apiVersionError(apiVersion: string, opts: RefOptions): string | undefined {
  if (opts.allowInvalidAPIVersion) return undefined;
  let group = '';
  if (apiVersion !== '' && apiVersion !== '/') {
    const parts = apiVersion.split('/');
    if (parts.length === 2) group = parts[0]!;
    else if (parts.length !== 1) return `unexpected GroupVersion string: ${apiVersion}`;
  }
  if (!opts.allowEmptyAPIGroup && group === '') return 'apiVersion must specify API group';
  return undefined;
}

/** `ValidateCrossVersionObjectReference`. */
function validateReference(ref: JsonObject, path: string, opts: RefOptions): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['kind', 'name'] as const) {
    const value = str(ref[key]);
    if (value === '') errors.push(required(`${path}.${key}`));
    else for (const msg of isPathSegmentName(value)) errors.push(invalid(`${path}.${key}`, value, msg));
  }
  const err = apiVersionError(str(ref.apiVersion), opts);
  if (err) errors.push(invalid(`${path}.apiVersion`, str(ref.apiVersion), err));
  return errors;
}

/** `validateMetricTarget`. */
function validateTarget(target: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(target.type);
  if (type === '') errors.push(required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errors.push(
      invalid(`${path}.type`, goNamedString(type), 'must be either Utilization, Value, or AverageValue'),
    );
  }
  for (const key of ['value', 'averageValue'] as const) {
    const q = target[key];
    if (q !== undefined && q !== null && quantitySign(q) !== 1) {
      errors.push(invalid(`${path}.${key}`, goNamedString(str(q)), 'must be positive'));
    }
  }
  const utilization = target.averageUtilization;
  if (typeof utilization === 'number' && utilization < 1) {
    errors.push(invalid(`${path}.averageUtilization`, utilization, 'must be greater than 0'));
  }
  return errors;
}

/** `validateMetricIdentifier`. */
function validateIdentifier(id: JsonObject, path: string): FieldError[] {
  const name = str(id.name);
  if (name === '') return [required(`${path}.name`, 'must specify a metric name')];
  return isPathSegmentName(name).map((msg) => invalid(`${path}.name`, name, msg));
}

const set = (v: unknown) => v !== undefined && v !== null;

/** A Quantity's `Sign()` (a malformed one was refused when decoded; 0 here). */
function quantitySign(q: unknown): number {
  return Math.sign(parseQuantity(q) ?? 0);
}

/** Each source's own checks (`validateObjectSource`, `validateExternalSource`, ...). */
function validateSource(kind: string, src: JsonObject, path: string, refs: RefOptions): FieldError[] {
  const target = rec(src.target);
  const errors: FieldError[] = [];
  switch (kind) {
    case 'object':
      errors.push(...validateReference(rec(src.describedObject), `${path}.describedObject`, refs));
      errors.push(
        ...validateIdentifier(rec(src.metric), `${path}.metric`),
        ...validateTarget(target, `${path}.target`),
      );
      if (!set(target.value) && !set(target.averageValue))
        errors.push(
          required(`${path}.target.averageValue`, 'must set either a target value or averageValue'),
        );
      break;
    case 'external':
      errors.push(
        ...validateIdentifier(rec(src.metric), `${path}.metric`),
        ...validateTarget(target, `${path}.target`),
      );
      if (!set(target.value) && !set(target.averageValue))
        errors.push(
          required(
            `${path}.target.averageValue`,
            'must set either a target value for metric or a per-pod target',
          ),
        );
      if (set(target.value) && set(target.averageValue))
        errors.push(
          forbidden(
            `${path}.target.value`,
            'may not set both a target value for metric and a per-pod target',
          ),
        );
      break;
    case 'pods':
      errors.push(
        ...validateIdentifier(rec(src.metric), `${path}.metric`),
        ...validateTarget(target, `${path}.target`),
      );
      if (!set(target.averageValue))
        errors.push(required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
      break;
    default: {
      // resource and containerResource
      const name = str(src.name);
      if (name === '') errors.push(required(`${path}.name`, 'must specify a resource name'));
      else if (kind === 'containerResource')
        errors.push(...validateContainerResourceName(name, `${path}.name`));
      if (kind === 'containerResource') {
        const container = str(src.container);
        if (container === '') errors.push(required(`${path}.container`, 'must specify a container'));
        else
          for (const msg of isDNS1123Label(container))
            errors.push(invalid(`${path}.container`, container, msg));
      }
      errors.push(...validateTarget(target, `${path}.target`));
      if (!set(target.averageUtilization) && !set(target.averageValue))
        errors.push(
          required(
            `${path}.target.averageUtilization`,
            'must set either a target raw value or a target utilization',
          ),
        );
      if (set(target.averageUtilization) && set(target.averageValue))
        errors.push(
          forbidden(
            `${path}.target.averageValue`,
            'may not set both a target raw value and a target utilization',
          ),
        );
    }
  }
  return errors;
}

/** The source field each metric type names. */
const SOURCE_OF: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

/** `validateMetricSpec`. */
function validateMetric(spec: JsonObject, path: string, refs: RefOptions): FieldError[] {
  const errors: FieldError[] = [];
  const type = str(spec.type);
  if (type === '') errors.push(required(`${path}.type`, 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type))
    errors.push(notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  // Only the first source present (in this order) is validated.
  const present = ['object', 'external', 'pods', 'resource', 'containerResource'].filter((k) => set(spec[k]));
  if (present.length > 0)
    errors.push(...validateSource(present[0]!, rec(spec[present[0]!]), `${path}.${present[0]}`, refs));
  const expected = SOURCE_OF[type];
  // (An unknown type's second NotSupported, from the switch's default, is the same error: the
  // reference answers it once.)
  if (expected === undefined) {
    // already refused above
  } else if (!set(spec[expected]))
    errors.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (present.length !== 1) {
    // A Go set's iteration order is random; sorted here.
    for (const typ of present.filter((k) => k !== expected).sort())
      errors.push(forbidden(`${path}.${typ}`, 'must populate the given metric source only'));
  }
  return errors;
}

/** `validateScalingRules`. */
function validateRules(rules: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0)
    errors.push(
      invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'),
    );
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS)
    errors.push(
      invalid(
        `${path}.stabilizationWindowSeconds`,
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    );
  const select = rules.selectPolicy;
  if (typeof select === 'string' && !SELECT_POLICIES.includes(select))
    errors.push(notSupported(`${path}.selectPolicy`, select, SELECT_POLICIES));
  const policies = objects(rules.policies);
  if (policies.length === 0) errors.push(required(`${path}.policies`, 'must specify at least one Policy'));
  for (const [i, policy] of policies.entries()) {
    const p = `${path}.policies[${i}]`;
    const type = str(policy.type);
    if (type !== 'Pods' && type !== 'Percent') errors.push(notSupported(`${p}.type`, type, POLICY_TYPES));
    const value = typeof policy.value === 'number' ? policy.value : 0;
    if (value <= 0) errors.push(invalid(`${p}.value`, value, 'must be greater than zero'));
    const period = typeof policy.periodSeconds === 'number' ? policy.periodSeconds : 0;
    if (period <= 0) errors.push(invalid(`${p}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS)
      errors.push(
        invalid(`${p}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`),
      );
  }
  if (set(rules.tolerance) && quantitySign(rules.tolerance) < 0)
    errors.push(invalid(`${path}.tolerance`, str(rules.tolerance), 'must be greater than or equal to 0'));
  return errors;
}

/** The strategy's options for the scale target's and Object metrics' references. */
function referenceOptions(
  spec: JsonObject,
  old: JsonObject | undefined,
): { target: RefOptions; objects: RefOptions } {
  const ref = rec(spec.scaleTargetRef);
  const oldRef = old ? rec(rec(old.spec).scaleTargetRef) : undefined;
  const target = { allowEmptyAPIGroup: false, allowInvalidAPIVersion: false };
  if (oldRef && str(oldRef.apiVersion) === str(ref.apiVersion) && str(oldRef.kind) === str(ref.kind))
    target.allowInvalidAPIVersion = true;
  else if (str(ref.kind) === 'ReplicationController') target.allowEmptyAPIGroup = true;
  const objectRefs = { allowEmptyAPIGroup: true, allowInvalidAPIVersion: false };
  for (const metric of objects(old ? rec(old.spec).metrics : undefined)) {
    if (str(metric.type) !== 'Object' || !set(metric.object)) continue;
    if (apiVersionError(str(rec(rec(metric.object).describedObject).apiVersion), objectRefs) !== undefined) {
      objectRefs.allowInvalidAPIVersion = true;
      break;
    }
  }
  return { target, objects: objectRefs };
}

/**
 * The errors of the beta declarative rules (zz_generated.validations.go, `+k8s:minimum` and
 * `+k8s:required` on minReplicas and maxReplicas), which replace the hand-written ones they cover
 * and come after every hand-written error, as `ValidateDeclaratively` merges them. (The alpha
 * ones, scaleTargetRef's kind and name, stay hand-written.)
 */
function declarativeSpecErrors(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const min = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (min !== undefined && min < 0)
    errors.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 0'));
  if (max === 0) errors.push(required('spec.maxReplicas'));
  else if (max < 1) errors.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to 1'));
  return errors;
}

/** `validateHorizontalPodAutoscalerSpec` (minReplicas' lower bound is 0: HPAScaleToZero is on in 1.37) but the declarative rules. */
function validateSpec(spec: JsonObject, old: JsonObject | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const refs = referenceOptions(spec, old);
  const min = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (min !== undefined && max < min)
    errors.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errors.push(...validateReference(rec(spec.scaleTargetRef), 'spec.scaleTargetRef', refs.target));
  const metrics = objects(spec.metrics);
  for (const [i, metric] of metrics.entries())
    errors.push(...validateMetric(metric, `spec.metrics[${i}]`, refs.objects));
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External'))
    errors.push(
      forbidden(
        'spec.metrics',
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  if (set(spec.behavior)) {
    const behavior = rec(spec.behavior);
    for (const key of ['scaleUp', 'scaleDown'] as const)
      if (set(behavior[key])) errors.push(...validateRules(rec(behavior[key]), `spec.behavior.${key}`));
  }
  return errors;
}

/** `ValidateHorizontalPodAutoscaler` / `...Update` on the v2 form. */
export function validateHpa(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = old ? [] : validateObjectMeta(obj);
  errors.push(...validateSpec(rec(obj.spec), old as JsonObject | undefined));
  errors.push(...declarativeSpecErrors(rec(obj.spec)));
  return errors;
}

/** `ValidateHorizontalPodAutoscalerStatusUpdate` on the v2 form. */
export function validateHpaStatus(obj: KubeObject): FieldError[] {
  const status = rec(obj.status);
  const errors: FieldError[] = [];
  for (const [i, condition] of objects(status.conditions).entries()) {
    if (typeof condition.observedGeneration === 'number')
      errors.push(
        ...validateNonNegative(condition.observedGeneration, `status.conditions[${i}].observedGeneration`),
      );
  }
  errors.push(...validateNonNegative(status.currentReplicas ?? 0, 'status.currentReplicas'));
  errors.push(...validateNonNegative(status.desiredReplicas ?? 0, 'status.desiredReplicas'));
  return errors;
}
