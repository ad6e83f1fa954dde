/**
 * The CronJob (batch/v1): defaults (pkg/apis/batch/v1/defaults.go `SetDefaults_CronJob` and the
 * job template's generated defaults), validation (pkg/apis/batch/validation `ValidateCronJobCreate`,
 * `ValidateCronJobUpdate`, `validateCronJobSpec`, `ValidateJobTemplateSpec`), its strategy
 * (pkg/registry/batch/cronjob/strategy.go: spec changes bump the generation) and Table columns
 * (printers.go `printCronJob`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, isObject, objects, rec, setDefault, setIfAbsent, specOf, statusOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { formatSelectorCell } from '../columns.js';
import { defaultPodTemplateSpec } from '../core/pod/defaults.js';
import type { FieldError, ResourceKind } from '../types.js';
import {
  invalid,
  labelSelectorValue,
  notSupported,
  required,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { cronScheduleError, loadLocationError } from './cron-schedule.js';
import { templateContainers } from './job.js';
import { validateJobSpecFields } from './job-validation.js';

/**
 * `SetObjectDefaults_CronJob`: Allow concurrency, not suspended, 3 successful and 1 failed Jobs
 * kept; the job template gets only its pod template's and failure policy's defaults (not
 * SetDefaults_Job's: a Job made from it is defaulted when it is created).
 */
export function defaultCronJob(obj: KubeObject): void {
  // The status is a struct: written back as `{}` when a /status write sends none.
  child(obj, 'status');
  const spec = child(obj, 'spec');
  if (!spec) return;
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  setIfAbsent(spec, 'suspend', false);
  setIfAbsent(spec, 'successfulJobsHistoryLimit', 3);
  setIfAbsent(spec, 'failedJobsHistoryLimit', 1);
  const jobTemplate = child(spec, 'jobTemplate');
  // JobTemplateSpec's metadata is a struct: written back as `{}`.
  if (jobTemplate) child(jobTemplate, 'metadata');
  const jobSpec = jobTemplate && child(jobTemplate, 'spec');
  if (!jobSpec) return;
  for (const rule of objects(rec(jobSpec.podFailurePolicy).rules)) {
    for (const pattern of objects(rule.onPodConditions)) setIfAbsent(pattern, 'status', 'True');
  }
  const template = child(jobSpec, 'template');
  if (template) defaultPodTemplateSpec(template);
}

// https://data.iana.org/time-zones/theory.html#naming, as validation.go allows a name's parts.
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** `validateTimeZone`: absent, or an explicit IANA zone name the zone database knows. */
function validateTimeZone(value: unknown): FieldError[] {
  if (typeof value !== 'string') return [];
  const path = 'spec.timeZone';
  if (value === '') return [invalid(path, value, 'timeZone must be nil or non-empty string')];
  for (const part of value.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) {
      return [invalid(path, value, `unknown time zone ${value}`)];
    }
  }
  const errors: FieldError[] = [];
  if (value.toLowerCase() === 'local') {
    errors.push(
      invalid(
        path,
        value,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  }
  const bad = loadLocationError(value);
  if (bad) errors.push(invalid(path, value, bad));
  return errors;
}

/** `validateScheduleFormat`: it parses, and names no zone (TZ/CRON_TZ) unless it already did. */
function validateSchedule(schedule: string, allowTZ: boolean, timeZone: unknown): FieldError[] {
  const path = 'spec.schedule';
  const errors: FieldError[] = [];
  const bad = cronScheduleError(schedule);
  if (bad !== undefined) errors.push(invalid(path, schedule, bad));
  if (allowTZ && schedule.includes('TZ') && typeof timeZone === 'string') {
    errors.push(invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    errors.push(invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errors;
}

const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

/** `validateCronJobSpec`. */
function validateCronJobSpec(spec: Record<string, unknown>, oldSpec?: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const schedule = str(spec.schedule);
  if (schedule !== '')
    errors.push(...validateSchedule(schedule, str(oldSpec?.schedule).includes('TZ'), spec.timeZone));
  errors.push(...validateNonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!oldSpec || (oldSpec.timeZone ?? null) !== (spec.timeZone ?? null)) {
    errors.push(...validateTimeZone(spec.timeZone));
  }
  const policy = str(spec.concurrencyPolicy);
  if (policy === '') errors.push(required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy))
    errors.push(notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  // ValidateJobTemplateSpec: the Job's spec rules; a template's selector is always generated.
  const jobSpec = rec(rec(spec.jobTemplate).spec);
  errors.push(...validateJobSpecFields(jobSpec, 'spec.jobTemplate.spec'));
  if (isObject(jobSpec.selector)) {
    errors.push(
      invalid(
        'spec.jobTemplate.spec.selector',
        labelSelectorValue(jobSpec.selector),
        '`selector` will be auto-generated',
      ),
    );
  }
  if (jobSpec.manualSelector === true) {
    errors.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  }
  errors.push(...validateNonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errors.push(...validateNonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errors;
}

/**
 * `ValidateCronJobCreate` (a name of at most 52 characters, so the controller's Jobs, suffixed
 * `-<11 digits>`, fit in 63) and `ValidateCronJobUpdate` (no name limit, so old CronJobs can
 * still be changed and deleted).
 */
export function validateCronJob(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = [...validateObjectMeta(obj), ...validateCronJobSpec(specOf(obj), old && specOf(old))];
  const name = str(obj.metadata?.name);
  if (!old && name.length > 52)
    errors.push(invalid('metadata.name', name, 'must be no more than 52 characters'));
  // A missing schedule is declarative validation's (`+k8s:required`, beta): its errors follow
  // the hand-written ones (zz_generated.validations.go `Validate_CronJobSpec`).
  if (str(specOf(obj).schedule) === '') errors.push(required('spec.schedule'));
  return errors;
}

/** Drops `spec.scheduling` from the job template (WorkloadWithJob is off) unless it was there. */
function dropScheduling(obj: KubeObject, old?: KubeObject): void {
  const jobSpec = rec(rec(specOf(obj).jobTemplate).spec);
  if (!old || rec(rec(specOf(old).jobTemplate).spec).scheduling == null) delete jobSpec.scheduling;
}

const jobTemplateSpec = (o: KubeObject) => rec(rec(specOf(o).jobTemplate).spec);

/** The CronJob's entry in the served kinds. */
export const cronJobKind: ResourceKind = builtinKind('batch', 'v1', 'cronjobs', {
  generationFields: ['spec'],
  defaults: defaultCronJob,
  prepareForCreate: (obj) => dropScheduling(obj),
  prepareForUpdate: dropScheduling,
  validate: validateCronJob,
  cells: {
    Schedule: (o) => str(specOf(o).schedule),
    Timezone: (o) => (typeof specOf(o).timeZone === 'string' ? (specOf(o).timeZone as string) : '<none>'),
    Suspend: (o) => {
      const s = specOf(o).suspend;
      return typeof s === 'boolean' ? (s ? 'True' : 'False') : '<unset>';
    },
    Active: (o) => objects(statusOf(o).active).length,
    'Last Schedule': (o, now) =>
      statusOf(o).lastScheduleTime ? translateTimestampSince(statusOf(o).lastScheduleTime, now) : '<none>',
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    Containers: (o) => templateContainers(jobTemplateSpec(o).template, 'name'),
    Images: (o) => templateContainers(jobTemplateSpec(o).template, 'image'),
    Selector: (o) => formatSelectorCell(jobTemplateSpec(o).selector),
  },
});
