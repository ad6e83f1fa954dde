/**
 * A Job's status rules on a `/status` write (pkg/apis/batch/validation `validateJobStatus` and
 * `ValidateJobStatusUpdate`, with the options pkg/registry/batch/job/strategy.go
 * `getStatusValidationOptions` gives them under JobManagedBy, locked on in 1.37): counters that
 * never go down, terminal conditions that stay, and the transitions a controller (the Job
 * controller or another one named by `spec.managedBy`) may make, each checked only when the
 * fields it reads changed. The index formats of Indexed Jobs are not checked here.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { objects, rec, sameJson, specOf, statusOf } from '../access.js';
import { goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import { duplicate, FieldErrorType, invalid, required, validateNonNegative } from '../validation.js';

/** `field.Invalid` with `field.OmitValueType{}`: no value in the message. */
function invalidOmitted(field: string, detail: string): FieldError {
  return { type: FieldErrorType.Invalid, field, message: `Invalid value: ${detail}` };
}

function conditionIs(obj: KubeObject, type: string, status: string): boolean {
  return objects(statusOf(obj).conditions).some((c) => c.type === type && c.status === status);
}

const isTrue = (obj: KubeObject, type: string) => conditionIs(obj, type, 'True');
const complete = (obj: KubeObject) => isTrue(obj, 'Complete');
const failed = (obj: KubeObject) => isTrue(obj, 'Failed');
const finished = (obj: KubeObject) => complete(obj) || failed(obj);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const present = (v: unknown) => v !== undefined && v !== null;

