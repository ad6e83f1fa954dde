/**
 * The ReplicationController (core/v1), the ReplicaSet's predecessor with a map selector:
 * defaults (pkg/apis/core/v1/defaults.go `SetDefaults_ReplicationController`: selector and
 * labels from the template's labels, 1 replica, the template's pod defaults), validation
 * (pkg/apis/core/validation `ValidateReplicationController`, `ValidateReplicationControllerUpdate`,
 * `ValidateReplicationControllerStatusUpdate`), the strategy
 * (pkg/registry/core/replicationcontroller/strategy.go: status only through /status, spec
 * changes bump the generation, `status.replicas` selectable), its /scale
 * (pkg/registry/core/replicationcontroller/storage/storage.go `scaleFromRC`) and its columns
 * (printers.go `printReplicationController`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, isObject, num, objects, rec, setIfAbsent, specOf, statusOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn, formatLabels } from '../columns.js';
import { intField } from '../selectable-fields.js';
import type { FieldError } from '../types.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  validateNonNegative,
  validateObjectMeta,
} from '../validation.js';
import { defaultPodTemplateSpec } from './pod/defaults.js';
import { validatePodTemplateSpec } from './pod/validation.js';

/**
 * `SetObjectDefaults_ReplicationController`: a selector and labels left empty are the template's
 * labels (when it has any), replicas 1, and the template's PodTemplateSpec defaults; the status
 * replicas (not omitempty) are 0 until the controller counts.
 */
export function defaultReplicationController(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (!spec) return;
  // A template left out stays out (a pointer in Go): `ValidatePodTemplateSpecForRC` requires it.
  const template = isObject(spec.template) ? spec.template : undefined;
  const labels = template ? rec(template.metadata).labels : undefined;
  if (isObject(labels)) {
    if (!isObject(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    // The metadata is changed in place: the write path holds it (the name is generated after).
    if (!obj.metadata) obj.metadata = {};
    const meta = obj.metadata;
    if ((!isObject(meta.labels) || Object.keys(meta.labels).length === 0) && Object.keys(labels).length > 0) {
      meta.labels = { ...(labels as Record<string, string>) };
    }
  }
  setIfAbsent(spec, 'replicas', 1);
  if (template) defaultPodTemplateSpec(template);
  // The status is a struct, always written, its replicas too.
  if (!isObject(obj.status)) obj.status = {};
  setIfAbsent(obj.status as Record<string, unknown>, 'replicas', 0);
}

/** `labels.Set(selector).AsSelector().Matches(labels)`: every selector pair is among the labels. */
function selectorMatches(selector: Record<string, unknown>, labels: unknown): boolean {
  const set = rec(labels);
  return Object.entries(selector).every(([k, v]) => k in set && set[k] === v);
}

/** `ValidatePodTemplateSpecForRC`: present, matching the selector, a valid template restarting Always. */
function validateTemplate(template: unknown, selector: Record<string, unknown>): FieldError[] {
  const path = 'spec.template';
  if (!isObject(template)) return [required(path)];
  const errors: FieldError[] = [];
  const labels = rec(template.metadata).labels;
  if (Object.keys(selector).length > 0 && !selectorMatches(selector, labels)) {
    errors.push(
      invalid(
        `${path}.metadata.labels`,
        isObject(labels) ? labels : null,
        '`selector` does not match template `labels`',
      ),
    );
  }
  errors.push(...validatePodTemplateSpec(template, path));
  const spec = rec(template.spec);
  const restart = str(spec.restartPolicy);
  if (restart !== 'Always') errors.push(notSupported(`${path}.spec.restartPolicy`, restart, ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errors.push(
      forbidden(
        `${path}.spec.activeDeadlineSeconds`,
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    );
  }
  return errors;
}

/**
 * `ValidateReplicationController` (and, with nothing immutable, its update): a DNS subdomain
 * name, a non-empty selector, non-negative replicas and minReadySeconds, and the template.
 */
export function validateReplicationController(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const selector = rec(spec.selector);
  // The name's format, replicas and minReadySeconds are declarative rules in 1.37
  // (`MarkCoveredByDeclarative`): rest.ValidateDeclarativelyWithMigrationChecks drops those
  // handwritten errors and appends the declarative ones after the rest, in field order.
  const meta = validateObjectMeta(obj);
  const declarativeName = (e: FieldError) => e.field === 'metadata.name' && e.type === 'FieldValueInvalid';
  const errors = meta.filter((e) => !declarativeName(e));
  if (Object.keys(selector).length === 0) errors.push(required('spec.selector'));
  errors.push(...validateTemplate(spec.template, selector));
  errors.push(...meta.filter(declarativeName));
  if (spec.replicas === undefined || spec.replicas === null) errors.push(required('spec.replicas'));
  else errors.push(...validateNonNegative(spec.replicas, 'spec.replicas'));
  errors.push(...validateNonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  return errors;
}

/**
 * `ValidateReplicationControllerStatus`, on updates: non-negative counts, none above
 * status.replicas, available ones not above ready ones. A main update keeps the stored status,
 * so only a /status write can fail these.
 */
export function validateReplicationControllerStatus(obj: KubeObject): FieldError[] {
  const status = statusOf(obj);
  const errors: FieldError[] = [];
  for (const f of [
    'replicas',
    'fullyLabeledReplicas',
    'readyReplicas',
    'availableReplicas',
    'observedGeneration',
  ]) {
    errors.push(...validateNonNegative(status[f], `status.${f}`));
  }
  const replicas = num(status.replicas);
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if (num(status[f]) > replicas) errors.push(invalid(`status.${f}`, num(status[f]), msg));
  }
  if (num(status.availableReplicas) > num(status.readyReplicas)) {
    errors.push(
      invalid(
        'status.availableReplicas',
        num(status.availableReplicas),
        'cannot be greater than readyReplicas',
      ),
    );
  }
  return errors;
}

/** `layoutContainerCells` of the template's containers. */
function containerCell(o: KubeObject, field: 'name' | 'image'): string {
  return objects(rec(rec(specOf(o).template).spec).containers)
    .map((c) => str(c[field]))
    .join(',');
}

/** The ReplicationController's entry in the served kinds. */
export const replicationControllerKind = builtinKind('', 'v1', 'replicationcontrollers', {
  fields: { 'status.replicas': intField('status.replicas') },
  generationFields: ['spec'],
  defaults: defaultReplicationController,
  validate: validateReplicationController,
  validateUpdate: validateReplicationControllerStatus,
  // storage.go `ScaleREST`: replicas at spec.replicas of v1, the only version there has been.
  scale: {
    specReplicas: 'spec.replicas',
    statusReplicas: 'status.replicas',
    labelSelector: 'spec.selector',
    replicasPathByVersion: { v1: 'spec.replicas' },
  },
  cells: {
    Desired: (o) => num(specOf(o).replicas),
    Current: (o) => num(statusOf(o).replicas),
    Ready: (o) => num(statusOf(o).readyReplicas),
    Age: ageColumn.cell,
    Containers: (o) => containerCell(o, 'name'),
    Images: (o) => containerCell(o, 'image'),
    Selector: (o) => formatLabels(specOf(o).selector),
  },
});
