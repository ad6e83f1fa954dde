/**
 * The Job (batch/v1): defaults (pkg/apis/batch/v1/defaults.go `SetDefaults_Job`), the strategy
 * (pkg/registry/batch/job/strategy.go: `generateSelector` on create, the generation, the
 * `status.successful` field selector), validation (job-validation.ts) and Table columns
 * (printers.go `printJob`). Its pod template is defaulted by core/pod as a workload's is.
 */

import type { KubeObject } from '../../../protocol/events.js';
import {
  child,
  isObject,
  num,
  objects,
  rec,
  sameJson,
  setIfAbsent,
  specOf,
  statusOf,
  str,
  stringMap,
} from '../access.js';
import { humanDuration, parseTimestamp, translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { formatSelectorCell } from '../columns.js';
import { defaultPodTemplateSpec } from '../core/pod/defaults.js';
import { intField } from '../selectable-fields.js';
import type { ResourceKind } from '../types.js';
import { JOB_LABELS, validateJob } from './job-validation.js';

const MAX_INT32 = 2147483647;

/**
 * `SetDefaults_JobSpec` as SetDefaults_Job applies it to a Job's spec or a CronJob's job
 * template: one completion and one pod when neither is set, 6 retries (MaxInt32 with a per-index
 * limit), NonIndexed, not suspended, pods replaced once Failed with a failure policy (else once
 * terminating), a generated selector, and the pod template's defaults.
 */
export function defaultJobSpec(spec: Record<string, unknown>): void {
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setIfAbsent(spec, 'parallelism', 1);
  setIfAbsent(spec, 'backoffLimit', spec.backoffLimitPerIndex == null ? 6 : MAX_INT32);
  setIfAbsent(spec, 'completionMode', 'NonIndexed');
  setIfAbsent(spec, 'suspend', false);
  setIfAbsent(spec, 'podReplacementPolicy', spec.podFailurePolicy == null ? 'TerminatingOrFailed' : 'Failed');
  setIfAbsent(spec, 'manualSelector', false);
  for (const rule of objects(rec(spec.podFailurePolicy).rules)) {
    // SetDefaults_PodFailurePolicyOnPodConditionsPattern: a pattern matches True by default.
    for (const pattern of objects(rule.onPodConditions)) setIfAbsent(pattern, 'status', 'True');
  }
  const template = child(spec, 'template');
  if (template) defaultPodTemplateSpec(template);
}

/**
 * `SetDefaults_Job`: the spec's defaults, and a Job without labels takes its template's. In Go
 * the Job then holds the template's very map, so the labels `generateSelector` adds to the
 * template on create show on the Job too; and a Job whose template had none gets them when
 * kube-apiserver decodes the stored object (defaulting again). {@link prepareJobCreate} does both.
 */
export function defaultJob(obj: KubeObject): void {
  // The status is a struct: written back as `{}` when a /status write sends none.
  const status = child(obj, 'status');
  if (status) omitZeroStatus(status);
  const spec = child(obj, 'spec');
  if (!spec) return;
  defaultJobSpec(spec);
  copyTemplateLabels(obj);
}

/**
 * What Go's JobStatus drops or fills as it decodes a status: zero counters and an empty
 * completedIndexes (`omitempty`) are gone, so no field manager owns them; a condition's probe and
 * transition times are structs, written as `null` when unset.
 */
function omitZeroStatus(status: Record<string, unknown>): void {
  for (const f of ['active', 'succeeded', 'failed']) if (status[f] === 0) delete status[f];
  if (status.completedIndexes === '') delete status.completedIndexes;
  for (const c of objects(status.conditions)) {
    setIfAbsent(c, 'lastProbeTime', null);
    setIfAbsent(c, 'lastTransitionTime', null);
  }
}

/** A Job without labels takes its template's (SetDefaults_Job). */
function copyTemplateLabels(obj: KubeObject): void {
  const labels = rec(rec(specOf(obj).template).metadata).labels;
  const meta = rec(obj.metadata);
  if (isObject(labels) && Object.keys(rec(meta.labels)).length === 0) meta.labels = { ...labels };
}

/**
 * The strategy's PrepareForCreate: unless the selector is manual, `generateSelector` labels the
 * template with the Job's name and uid (keeping labels the client set, which validation then
 * judges) and selects the prefixed uid label. `spec.scheduling` is dropped (WorkloadWithJob is
 * off: pkg/api/job `DropDisabledFields`).
 */
export function prepareJobCreate(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (!spec) return;
  delete spec.scheduling;
  if (spec.manualSelector === true) return;
  const template = child(spec, 'template');
  const meta = template && child(template, 'metadata');
  const labels = meta && child(meta, 'labels');
  const name = str(obj.metadata?.name);
  const uid = str(obj.metadata?.uid);
  // The Job's labels are the template's map when defaulting copied them (see defaultJob).
  const jobLabels = obj.metadata?.labels;
  // Not when the name was generated: that create goes through a copy of the object.
  const generated = isGeneratedName(rec(obj.metadata));
  const shared = !generated && labels !== undefined && jobLabels !== undefined && sameJson(jobLabels, labels);
  if (labels) {
    setIfAbsent(labels, JOB_LABELS.legacyJobName, name);
    setIfAbsent(labels, JOB_LABELS.jobName, name);
    setIfAbsent(labels, JOB_LABELS.legacyControllerUid, uid);
    setIfAbsent(labels, JOB_LABELS.controllerUid, uid);
  }
  const selector = child(spec, 'selector');
  const matchLabels = selector && child(selector, 'matchLabels');
  if (matchLabels) setIfAbsent(matchLabels, JOB_LABELS.controllerUid, uid);
  if (shared && obj.metadata) obj.metadata.labels = stringMap(labels);
  else copyTemplateLabels(obj);
}

/** A name `names.SimpleNameGenerator` made of generateName (5 random characters after it). */
function isGeneratedName(meta: Record<string, unknown>): boolean {
  const prefix = str(meta.generateName);
  const name = str(meta.name);
  return prefix !== '' && name.startsWith(prefix) && name.length === Math.min(prefix.length, 58) + 5;
}

/** PrepareForUpdate's `DropDisabledFields`: `spec.scheduling` stays only where it already was. */
function prepareJobUpdate(obj: KubeObject, old: KubeObject): void {
  const spec = rec(obj.spec);
  if (specOf(old).scheduling == null) delete spec.scheduling;
}

/** printers.go `hasJobCondition`: the first condition of `type` decides. */
function hasCondition(o: KubeObject, type: string): boolean {
  const c = objects(statusOf(o).conditions).find((x) => x.type === type);
  return c?.status === 'True';
}

/** `printJob`'s Status cell. */
function jobStatus(o: KubeObject): string {
  if (hasCondition(o, 'Complete')) return 'Complete';
  if (hasCondition(o, 'Failed')) return 'Failed';
  if (o.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(o, 'Suspended')) return 'Suspended';
  if (hasCondition(o, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(o, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** `printJob`'s Completions cell: `succeeded/completions`, or `n/1 of parallelism` without completions. */
function jobCompletions(o: KubeObject): string {
  const spec = specOf(o);
  const succeeded = num(statusOf(o).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** `printJob`'s Duration cell: from start to completion, or to now while running. */
function jobDuration(o: KubeObject, now: number): string {
  const start = parseTimestamp(statusOf(o).startTime);
  if (start === undefined) return '';
  const end = parseTimestamp(statusOf(o).completionTime);
  return humanDuration((end ?? now) - start);
}

/** `layoutContainerCells` of a pod template: its container names or images, comma-joined. */
export function templateContainers(template: unknown, field: 'name' | 'image'): string {
  return objects(rec(rec(template).spec).containers)
    .map((c) => str(c[field]))
    .join(',');
}

/** The Job's entry in the served kinds. */
export const jobKind: ResourceKind = builtinKind('batch', 'v1', 'jobs', {
  fields: { 'status.successful': intField('status.succeeded') },
  generationFields: ['spec'],
  defaults: defaultJob,
  prepareForCreate: prepareJobCreate,
  prepareForUpdate: prepareJobUpdate,
  validate: validateJob,
  cells: {
    Status: jobStatus,
    Completions: jobCompletions,
    Duration: jobDuration,
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    Containers: (o) => templateContainers(specOf(o).template, 'name'),
    Images: (o) => templateContainers(specOf(o).template, 'image'),
    Selector: (o) => formatSelectorCell(specOf(o).selector),
  },
});
