/**
 * A pod's in-place resize, which only the `pods/resize` subresource may make (kubectl patch
 * --subresource resize): pkg/registry/core/pod/strategy.go `podResizeStrategy` (the spec it
 * keeps) and pkg/apis/core/validation/validation.go `ValidatePodResize` (what it may change),
 * with the feature gates at their 1.37 defaults (pkg/features/kube_features.go):
 * InPlacePodVerticalScaling and InPlacePodVerticalScalingInitContainers GA,
 * InPlacePodLevelResourcesVerticalScaling and PodLevelResourcesFixDefaulting beta and on,
 * InPlacePodVerticalScalingMemoryBackedVolumes and DRANodeAllocatableResources alpha and off.
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { parseQuantity } from '../../../../protocol/quantity.js';
import { isObject, type JsonObject, objects, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { forbidden, invalid } from '../../validation.js';
import { podQOSClass } from './defaults.js';
import { validatePod } from './validation.js';

/**
 * strategy.go `dropNonResizeUpdates`: the old spec with each container's (and init container's)
 * `resources` and `resizePolicy` as sent, and the pod-level `resources` as sent (kept from the
 * old spec when the write leaves them out: PodLevelResourcesFixDefaulting). Volumes stay the old
 * ones (InPlacePodVerticalScalingMemoryBackedVolumes is off). A write that adds, removes,
 * reorders or renames containers keeps its own lists, for validation to refuse.
 */
export function resizedSpec(sent: JsonObject, old: JsonObject): JsonObject {
  const sentContainers = objects(sent.containers);
  const sentInit = objects(sent.initContainers);
  if (
    sentContainers.length !== objects(old.containers).length ||
    sentInit.length !== objects(old.initContainers).length
  ) {
    return sent;
  }
  const spec: JsonObject = { ...old };
  for (const key of ['containers', 'initContainers']) {
    const merged = mergeResources(objects(sent[key]), objects(old[key]));
    if (merged !== undefined) spec[key] = merged;
    else if (sent[key] === undefined) delete spec[key];
    else spec[key] = sent[key];
  }
  if (sent.resources !== undefined && sent.resources !== null) spec.resources = sent.resources;
  return spec;
}

/** `dropNonResizeUpdatesForContainers`: undefined where a name moved (the sent list is kept). */
function mergeResources(sent: JsonObject[], old: JsonObject[]): JsonObject[] | undefined {
  if (sent.length === 0) return undefined;
  const out: JsonObject[] = [];
  for (const [i, c] of sent.entries()) {
    if (str(c.name) !== str(old[i].name)) return undefined;
    const kept = { ...old[i] };
    setOrDrop(kept, 'resources', c.resources);
    setOrDrop(kept, 'resizePolicy', c.resizePolicy);
    out.push(kept);
  }
  return out;
}

function setOrDrop(obj: JsonObject, key: string, value: unknown): void {
  if (value === undefined || value === null) delete obj[key];
  else obj[key] = value;
}

/** `qos.ComputePodQOS`: pod-level cpu or memory amounts decide it when set (PodLevelResources). */
export function computePodQOS(spec: JsonObject): string {
  const podLevel = rec(spec.resources);
  const supported = (m: unknown) => Object.keys(rec(m)).some((k) => k === 'cpu' || k === 'memory');
  if (isObject(spec.resources) && (supported(podLevel.requests) || supported(podLevel.limits))) {
    return requirementsQOS(podLevel);
  }
  return podQOSClass(spec);
}

/** `requirementsQOS`: one set of requirements' class, from its cpu and memory shapes. */
function requirementsQOS(resources: JsonObject): string {
  const requests = rec(resources.requests);
  const limits = rec(resources.limits);
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  const shapes = ['cpu', 'memory'].map((r) => {
    const req = parseQuantity(requests[r]) ?? 0;
    const lim = parseQuantity(limits[r]) ?? 0;
    if (req !== lim) return 'Burstable';
    return req === 0 ? 'BestEffort' : 'Guaranteed';
  });
  return shapes[0] === shapes[1] ? shapes[0] : 'Burstable';
}

/** `isPodResizeRequestSupported`: the first running container tells whether its node reports resources. */
function resizeSupported(old: KubeObject): boolean {
  for (const s of objects(rec(old.status).containerStatuses)) {
    if (isObject(rec(s.state).running)) return s.resources !== undefined && s.resources !== null;
  }
  return true;
}

