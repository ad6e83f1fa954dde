/**
 * What an update may change in a Pod's spec (pkg/apis/core/validation/validation.go
 * `ValidatePodUpdate`, `ValidateContainerUpdates`, `validateOnlyAddedTolerations`,
 * `validateOnlyDeletedSchedulingGates`): container images, activeDeadlineSeconds (set, or
 * lowered), new tolerations (and tolerationSeconds of existing ones), scheduling gates removed, and
 * terminationGracePeriodSeconds from a negative value to 1. Anything else is refused as a whole,
 * `spec: Forbidden: pod updates may not change fields other than ...`. A pod's node is set through
 * `pods/binding`, which bypasses this check, as BindingREST does.
 *
 * kube-apiserver compares the Go structs with `apiequality.Semantic.DeepEqual`, where an absent,
 * null or empty list or map are the same; the comparison here does the same on JSON. Its message
 * ends with a `cmp.Diff` of the two Go structs, which a JSON server cannot print: watchmark ends it
 * with the changed fields' JSON instead (the line that names the rule is kube-apiserver's).
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { parseQuantity } from '../../../../protocol/quantity.js';
import { arr, rec } from '../../access.js';
import type { FieldError } from '../../types.js';
import { forbidden, invalid, required } from '../../validation.js';

/** validation.go `updatablePodSpecFields`, joined as its message joins them. */
const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');

const MAX_INT32 = 2 ** 31 - 1;

type Obj = Record<string, unknown>;

/** The PodSpec fields whose values (maps of them, or one) are resource.Quantity. */
const QUANTITY_MAPS = new Set(['limits', 'requests', 'overhead']);
const QUANTITY_FIELDS = new Set(['sizeLimit']);

/**
 * JSON with empty lists and maps and nulls dropped, keys sorted: Semantic.DeepEqual's sameness
 * (apimachinery/pkg/api/equality/semantic.go), which compares a resource.Quantity by amount
 * (`a.Cmp(b) == 0`), so `1k` and `1e3` are the same.
 */
function semantic(value: unknown, quantities = false): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => semantic(v) ?? null);
  if (value === null) return undefined;
  if (typeof value !== 'object') {
    const amount = quantities ? parseQuantity(value) : undefined;
    return amount === undefined ? value : `quantity:${amount}`;
  }
  const out: Obj = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Obj)[key];
    const v = QUANTITY_FIELDS.has(key)
      ? semantic(child, true)
      : QUANTITY_MAPS.has(key) && typeof child === 'object' && child !== null && !Array.isArray(child)
        ? semanticQuantities(child as Obj)
        : semantic(child);
    if (v !== undefined) out[key] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A map of quantities (a container's `requests`), each by amount. */
function semanticQuantities(map: Obj): unknown {
  const out: Obj = {};
  for (const key of Object.keys(map).sort()) {
    const v = semantic(map[key], true);
    if (v !== undefined) out[key] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(semantic(a)) === JSON.stringify(semantic(b));
}

/** `ValidateContainerUpdates`: the same number of containers, each with an image. `stop` ends the checks. */
function containerUpdates(
  now: unknown,
  before: unknown,
  path: string,
): { errors: FieldError[]; stop: boolean } {
  const next = arr(now);
  if (next.length !== arr(before).length) {
    return { errors: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  }
  const errors: FieldError[] = [];
  next.forEach((c, i) => {
    const image = rec(c).image;
    const text = typeof image === 'string' ? image : '';
    if (text === '') errors.push(required(`${path}[${i}].image`));
    if (text.trim() !== text) {
      errors.push(invalid(`${path}[${i}].image`, text, 'must not have leading or trailing whitespace'));
    }
  });
  return { errors, stop: false };
}

/** `validateOnlyAddedTolerations`: every old toleration is still there, tolerationSeconds aside. */
function onlyAddedTolerations(now: unknown, before: unknown): FieldError[] {
  const next = arr(now).map(rec);
  for (const old of arr(before).map(rec)) {
    const found = next.some((t) => same({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found)
      return [
        forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'),
      ];
  }
  return [];
}

/** `validateOnlyDeletedSchedulingGates`: no gate that was not there before. */
function onlyDeletedSchedulingGates(now: unknown, before: unknown): FieldError[] {
  const old = new Set(arr(before).map((g) => rec(g).name));
  const errors: FieldError[] = [];
  arr(now).forEach((g, i) => {
    const name = rec(g).name;
    if (!old.has(name)) {
      errors.push(
        forbidden(
          `spec.schedulingGates[${i}].name`,
          `only deletion is allowed, but found new scheduling gate '${String(name)}'`,
        ),
      );
    }
  });
  return errors;
}

/** The spec fields that differ, as `-`/`+` lines of JSON (where kube-apiserver prints a cmp.Diff). */
function specDiff(before: Obj, after: Obj): string {
  const lines: string[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (same(before[key], after[key])) continue;
    if (semantic(before[key]) !== undefined) lines.push(`- ${key}: ${JSON.stringify(before[key])}`);
    if (semantic(after[key]) !== undefined) lines.push(`+ ${key}: ${JSON.stringify(after[key])}`);
  }
  return lines.join('\n');
}

/** The spec checks of `ValidatePodUpdate` (the rest of it, metadata and the spec's own rules, is validatePod's). */
export function validatePodUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = rec(obj.spec);
  const oldSpec = rec(old.spec);
  const errors: FieldError[] = [];
  for (const [field, path] of [
    ['containers', 'spec.containers'],
    ['initContainers', 'spec.initContainers'],
  ] as const) {
    const r = containerUpdates(spec[field], oldSpec[field], path);
    errors.push(...r.errors);
    if (r.stop) return errors;
  }
  // Two changes of activeDeadlineSeconds are allowed: from unset to a value, and lowered.
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  if (typeof deadline === 'number') {
    if (deadline < 0 || deadline > MAX_INT32) {
      errors.push(
        invalid('spec.activeDeadlineSeconds', deadline, `must be between 0 and ${MAX_INT32}, inclusive`),
      );
      return errors;
    }
    if (typeof oldDeadline === 'number' && oldDeadline < deadline) {
      errors.push(
        invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value'),
      );
      return errors;
    }
  } else if (typeof oldDeadline === 'number') {
    errors.push(
      invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'),
    );
  }
  errors.push(...onlyAddedTolerations(spec.tolerations, oldSpec.tolerations));
  errors.push(...onlyDeletedSchedulingGates(spec.schedulingGates, oldSpec.schedulingGates));
  if (same(spec, oldSpec)) return errors;

  // The updatable fields take their old values; whatever still differs may not change.
  const munged: Obj = { ...spec };
  for (const field of ['containers', 'initContainers'] as const) {
    if (Array.isArray(spec[field])) {
      const olds = arr(oldSpec[field]);
      munged[field] = arr(spec[field]).map((c, i) => ({ ...rec(c), image: rec(olds[i]).image }));
    }
  }
  for (const field of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations'] as const) {
    if (field in oldSpec) munged[field] = oldSpec[field];
    else delete munged[field];
  }
  const grace = oldSpec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = grace;
  }
  if (!same(munged, oldSpec)) {
    errors.push(
      forbidden(
        'spec',
        `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS}\n${specDiff(oldSpec, munged)}`,
      ),
    );
  }
  return errors;
}
