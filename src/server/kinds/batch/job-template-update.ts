/**
 * When a Job's pod template may change (pkg/apis/batch/validation `validatePodTemplateUpdate`,
 * with the options pkg/registry/batch/job/strategy.go `validationOptionsForJob` gives it in
 * 1.37, where MutablePodResourcesForSuspendedJobs and
 * MutableSchedulingDirectivesForSuspendedJobs are on): never on a running Job; on a suspended
 * one that has not started (or carries a true JobSuspended condition) with no active pods, its
 * scheduling directives (node affinity, node selector, tolerations, scheduling gates, the
 * template's labels and annotations) and its containers' resources.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec, sameJson, specOf, statusOf } from '../access.js';
import type { FieldError } from '../types.js';
import { invalid } from '../validation.js';

type Json = Record<string, unknown>;

/** `shouldAllowMutablePodTemplate`: suspended, not started or suspended again, no active pods. */
function mutableTemplate(old: KubeObject): boolean {
  const status = statusOf(old);
  const suspended = specOf(old).suspend === true;
  const notStarted = status.startTime === undefined || status.startTime === null;
  const suspendedCondition = objects(status.conditions).some(
    (c) => c.type === 'Suspended' && c.status === 'True',
  );
  return suspended && (notStarted || suspendedCondition) && (status.active ?? 0) === 0;
}

/** The old template with the scheduling directives the new one sets (the mutable ones). */
function withNewDirectives(oldTemplate: Json, template: Json): Json {
  const before = structuredClone(oldTemplate);
  const spec = rec(template.spec);
  if (!isObject(before.spec)) before.spec = {};
  const beforeSpec = before.spec as Json;
  const affinity = spec.affinity;
  const oldAffinity = beforeSpec.affinity;
  if (!isObject(affinity) && isObject(oldAffinity)) {
    // The affinity may be dropped when node affinity was all it held.
    delete oldAffinity.nodeAffinity;
    if (Object.keys(oldAffinity).length === 0) delete beforeSpec.affinity;
  } else if (isObject(affinity) && !isObject(oldAffinity)) {
    beforeSpec.affinity = affinity.nodeAffinity === undefined ? {} : { nodeAffinity: affinity.nodeAffinity };
  } else if (isObject(affinity) && isObject(oldAffinity)) {
    if (affinity.nodeAffinity === undefined) delete oldAffinity.nodeAffinity;
    else oldAffinity.nodeAffinity = affinity.nodeAffinity;
  }
  for (const f of ['nodeSelector', 'tolerations', 'schedulingGates']) copyField(beforeSpec, spec, f);
  const meta = rec(template.metadata);
  if (!isObject(before.metadata)) before.metadata = {};
  const beforeMeta = before.metadata as Json;
  for (const f of ['annotations', 'labels']) copyField(beforeMeta, meta, f);
  return before;
}

function copyField(to: Json, from: Json, field: string): void {
  if (from[field] === undefined) delete to[field];
  else to[field] = from[field];
}

/** The old pod spec with each same-named container's resources taken from the new one. */
function withNewResources(oldSpec: Json, spec: Json): Json {
  const before = structuredClone(oldSpec);
  for (const key of ['containers', 'initContainers']) {
    const now = objects(spec[key]);
    const was = objects(before[key]);
    if (now.length !== was.length) continue;
    now.forEach((c, i) => {
      const o = was[i]!;
      if (o.name === c.name) copyField(o, c, 'resources');
    });
  }
  return before;
}

/** Empty maps and lists are Go's nil after decoding: compare them as absent. */
function same(a: unknown, b: unknown): boolean {
  return sameJson(normalise(a), normalise(b));
}

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalise);
  if (isObject(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalise(v);
      if (n !== undefined && n !== null) out[k] = n;
    }
    return out;
  }
  return value;
}

/** The template's immutability errors of a Job update. */
export function immutableTemplateErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  const template = rec(specOf(obj).template);
  let oldTemplate = rec(specOf(old).template);
  const allowed = mutableTemplate(old);
  if (allowed) oldTemplate = withNewDirectives(oldTemplate, template);
  if (specOf(old).suspend !== true || !allowed) {
    return same(template, oldTemplate) ? [] : [invalid('spec.template', template, 'field is immutable')];
  }
  const podSpec = rec(template.spec);
  const oldPodSpec = withNewResources(rec(oldTemplate.spec), podSpec);
  return same(podSpec, oldPodSpec) ? [] : [invalid('spec.template.spec', podSpec, 'field is immutable')];
}