/** `resourcesRemoved`: a resource name the old list has and the new one lacks. */
function resourcesRemoved(list: unknown, oldList: unknown): boolean {
  const now = rec(list);
  return Object.keys(rec(oldList)).some((name) => !Object.hasOwn(now, name));
}

/**
 * `dropCPUMemoryUpdates`: the list with its cpu and memory as the old list has them, so that
 * what remains different is a change of another resource.
 */
function dropCPUMemoryUpdates(list: unknown, oldList: unknown): JsonObject | undefined {
  if (!isObject(list) && !isObject(oldList)) return undefined;
  const out: JsonObject = { ...rec(list) };
  const old = rec(oldList);
  for (const r of ['cpu', 'memory']) {
    if (Object.hasOwn(old, r)) out[r] = old[r];
    else delete out[r];
  }
  return out;
}

/** `dropCPUMemoryResourcesFromContainer`, on a copy. */
function withOldCPUMemory(c: JsonObject, old: JsonObject): JsonObject {
  const resources = rec(c.resources);
  const oldResources = rec(old.resources);
  const next: JsonObject = {};
  const limits = dropCPUMemoryUpdates(resources.limits, oldResources.limits);
  const requests = dropCPUMemoryUpdates(resources.requests, oldResources.requests);
  if (limits !== undefined) next.limits = limits;
  if (requests !== undefined) next.requests = requests;
  if (resources.claims !== undefined) next.claims = resources.claims;
  return { ...c, resources: next };
}

/**
 * apimachinery's `equality.Semantic.DeepEqual` over JSON: quantities by value, and an empty
 * list or map the same as none.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (isObject(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => semanticEqual(a[k], b[k]));
  }
  if (typeof a === 'string' && typeof b === 'string' && a !== b) {
    const qa = parseQuantity(a);
    return qa !== undefined && qa === parseQuantity(b) && /^[0-9.+-]/.test(a) && /^[0-9.+-]/.test(b);
  }
  return a === b;
}

/** validation.go `validatePodResizeContainerOrdering`. */
function validateOrdering(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    const now = objects(spec[key]);
    const before = objects(oldSpec[key]);
    if (now.length !== before.length) {
      errors.push(forbidden(`spec.${key}`, `${key} may not be added or removed on resize`));
      continue;
    }
    before.forEach((c, i) => {
      if (str(now[i].name) !== str(c.name)) {
        errors.push(forbidden(`spec.${key}[${i}].name`, `${key} may not be renamed or reordered on resize`));
      }
    });
  }
  return errors;
}

/** `validateContainerResize`: requests and limits may change but not go away. */
function validateContainerResize(c: JsonObject, old: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const now = rec(c.resources);
  const before = rec(old.resources);
  if (resourcesRemoved(now.requests, before.requests)) {
    errors.push(forbidden(`${path}.requests`, 'resource requests cannot be removed'));
  }
  if (resourcesRemoved(now.limits, before.limits)) {
    errors.push(forbidden(`${path}.limits`, 'resource limits cannot be removed'));
  }
  return errors;
}

/** `isPodLevelResourcesSet` as ValidatePodResize writes it: any pod-level request or limit. */
function podLevelSet(spec: JsonObject): boolean {
  const r = spec.resources;
  return isObject(r) && Object.keys(rec(r.requests)).length + Object.keys(rec(r.limits)).length > 0;
}

/** `validatePodLevelResourcesResize`; `copy` is the spec the last comparison reads. */
function validatePodLevelResize(spec: JsonObject, oldSpec: JsonObject, copy: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const old = oldSpec.resources;
  if (isObject(old) && !isObject(spec.resources)) {
    return [forbidden('spec.resources', 'pod-level resources cannot be removed')];
  }
  const now = rec(spec.resources);
  if (isObject(old)) {
    if (resourcesRemoved(now.requests, old.requests)) {
      errors.push(forbidden('spec.resources.requests', 'pod-level resource requests cannot be removed'));
    }
    if (resourcesRemoved(now.limits, old.limits)) {
      errors.push(forbidden('spec.resources.limits', 'pod-level resource limits cannot be removed'));
    }
  }
  // dropCPUMemoryResourceRequirementsUpdates
  if (isObject(copy.resources)) {
    const r: JsonObject = { ...copy.resources };
    const requests = dropCPUMemoryUpdates(r.requests, rec(old).requests);
    const limits = dropCPUMemoryUpdates(r.limits, rec(old).limits);
    setOrDrop(r, 'requests', requests);
    setOrDrop(r, 'limits', limits);
    const hollow = (v: unknown) => Object.keys(rec(v)).length === 0;
    if (!isObject(old) && hollow(r.requests) && hollow(r.limits) && objects(r.claims).length === 0) {
      delete copy.resources;
    } else copy.resources = r;
  }
  if (!semanticEqual(copy.resources, old)) {
    errors.push(forbidden('spec', 'only cpu and memory resources are mutable at pod-level'));
  }
  return errors;
}