/** The status rules of a Job whose status a write changed; `old` is the stored Job. */
export function validateJobStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const s = statusOf(obj);
  const o = statusOf(old);
  const spec = specOf(obj);
  const errors: FieldError[] = [];
  const changed = (f: string) => !sameJson(s[f] ?? null, o[f] ?? null);
  const flipped = (f: (j: KubeObject) => boolean) => f(old) !== f(obj);
  const finishedChanged = flipped(finished);
  const completeChanged = flipped(complete);
  const failedChanged = flipped(failed);
  const failureTargetChanged = flipped((j) => isTrue(j, 'FailureTarget'));
  const criteriaChanged = flipped((j) => isTrue(j, 'SuccessCriteriaMet'));
  const suspendedZero = spec.suspend === true && spec.completions === 0;
  const resuming = conditionIs(old, 'Suspended', 'True') && conditionIs(obj, 'Suspended', 'False');
  const isFinished = finished(obj);

  for (const f of ['active', 'succeeded', 'failed']) errors.push(...validateNonNegative(s[f], `status.${f}`));
  errors.push(...validateNonNegative(s.ready, 'status.ready'));
  errors.push(...validateNonNegative(s.terminating, 'status.terminating'));
  const uncounted = rec(s.uncountedTerminatedPods);
  const seen = new Set<unknown>();
  for (const list of ['succeeded', 'failed']) {
    const items = Array.isArray(uncounted[list]) ? (uncounted[list] as unknown[]) : [];
    items.forEach((uid, i) => {
      const p = `status.uncountedTerminatedPods.${list}[${i}]`;
      if (uid === '') errors.push(invalid(p, uid, 'must not be empty'));
      else if (seen.has(uid)) errors.push(duplicate(p, uid));
      else seen.add(uid);
    });
  }
  if ((completeChanged || failedChanged) && complete(obj) && failed(obj)) {
    errors.push(invalidOmitted('status.conditions', 'cannot set Complete=True and Failed=true conditions'));
  }
  if ((completeChanged || failureTargetChanged) && complete(obj) && isTrue(obj, 'FailureTarget')) {
    errors.push(
      invalidOmitted('status.conditions', 'cannot set Complete=True and FailureTarget=true conditions'),
    );
  }
  if (completeChanged || changed('completionTime')) {
    if (present(s.completionTime) && !complete(obj)) {
      errors.push(
        invalid(
          'status.completionTime',
          s.completionTime,
          'cannot set completionTime when there is no Complete=True condition',
        ),
      );
    }
    if (!present(s.completionTime) && complete(obj)) {
      errors.push(required('status.completionTime', 'completionTime is required for Complete jobs'));
    }
  }
  if (
    (changed('startTime') || changed('completionTime')) &&
    present(s.startTime) &&
    present(s.completionTime)
  ) {
    if (Date.parse(String(s.completionTime)) < Date.parse(String(s.startTime))) {
      errors.push(
        invalid('status.completionTime', s.completionTime, 'must be equal to or after `startTime`'),
      );
    }
  }
  if ((failedChanged || changed('failedIndexes')) && failed(obj) && !isTrue(obj, 'FailureTarget')) {
    errors.push(
      invalidOmitted(
        'status.conditions',
        'cannot set Failed=True condition without the FailureTarget=true condition',
      ),
    );
  }
  if ((completeChanged || criteriaChanged) && complete(obj) && !isTrue(obj, 'SuccessCriteriaMet')) {
    errors.push(
      invalidOmitted(
        'status.conditions',
        'cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
      ),
    );
  }
  if ((finishedChanged || changed('active')) && num(s.active) > 0 && isFinished) {
    errors.push(invalid('status.active', s.active, 'active>0 is invalid for finished job'));
  }
  if ((finishedChanged || changed('startTime')) && !suspendedZero && !present(s.startTime) && isFinished) {
    errors.push(required('status.startTime', 'startTime is required for finished job'));
  }
  if (finishedChanged || changed('uncountedTerminatedPods')) {
    const count = [uncounted.succeeded, uncounted.failed].flat().filter((x) => x !== undefined).length;
    if (isFinished && present(s.uncountedTerminatedPods) && count > 0) {
      errors.push(
        invalid(
          'status.uncountedTerminatedPods',
          // The internal UncountedTerminatedPods struct, untagged: its Go field names.
          goStruct([
            ['Succeeded', Array.isArray(uncounted.succeeded) ? uncounted.succeeded : null],
            ['Failed', Array.isArray(uncounted.failed) ? uncounted.failed : null],
          ]),
          'must be empty for finished job',
        ),
      );
    }
  }
  if (
    changed('completedIndexes') &&
    spec.completionMode !== 'Indexed' &&
    typeof s.completedIndexes === 'string' &&
    s.completedIndexes !== ''
  ) {
    errors.push(
      invalid(
        'status.completedIndexes',
        s.completedIndexes,
        'cannot set non-empty completedIndexes when non-indexed completion mode',
      ),
    );
  }
  if (changed('failedIndexes') && !present(spec.backoffLimitPerIndex) && present(s.failedIndexes)) {
    errors.push(
      invalid(
        'status.failedIndexes',
        s.failedIndexes,
        'cannot set non-null failedIndexes when backoffLimitPerIndex is null',
      ),
    );
  }
  if ((finishedChanged || changed('terminating')) && num(s.terminating) > 0 && isFinished) {
    errors.push(invalid('status.terminating', s.terminating, 'terminating>0 is invalid for finished job'));
  }
  if ((changed('ready') || changed('active')) && present(s.ready) && num(s.ready) > num(s.active)) {
    errors.push(invalid('status.ready', s.ready, 'cannot set more ready pods than active'));
  }
  const criteria = isTrue(obj, 'SuccessCriteriaMet');
  if (criteria && failed(obj)) {
    errors.push(
      invalidOmitted('status.conditions', 'cannot set SuccessCriteriaMet=True and Failed=true conditions'),
    );
  }
  if (criteria && isTrue(obj, 'FailureTarget')) {
    errors.push(
      invalidOmitted(
        'status.conditions',
        'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions',
      ),
    );
  }
  if (present(spec.successPolicy) && !criteria && complete(obj)) {
    errors.push(
      invalidOmitted(
        'status.conditions',
        'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True',
      ),
    );
  }
  // ValidateJobStatusUpdate's own transitions.
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (isTrue(old, type) && !isTrue(obj, type)) {
      errors.push(invalidOmitted('status.conditions', `cannot disable the terminal ${type}=True condition`));
    }
  }
  if (num(s.failed) < num(o.failed))
    errors.push(invalid('status.failed', num(s.failed), 'cannot decrease the failed counter'));
  const indexed = spec.completionMode === 'Indexed';
  const rejectDecreasingSucceeded = !indexed || !sameJson(spec.completions ?? null, spec.parallelism ?? null);
  if (rejectDecreasingSucceeded && num(s.succeeded) < num(o.succeeded)) {
    errors.push(invalid('status.succeeded', num(s.succeeded), 'cannot decrease the succeeded counter'));
  }
  if (present(s.completionTime) && present(o.completionTime) && s.completionTime !== o.completionTime) {
    errors.push(invalid('status.completionTime', s.completionTime, 'field is immutable'));
  }
  if (changed('startTime') && !resuming && present(o.startTime) && spec.suspend !== true) {
    errors.push(
      invalid('status.startTime', s.startTime ?? null, 'field is immutable for unsuspended job once set'),
    );
  }
  if (isTrue(old, 'SuccessCriteriaMet') && !criteria) {
    errors.push(invalidOmitted('status.conditions', 'cannot disable the SuccessCriteriaMet=True condition'));
  }
  if (complete(old) && !isTrue(old, 'SuccessCriteriaMet') && criteria) {
    errors.push(
      invalidOmitted(
        'status.conditions',
        'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions',
      ),
    );
  }
  return errors;
}
