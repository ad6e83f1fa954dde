/**
 * The parts of a device that slices and allocation results share or that few devices use
 * (pkg/apis/resource/validation): binding conditions (`validateDeviceBindingParameters`: label
 * names, at most 4 of each as declarative validation reports it, no duplicates, no overlap, both
 * lists or neither), a version attribute's semver form, and a capacity's request policy as far as
 * its form goes (`validateSingleAllocatableDeviceCapacity`, `validateRequestPolicy`: only for a
 * device allowing multiple allocations, one kind of policy, a default). The policies' value
 * comparisons are not made here.
 */

import { arr, isObject, rec, str } from '../access.js';
import { tooMany } from '../declarative.js';
import type { FieldError } from '../types.js';
import { duplicate, forbidden, invalid, required } from '../validation.js';
import { validateLabelName } from './names.js';

/** `resource.BindingConditionsMaxSize` and `BindingFailureConditionsMaxSize`. */
const MAX_CONDITIONS = 4;

const SEMVER_RE =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;

/** `validateDeviceAttributeVersionValue`'s form check. */
export function validateVersionValue(value: string, path: string): FieldError[] {
  return SEMVER_RE.test(value)
    ? []
    : [invalid(path, value, 'must be a string compatible with semver.org spec 2.0.0')];
}

/** `validateDeviceBindingParameters` of a device (or allocation result) at `path`: handwritten, declarative. */
export function validateBindingParameters(
  holder: Record<string, unknown>,
  path: string,
): [FieldError[], FieldError[]] {
  const hand: FieldError[] = [];
  const dv: FieldError[] = [];
  const conditions = arr(holder.bindingConditions).map(str);
  const failures = arr(holder.bindingFailureConditions).map(str);
  for (const [list, name] of [
    [conditions, 'bindingConditions'],
    [failures, 'bindingFailureConditions'],
  ] as const) {
    if (list.length > MAX_CONDITIONS) dv.push(tooMany(`${path}.${name}`, list.length, MAX_CONDITIONS));
    else {
      list.forEach((c, i) => {
        hand.push(...validateLabelName(c, `${path}.${name}[${i}]`));
      });
    }
  }
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    if (seen.has(c)) hand.push(duplicate(`${path}.bindingConditions[${i}]`, c));
    seen.add(c);
  });
  const seenFailures = new Set<string>();
  failures.forEach((c, i) => {
    const at = `${path}.bindingFailureConditions[${i}]`;
    if (seenFailures.has(c)) hand.push(duplicate(at, c));
    seenFailures.add(c);
    if (conditions.includes(c))
      hand.push(invalid(at, c, 'bindingFailureConditions must not overlap with bindingConditions'));
  });
  if (conditions.length === 0 && failures.length > 0) {
    hand.push(
      invalid(
        `${path}.bindingConditions`,
        Array.isArray(holder.bindingConditions) ? [] : null,
        'bindingConditions are required to use bindingFailureConditions',
      ),
    );
  }
  if (failures.length === 0 && conditions.length > 0) {
    hand.push(
      invalid(
        `${path}.bindingFailureConditions`,
        Array.isArray(holder.bindingFailureConditions) ? [] : null,
        'bindingFailureConditions are required to use bindingConditions',
      ),
    );
  }
  return [hand, dv];
}

/** A capacity's request policy, as far as its form goes (see the file comment). */
export function validateCapacityPolicy(capacity: unknown, multiple: boolean, path: string): FieldError[] {
  const policy = rec(capacity).requestPolicy;
  if (!isObject(policy)) return [];
  const at = `${path}.requestPolicy`;
  if (!multiple) return [forbidden(at, 'allowMultipleAllocations must be true')];
  const values = arr(policy.validValues);
  if (values.length > 0 && isObject(policy.validRange)) {
    return [
      forbidden(
        at,
        'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time',
      ),
    ];
  }
  const hasDefault = policy.default !== undefined && policy.default !== null;
  if (values.length > 0 && !hasDefault)
    return [required(`${at}.default`, 'required when validValues is defined')];
  if (isObject(policy.validRange)) {
    if (!hasDefault) return [required(`${at}.default`, 'required when validRange is defined')];
    const range = policy.validRange;
    if (range.min === undefined || range.min === null)
      return [required(`${at}.validRange.min`, 'required when validRange is defined')];
  }
  return [];
}
