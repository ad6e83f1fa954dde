/**
 * The CSIDriver (storage.k8s.io/v1, cluster-scoped): defaults of its spec
 * (pkg/apis/storage/v1/defaults.go `SetDefaults_CSIDriver`: attach required, no pod info on mount,
 * no storage capacity, fsGroupPolicy ReadWriteOnceWithFSType, the Persistent lifecycle mode, no
 * republish, no SELinux mount, pods scheduled when the driver is missing), validation (pkg/apis/storage/validation `ValidateCSIDriver`,
 * `ValidateCSIDriverUpdate`: attachRequired and the lifecycle modes are immutable), its strategy
 * (pkg/registry/storage/csidriver/strategy.go: a spec change bumps the generation, updates need a resourceVersion) and the columns (printers.go `printCSIDriver`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, child, rec, sameJson, setIfAbsent, specOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import type { FieldError, ResourceKind } from '../types.js';
import { duplicate, invalid, notSupported, required, validateObjectMeta } from '../validation.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];

/** `SetDefaults_CSIDriver`. */
export function defaultCSIDriver(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (!spec) return;
  setIfAbsent(spec, 'attachRequired', true);
  setIfAbsent(spec, 'podInfoOnMount', false);
  setIfAbsent(spec, 'storageCapacity', false);
  setIfAbsent(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (arr(spec.volumeLifecycleModes).length === 0) spec.volumeLifecycleModes = ['Persistent'];
  setIfAbsent(spec, 'requiresRepublish', false);
  setIfAbsent(spec, 'seLinuxMount', false);
  setIfAbsent(spec, 'preventPodSchedulingIfMissing', false);
}

/**
 * The strategy's PrepareForUpdate: a spec change bumps the generation (which a create leaves
 * unset). The fields it drops belong to features v1.37 has on (SELinuxMountReadWriteOncePod,
 * CSIServiceAccountTokenSecrets, MutableCSINodeAllocatableCount, VolumeLimitScaling), so none is.
 */
export function prepareCSIDriverUpdate(obj: KubeObject, old: KubeObject): void {
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const generation = old.metadata?.generation ?? 0;
  const next = sameJson(withDefaults(spec), withDefaults(oldSpec)) ? generation : generation + 1;
  if (next === 0) delete meta.generation;
  else meta.generation = next;
}

/** A spec as its defaults leave it, for comparing one sent with one stored. */
function withDefaults(spec: Record<string, unknown>): Record<string, unknown> {
  const copy = { spec: structuredClone(spec) } as KubeObject;
  defaultCSIDriver(copy);
  return specOf(copy);
}

/** `validateCSIDriverSpec`. */
function validateSpec(spec: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [f, path] of [
    ['attachRequired', 'spec.attachedRequired'],
    ['podInfoOnMount', 'spec.podInfoOnMount'],
    ['storageCapacity', 'spec.storageCapacity'],
  ]) {
    if (spec[f] === undefined || spec[f] === null) errors.push(required(path));
  }
  const policy = spec.fsGroupPolicy;
  if (policy != null && !FS_GROUP_POLICIES.includes(str(policy))) {
    errors.push(notSupported('spec.fsGroupPolicy', policy, FS_GROUP_POLICIES));
  }
  const audiences = new Set<string>();
  arr(spec.tokenRequests).forEach((t, i) => {
    const r = rec(t);
    const path = `spec.tokenRequests[${i}]`;
    const audience = str(r.audience);
    if (audiences.has(audience)) {
      errors.push(duplicate(`${path}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = r.expirationSeconds;
    if (typeof seconds !== 'number') return;
    if (seconds < 600) {
      errors.push(
        invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'),
      );
    }
    if (seconds > 2 ** 32) {
      errors.push(
        invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'),
      );
    }
  });
  for (const mode of arr(spec.volumeLifecycleModes)) {
    if (!LIFECYCLE_MODES.includes(str(mode)))
      errors.push(notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  }
  if (spec.seLinuxMount === undefined || spec.seLinuxMount === null)
    errors.push(required('spec.seLinuxMount'));
  const period = spec.nodeAllocatableUpdatePeriodSeconds;
  if (typeof period === 'number' && period < 10) {
    errors.push(
      invalid(
        'spec.nodeAllocatableUpdatePeriodSeconds',
        period,
        'must be greater than or equal to 10 seconds',
      ),
    );
  }
  if (spec.serviceAccountTokenInSecrets != null && arr(spec.tokenRequests).length === 0) {
    errors.push(
      invalid(
        'spec.serviceAccountTokenInSecrets',
        spec.serviceAccountTokenInSecrets,
        'serviceAccountTokenInSecrets is set but no tokenRequests are specified',
      ),
    );
  }
  if (spec.preventPodSchedulingIfMissing == null) errors.push(required('spec.preventPodSchedulingIfMissing'));
  return errors;
}

/** `ValidateCSIDriver`: a DNS subdomain name and the spec. */
export function validateCSIDriver(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validateSpec(specOf(obj))];
}

/** `ValidateCSIDriverUpdate`: attachRequired and the lifecycle modes are immutable. */
export function validateCSIDriverUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const errors: FieldError[] = [];
  if (!sameJson(spec.attachRequired ?? null, oldSpec.attachRequired ?? null)) {
    errors.push(invalid('spec.attachedRequired', spec.attachRequired ?? null, 'field is immutable'));
  }
  const modes = arr(spec.volumeLifecycleModes);
  const oldModes = arr(oldSpec.volumeLifecycleModes);
  if (!sameJson(modes, oldModes)) {
    errors.push(
      invalid(
        'spec.volumeLifecycleModes',
        Array.isArray(spec.volumeLifecycleModes) ? modes : null,
        'field is immutable',
      ),
    );
  }
  return errors;
}

/** The CSIDriver's entry in the served kinds. */
export const csiDriverKind: ResourceKind = builtinKind('storage.k8s.io', 'v1', 'csidrivers', {
  defaults: defaultCSIDriver,
  validate: validateCSIDriver,
  validateUpdate: validateCSIDriverUpdate,
  prepareForUpdate: prepareCSIDriverUpdate,
  allowUnconditionalUpdate: false,
  cells: {
    AttachRequired: (o) => specOf(o).attachRequired !== false,
    PodInfoOnMount: (o) => specOf(o).podInfoOnMount === true,
    StorageCapacity: (o) => specOf(o).storageCapacity === true,
    TokenRequests: (o) => {
      const t = specOf(o).tokenRequests;
      return Array.isArray(t) ? t.map((r) => str(rec(r).audience)).join(',') : '<unset>';
    },
    RequiresRepublish: (o) => specOf(o).requiresRepublish === true,
    Modes: (o) => arr(specOf(o).volumeLifecycleModes).map(str).join(',') || '<none>',
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
