/**
 * The Job's validation (pkg/apis/batch/validation/validation.go): `ValidateJobCreate` with the
 * generated selector's rules (`validateGeneratedSelector`), the JobSpec's own rules
 * (`validateJobSpec`, shared with a CronJob's job template), the update rules
 * (`ValidateJobSpecUpdate`) and the status rules (`validateJobStatus`, `ValidateJobStatusUpdate`)
 * as kube-apiserver 1.37 runs them with JobManagedBy locked on.
 */

import type { KubeObject } from '../../../protocol/events.js';
import {
  isEverything,
  type LabelSelectorObject,
  labelSelectorFromObject,
  matchesLabels,
  SelectorError,
} from '../../../protocol/labels.js';
import { isObject, objects, rec, sameJson, specOf, str, stringMap } from '../access.js';
import { validatePodTemplateSpec } from '../core/pod/validation.js';
import type { FieldError } from '../types.js';
import {
  invalid,
  labelSelectorValue,
  notSupported,
  required,
  validateLabelSelector,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { isDNS1123Label } from '../validation-names.js';
import { validateJobStatusUpdate } from './job-status-validation.js';
import { immutableTemplateErrors } from './job-template-update.js';

/** pkg/apis/batch/types.go: the labels a generated selector and its template carry. */
export const JOB_LABELS = {
  legacyControllerUid: 'controller-uid',
  legacyJobName: 'job-name',
  controllerUid: 'batch.kubernetes.io/controller-uid',
  jobName: 'batch.kubernetes.io/job-name',
} as const;

const MAX_PARALLELISM_INDEXED = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;

/** `ValidateHasLabel`: the template must carry `key` with `expected`. */
function hasLabel(labels: Record<string, unknown>, key: string, expected: string): FieldError[] {
  const path = `spec.template.metadata.labels[${key}]`;
  if (!Object.hasOwn(labels, key)) return [required(path, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalid(path, labels, `must be '${expected}'`)];
}

/** A parsed selector, undefined when it does not parse (reported field by field elsewhere). */
function parseSelector(selector: unknown) {
  try {
    return labelSelectorFromObject(selector as LabelSelectorObject | undefined);
  } catch (err) {
    if (err instanceof SelectorError) return undefined;
    throw err;
  }
}

/**
 * `validateGeneratedSelector`: unless the selector is manual, the template carries the labels
 * `generateSelector` wrote (the prefixed ones too on create, `RequirePrefixedLabels`) and the
 * selector selects them.
 */
function validateGeneratedSelector(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  if (spec.manualSelector === true || !isObject(spec.selector)) return [];
  const errors: FieldError[] = [];
  const uid = str(obj.metadata?.uid);
  const name = str(obj.metadata?.name);
  if (uid === '') errors.push(required('metadata.uid'));
  const labels = rec(rec(rec(spec.template).metadata).labels);
  errors.push(...hasLabel(labels, JOB_LABELS.legacyControllerUid, uid));
  errors.push(...hasLabel(labels, JOB_LABELS.legacyJobName, name));
  errors.push(...hasLabel(labels, JOB_LABELS.controllerUid, uid));
  errors.push(...hasLabel(labels, JOB_LABELS.jobName, name));
  const expected = {
    [JOB_LABELS.controllerUid]: uid,
    [JOB_LABELS.jobName]: name,
    [JOB_LABELS.legacyControllerUid]: uid,
    [JOB_LABELS.legacyJobName]: name,
  };
  const selector = parseSelector(spec.selector);
  if (selector && !matchesLabels(selector, expected)) {
    errors.push(invalid('spec.selector', labelSelectorValue(spec.selector), '`selector` not auto-generated'));
  }
  return errors;
}

/** `validateNameAllowsCompletions`: an Indexed Job's last pod hostname must be a DNS label. */
function validateNameAllowsCompletions(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  if (spec.completionMode !== 'Indexed' || typeof spec.completions !== 'number' || spec.completions <= 0)
    return [];
  const name = str(obj.metadata?.name);
  const hostname = `${name}-${spec.completions - 1}`;
  return isDNS1123Label(hostname).length > 0
    ? [invalid('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`)]
    : [];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * `validateJobSpec`: the counts, the completion mode's rules, the failure and success policies,
 * the pod replacement policy and the pod template (any restart policy but Always). `path` is
 * `spec` for a Job, `spec.jobTemplate.spec` for a CronJob's.
 */
export function validateJobSpecFields(spec: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
  ]) {
    errors.push(...validateNonNegative(spec[f], `${path}.${f}`));
  }
  const completions = num(spec.completions);
  const parallelism = num(spec.parallelism);
  const perIndex = num(spec.backoffLimitPerIndex);
  const maxFailed = num(spec.maxFailedIndexes);
  if (maxFailed !== undefined) {
    errors.push(...validateNonNegative(maxFailed, `${path}.maxFailedIndexes`));
    if (perIndex === undefined)
      errors.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string')
    errors.push(...validateManagedBy(spec.managedBy, `${path}.managedBy`));
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== null) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') {
      errors.push(notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    }
    if (mode === 'Indexed') {
      if (completions === undefined)
        errors.push(required(`${path}.completions`, 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED) {
        errors.push(
          invalid(
            `${path}.parallelism`,
            parallelism,
            `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`,
          ),
        );
      }
      if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) {
        errors.push(
          invalid(`${path}.maxFailedIndexes`, maxFailed, 'must be less than or equal to completions'),
        );
      }
      if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES) {
        errors.push(
          invalid(
            `${path}.maxFailedIndexes`,
            maxFailed,
            `must be less than or equal to ${MAX_FAILED_INDEXES}`,
          ),
        );
      }
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && perIndex !== undefined) {
        const tail = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (maxFailed === undefined) {
          errors.push(
            required(
              `${path}.maxFailedIndexes`,
              `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
            ),
          );
        }
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_HIGH_COMPLETIONS) {
          errors.push(
            invalid(
              `${path}.parallelism`,
              parallelism,
              `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} ${tail}`,
            ),
          );
        }
        if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
          errors.push(
            invalid(
              `${path}.maxFailedIndexes`,
              maxFailed,
              `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} ${tail}`,
            ),
          );
        }
      }
    }
  }
  if (mode === undefined || mode === null || mode === 'NonIndexed') {
    if (perIndex !== undefined)
      errors.push(invalid(`${path}.backoffLimitPerIndex`, perIndex, 'requires indexed completion mode'));
    if (maxFailed !== undefined)
      errors.push(invalid(`${path}.maxFailedIndexes`, maxFailed, 'requires indexed completion mode'));
  }
  const hasFailurePolicy = isObject(spec.podFailurePolicy);
  if (isObject(spec.successPolicy) && mode !== 'Indexed') {
    errors.push(invalid(`${path}.successPolicy`, spec.successPolicy, 'requires indexed completion mode'));
  }
  const replacement = spec.podReplacementPolicy;
  if (typeof replacement === 'string') {
    if (hasFailurePolicy) {
      if (replacement !== 'Failed')
        errors.push(notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed']));
    } else if (replacement !== 'Failed' && replacement !== 'TerminatingOrFailed') {
      errors.push(
        notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed', 'TerminatingOrFailed']),
      );
    }
  }
  errors.push(...validatePodTemplateSpec(spec.template ?? {}, `${path}.template`));
  const restart = str(rec(rec(spec.template).spec).restartPolicy);
  const restartPath = `${path}.template.spec.restartPolicy`;
  if (restart === 'Always' || restart === '') {
    errors.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  } else if (restart !== 'OnFailure' && restart !== 'Never') {
    errors.push(notSupported(restartPath, restart, ['OnFailure', 'Never']));
  } else if (hasFailurePolicy && restart !== 'Never') {
    errors.push(
      invalid(restartPath, restart, 'only "Never" is supported when podFailurePolicy is specified'),
    );
  }
  return errors;
}

/** `IsDomainPrefixedPath` and the 63-character limit of `spec.managedBy`. */
function validateManagedBy(value: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const slash = value.indexOf('/');
  if (slash < 0) {
    errors.push(invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")'));
  } else {
    const host = value.slice(0, slash);
    const rest = value.slice(slash);
    if (
      !/^([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)*[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(host) ||
      host.length > 253
    ) {
      errors.push(invalid(path, host, 'must be a DNS subdomain'));
    }
    if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest)) {
      errors.push(
        invalid(
          path,
          rest,
          "Invalid path: must only contain alphanumerics, '-', '.', '_', '~', '!', '$', '&', ''', '(', ')', '*', '+', ',', ';', '=', ':', '%' and '/'",
        ),
      );
    }
  }
  if (value.length > 63)
    errors.push({
      type: 'FieldValueTooLong',
      field: path,
      message: 'Too long: may not be more than 63 bytes',
    });
  return errors;
}

/**
 * `ValidateJobSpec`: {@link validateJobSpecFields}, a selector (well formed) and a template whose
 * labels it selects.
 */
function validateJobSpec(spec: Record<string, unknown>): FieldError[] {
  const errors = validateJobSpecFields(spec, 'spec');
  if (spec.selector === undefined || spec.selector === null) errors.push(required('spec.selector'));
  else errors.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const selector = parseSelector(spec.selector);
  const templateLabels = rec(rec(spec.template).metadata).labels;
  // A nil selector selects nothing (LabelSelectorAsSelector), so it fails the match too.
  if (selector && !isEverything(selector) && !matchesLabels(selector, stringMap(templateLabels))) {
    errors.push(
      invalid(
        'spec.template.metadata.labels',
        templateLabels ?? null,
        '`selector` does not match template `labels`',
      ),
    );
  }
  return errors;
}

/** `ValidateImmutableField`. */
function immutable(now: unknown, before: unknown, path: string, value: unknown = now): FieldError[] {
  return sameJson(now ?? null, before ?? null) ? [] : [invalid(path, value ?? null, 'field is immutable')];
}

/** The Job's validation: `ValidateJobCreate` on create, `ValidateJobUpdate` and the status rules on update. */
export function validateJob(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = specOf(obj);
  if (!old) {
    return [
      ...validateObjectMeta(obj),
      ...validateGeneratedSelector(obj),
      ...validateJobSpec(spec),
      ...validateNameAllowsCompletions(obj),
    ];
  }
  const before = specOf(old);
  // A /status write keeps the stored spec and changes the status (a main update keeps the
  // status): ValidateJobUpdateStatus judges it, and only it.
  if (sameJson(spec, before) && !sameJson(obj.status ?? null, old.status ?? null)) {
    return [...validateObjectMeta(obj), ...validateJobStatusUpdate(obj, old)];
  }
  const errors = [...validateObjectMeta(obj), ...validateJobSpec(spec)];
  errors.push(...validateCompletionsUpdate(spec, before));
  errors.push(
    ...immutable(spec.selector, before.selector, 'spec.selector', labelSelectorValue(spec.selector)),
  );
  errors.push(...immutableTemplateErrors(obj, old));
  errors.push(...immutable(spec.completionMode, before.completionMode, 'spec.completionMode'));
  errors.push(...immutable(spec.podFailurePolicy, before.podFailurePolicy, 'spec.podFailurePolicy'));
  errors.push(
    ...immutable(spec.backoffLimitPerIndex, before.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'),
  );
  errors.push(...immutable(spec.managedBy, before.managedBy, 'spec.managedBy'));
  errors.push(...immutable(spec.successPolicy, before.successPolicy, 'spec.successPolicy'));
  errors.push(...validateNameAllowsCompletions(obj));
  return errors;
}

/** `validateCompletions`: immutable unless Indexed, where it moves only in tandem with parallelism. */
function validateCompletionsUpdate(
  spec: Record<string, unknown>,
  before: Record<string, unknown>,
): FieldError[] {
  if (spec.completionMode !== 'Indexed')
    return immutable(spec.completions, before.completions, 'spec.completions');
  if (sameJson(spec.completions ?? null, before.completions ?? null) || typeof spec.completions !== 'number')
    return [];
  return spec.completions !== spec.parallelism
    ? [invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism')]
    : [];
}

/** True when the Job's conditions hold `type` with status True (`IsConditionTrue`). */
export function jobConditionTrue(obj: KubeObject, type: string): boolean {
  return objects(rec(obj.status).conditions).some((c) => c.type === type && c.status === 'True');
}
