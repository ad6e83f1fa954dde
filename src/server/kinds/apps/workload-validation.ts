/**
 * The validation the apps/v1 workloads share (pkg/apis/apps/validation): int-or-percent
 * fields, the selector and its pod template, and the selector's immutability.
 */

import type { KubeObject } from '../../../protocol/events.js';
import {
  isEverything,
  type LabelSelectorObject,
  labelSelectorFromObject,
  matchesLabels,
  SelectorError,
} from '../../../protocol/labels.js';
import { isObject, rec, sameJson, specOf } from '../access.js';
import { validatePodTemplate } from '../core/pod/validation.js';
import type { FieldError } from '../types.js';
import {
  forbidden,
  invalid,
  labelSelectorValue,
  required,
  validateLabelSelector,
  validateNonNegative,
} from '../validation.js';

const PERCENT_RE = /^[0-9]+%$/;

/** An IntOrString's magnitude (`getIntOrPercentValue`): 5 for 5 and for "5%". */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  if (PERCENT_RE.test(value)) return Number.parseInt(value, 10);
  // intstr `IntValue` of a string: strconv.Atoi, 0 when it is no integer.
  return /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

/** `ValidatePositiveIntOrPercent`: a non-negative integer or a `[0-9]+%` string. */
export function validateIntOrPercent(value: unknown, field: string): FieldError[] {
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
export function notOver100Percent(value: unknown, field: string): FieldError[] {
  return typeof value === 'string' && PERCENT_RE.test(value) && intOrPercentValue(value) > 100
    ? [invalid(field, value, 'must not be greater than 100%')]
    : [];
}

/** How kube's messages name a workload (they reuse ReplicaSet wording for Deployments). */
export interface WorkloadWords {
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

export const DEPLOYMENT_WORDS: WorkloadWords = { selectorNoun: 'deployment', templateOwner: 'ReplicaSet' };

/**
 * The selector rules shared by the workloads: present, well formed, not
 * empty, and matching the template's labels. A missing selector selects
 * nothing in apimachinery, so it also fails the match, as kube reports both.
 */
export function validateSelectorAndTemplate(
  spec: Record<string, unknown>,
  owner: WorkloadWords,
): FieldError[] {
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