/** A sidecar: an init container restarted as a regular one (`isRestartableInitContainer`). */
function restartable(c: JsonObject): boolean {
  return str(c.restartPolicy) === 'Always';
}

/**
 * validation.go `ValidatePodResize`: the pod valid as a whole, never a static or windows pod,
 * its QoS class unchanged, a node that reports resources, and nothing changed but cpu and
 * memory requests and limits (and resize policies) of the containers and the pod.
 */
export function validatePodResize(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validatePod(obj);
  // field.NewPath(""): a root path of one empty name, which kube-apiserver prints as `[]`.
  if (rec(old.metadata?.annotations)['kubernetes.io/config.mirror'] !== undefined) {
    return [forbidden('[]', 'static pods cannot be resized')];
  }
  const spec = rec(obj.spec);
  const oldSpec = rec(old.spec);
  if (str(rec(oldSpec.os).name) === 'windows') return [forbidden('[]', 'windows pods cannot be resized')];
  const oldQOS = str(rec(old.status).qosClass) || computePodQOS(oldSpec);
  if (oldQOS !== computePodQOS(spec)) {
    errors.push(
      invalid('spec', str(rec(obj.status).qosClass), 'Pod QOS Class may not change as a result of resizing'),
    );
  }
  if (!resizeSupported(old)) errors.push(forbidden('spec', 'Pod running on node without support for resize'));
  const copy: JsonObject = structuredClone(spec);
  if (podLevelSet(oldSpec) || podLevelSet(spec)) errors.push(...validatePodLevelResize(spec, oldSpec, copy));
  const ordering = validateOrdering(spec, oldSpec);
  if (ordering.length > 0) return [...errors, ...ordering];
  const [containers, initContainers] = [objects(spec.containers), objects(spec.initContainers)];
  const [oldContainers, oldInit] = [objects(oldSpec.containers), objects(oldSpec.initContainers)];
  oldInit.forEach((c, i) => {
    errors.push(...validateContainerResize(initContainers[i], c, `spec.initContainers[${i}].resources`));
  });
  oldContainers.forEach((c, i) => {
    errors.push(...validateContainerResize(containers[i], c, `spec.containers[${i}].resources`));
  });
  copy.containers = objects(copy.containers).map((c, i) => {
    const masked = withOldCPUMemory(c, oldContainers[i]);
    if (!semanticEqual(masked, oldContainers[i])) {
      errors.push(forbidden('spec', 'only cpu and memory resources are mutable'));
    }
    return masked;
  });
  if (copy.initContainers !== undefined) {
    copy.initContainers = objects(copy.initContainers).map((c, i) => {
      const masked = withOldCPUMemory(c, oldInit[i]);
      const path = `spec.initContainers[${i}]`;
      if (!semanticEqual(masked, oldInit[i])) {
        errors.push(
          forbidden(path, 'only cpu and memory resources for init or sidecar containers are mutable'),
        );
      }
      if (!semanticEqual(c, oldInit[i]) && !restartable(c)) {
        for (const policy of objects(c.resizePolicy)) {
          if (str(policy.restartPolicy) !== 'RestartContainer') continue;
          errors.push(
            forbidden(
              path,
              'non-sidecar init containers with a resize policy of RestartContainer cannot be resized',
            ),
          );
        }
      }
      return masked;
    });
  }
  if (!semanticEqual(spec.volumes, oldSpec.volumes)) {
    errors.push(
      forbidden(
        'spec.volumes',
        'volumes are immutable on resize when InPlacePodVerticalScalingMemoryBackedVolumes feature gate is disabled',
      ),
    );
  }
  if (errors.length > 0) return errors;
  if (!semanticEqual(copy, oldSpec))
    errors.push(forbidden('spec', 'only cpu and memory resources are mutable'));
  return errors;
}
