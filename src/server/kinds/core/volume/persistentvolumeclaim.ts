/**
 * The PersistentVolumeClaim (core/v1): defaults (pkg/apis/core/v1/defaults.go
 * `SetDefaults_PersistentVolumeClaim`, `SetDefaults_PersistentVolumeClaimSpec`), validation
 * (pkg/apis/core/validation `ValidatePersistentVolumeClaim`, `ValidatePersistentVolumeClaimUpdate`,
 * `ValidatePersistentVolumeClaimStatusUpdate`), its strategy (pkg/registry/core/
 * persistentvolumeclaim/strategy.go: status reset on create, the data sources' normalisation), the
 * StorageObjectInUseProtection admission plugin's finalizer and the columns (printers.go
 * `printPersistentVolumeClaim`).
 *
 * Not served here: the PersistentVolumeClaimResize and DefaultStorageClass admission plugins,
 * which read StorageClasses (a bound claim growing without a class that allows expansion, a claim
 * without a class when one is marked default).
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { arr, child, isObject, rec, sameJson, setIfAbsent, specOf, statusOf, str } from '../../access.js';
import { translateTimestampSince } from '../../age.js';
import { builtinKind } from '../../builtin.js';
import type { FieldError, ResourceKind } from '../../types.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  validateLabelSelector,
  validateObjectMeta,
} from '../../validation.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../validation-names.js';
import {
  accessModesCell,
  amount,
  BETA_STORAGE_CLASS,
  goLabelSelector,
  goResourceList,
  goSlice,
  goStringPtr,
  validateAccessModes,
  validateBasicResource,
  validateClassName,
  validateNonNegativeQuantity,
  validatePositiveQuantity,
  validateVolumeMode,
} from './common.js';
import { goDiff, goIndentJson } from './go-diff.js';

/** The finalizer StorageObjectInUseProtection gives every new claim (volumeutil.PVCProtectionFinalizer). */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

/** The claim's defaults: phase Pending, volume mode Filesystem. */
export function defaultPersistentVolumeClaim(obj: KubeObject): void {
  const status = child(obj, 'status');
  if (status && !status.phase) status.phase = 'Pending';
  const spec = child(obj, 'spec');
  if (spec) setIfAbsent(spec, 'volumeMode', 'Filesystem');
}

/** Whether `ref` names a claim or a VolumeSnapshot (pkg/api/persistentvolumeclaim `dataSourceIsPvcOrSnapshot`). */
function isClaimOrSnapshot(ref: Record<string, unknown>): boolean {
  const group = str(ref.apiGroup);
  return (
    (ref.kind === 'PersistentVolumeClaim' && group === '') ||
    (ref.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io')
  );
}

/**
 * The strategy's data-source rules before validation (pkg/api/persistentvolumeclaim):
 * `DropDisabledFields` drops a dataSourceRef naming a namespace (CrossNamespaceVolumeDataSource is
 * off) unless the stored claim had a dataSourceRef; `EnforceDataSourceBackwardsCompatibility`
 * drops a dataSource that is neither a claim nor a snapshot when there is no dataSourceRef and
 * the stored claim had no data source; `NormalizeDataSources` then mirrors one into the other
 * (a namespaced dataSourceRef has no dataSource).
 */
export function normalizeClaimDataSources(
  spec: Record<string, unknown>,
  old?: Record<string, unknown>,
): void {
  const ref = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  if (ref && str(ref.namespace) !== '' && !isObject(old?.dataSourceRef)) delete spec.dataSourceRef;
  const inUse = old !== undefined && (isObject(old.dataSource) || isObject(old.dataSourceRef));
  if (
    !inUse &&
    !isObject(spec.dataSourceRef) &&
    isObject(spec.dataSource) &&
    !isClaimOrSnapshot(spec.dataSource)
  ) {
    delete spec.dataSource;
  }
  const source = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const sourceRef = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  const copy = (from: Record<string, unknown>) => ({
    ...(typeof from.apiGroup === 'string' ? { apiGroup: from.apiGroup } : {}),
    kind: str(from.kind),
    name: str(from.name),
  });
  if (source && !sourceRef) spec.dataSourceRef = copy(source);
  else if (sourceRef && !source && str(sourceRef.namespace) === '') spec.dataSource = copy(sourceRef);
}

/** `validateDataSource` / `validateDataSourceRef`: name and kind, a core kind is a claim, the group's form. */
function validateDataSource(
  ref: Record<string, unknown>,
  path: string,
  withNamespace: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  if (str(ref.name) === '') errors.push(required(`${path}.name`));
  if (str(ref.kind) === '') errors.push(required(`${path}.kind`));
  const group = str(ref.apiGroup);
  if (group === '' && ref.kind !== 'PersistentVolumeClaim') {
    errors.push(
      invalid(path, str(ref.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
    );
  }
  if (group !== '')
    for (const msg of isDNS1123Subdomain(group)) errors.push(invalid(`${path}.apiGroup`, group, msg));
  const namespace = str(ref.namespace);
  if (withNamespace && namespace !== '') {
    for (const msg of isDNS1123Label(namespace)) errors.push(invalid(`${path}.namespace`, namespace, msg));
  }
  return errors;
}

/** `ValidatePersistentVolumeClaimSpec`. */
export function validateClaimSpec(specIn: unknown, path: string): FieldError[] {
  const spec = rec(specIn);
  const errors = validateAccessModes(
    spec.accessModes,
    `${path}.accessModes`,
    'at least 1 access mode is required',
  );
  // The selector's errors come right after the missing access modes, before each mode's.
  if (isObject(spec.selector)) {
    const modeErrors = errors.splice(arr(spec.accessModes).length === 0 ? 1 : 0);
    errors.push(...validateLabelSelector(spec.selector, `${path}.selector`), ...modeErrors);
  }
  const storagePath = `${path}.resources[storage]`;
  const requests = rec(rec(spec.resources).requests);
  if (!('storage' in requests)) errors.push(required(storagePath));
  else {
    const positive = validatePositiveQuantity(requests.storage, storagePath);
    errors.push(
      ...(positive.length > 0 ? positive : validateNonNegativeQuantity(requests.storage, storagePath)),
    );
  }
  errors.push(...validateClassName(spec.storageClassName, `${path}.storageClassName`));
  errors.push(...validateVolumeMode(spec.volumeMode, `${path}.volumeMode`));
  const source = isObject(spec.dataSource) ? spec.dataSource : undefined;
  const sourceRef = isObject(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  if (source) errors.push(...validateDataSource(source, `${path}.dataSource`, false));
  if (sourceRef) errors.push(...validateDataSource(sourceRef, `${path}.dataSourceRef`, true));
  // field.Invalid(fldPath, fldPath.Child("dataSource"), ...): the bad value is the path, a
  // *field.Path, which marshals as {}.
  if (sourceRef && str(sourceRef.namespace) !== '') {
    if (source)
      errors.push(invalid(path, {}, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (source && sourceRef) {
    const same =
      goStringPtr(source.apiGroup) === goStringPtr(sourceRef.apiGroup) &&
      str(source.kind) === str(sourceRef.kind) &&
      str(source.name) === str(sourceRef.name);
    if (!same) errors.push(invalid(path, {}, 'must match dataSourceRef'));
  }
  errors.push(...validateClassName(spec.volumeAttributesClassName, `${path}.volumeAttributesClassName`));
  return errors;
}

/** `ValidatePersistentVolumeClaim`: the metadata (a DNS subdomain name) and the spec. */
export function validatePersistentVolumeClaim(obj: KubeObject): FieldError[] {
  return [...validateObjectMeta(obj), ...validateClaimSpec(obj.spec, 'spec')];
}

/**
 * The internal PersistentVolumeClaimSpec as `diff.Diff` marshals it: Go field names in
 * declaration order; `semantic` compares quantities by amount and empty lists and maps as nil,
 * as `Semantic.DeepEqual` does.
 */
function goClaimSpec(spec: Record<string, unknown>, semantic: boolean): Record<string, unknown> {
  const resources = rec(spec.resources);
  const list = (l: unknown) => {
    const m = goResourceList(l);
    if (!semantic || m === null) return m;
    return Object.keys(m).length === 0
      ? null
      : Object.fromEntries(Object.entries(m).map(([k, v]) => [k, amount(v)]));
  };
  const slice = (v: unknown) => {
    const s = goSlice(v);
    return semantic && s?.length === 0 ? null : s;
  };
  const typedRef = (ref: unknown, withNamespace: boolean) =>
    isObject(ref)
      ? {
          APIGroup: goStringPtr(ref.apiGroup),
          Kind: str(ref.kind),
          Name: str(ref.name),
          ...(withNamespace ? { Namespace: goStringPtr(ref.namespace) } : {}),
        }
      : null;
  return {
    AccessModes: slice(spec.accessModes),
    Selector: goLabelSelector(spec.selector),
    Resources: { Limits: list(resources.limits), Requests: list(resources.requests) },
    VolumeName: str(spec.volumeName),
    StorageClassName: goStringPtr(spec.storageClassName),
    VolumeMode: goStringPtr(spec.volumeMode),
    DataSource: typedRef(spec.dataSource, false),
    DataSourceRef: typedRef(spec.dataSourceRef, true),
    VolumeAttributesClassName: goStringPtr(spec.volumeAttributesClassName),
  };
}

/**
 * `ValidatePersistentVolumeClaimUpdate`'s own rules: the spec is immutable but for a first
 * volumeName, a class set where none was (or as the beta annotation said), and on a bound claim
 * the storage request and the volume attributes class; the request may not go below the status'
 * capacity (RecoverVolumeExpansionFailure is on); volumeMode is immutable; the beta class
 * annotation too.
 */
export function validatePersistentVolumeClaimUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const spec = structuredClone(specOf(obj));
  const oldSpec = structuredClone(specOf(old));
  const annotations = rec(obj.metadata?.annotations);
  const oldAnnotations = rec(old.metadata?.annotations);
  if (str(oldSpec.volumeName) === '') oldSpec.volumeName = spec.volumeName;
  const oldClass = oldAnnotations[BETA_STORAGE_CLASS];
  const fromAnnotation =
    BETA_STORAGE_CLASS in oldAnnotations &&
    goStringPtr(oldSpec.storageClassName) === null &&
    typeof spec.storageClassName === 'string' &&
    spec.storageClassName === oldClass &&
    (!(BETA_STORAGE_CLASS in annotations) || annotations[BETA_STORAGE_CLASS] === oldClass);
  if (fromAnnotation) delete spec.storageClassName;
  else {
    const newAnn = str(annotations[BETA_STORAGE_CLASS]);
    if (newAnn !== str(oldClass)) {
      errors.push(invalid(`metadata.annotations.${BETA_STORAGE_CLASS}`, newAnn, 'field is immutable'));
    }
    const fromNil =
      typeof spec.storageClassName === 'string' &&
      goStringPtr(oldSpec.storageClassName) === null &&
      (!(BETA_STORAGE_CLASS in oldAnnotations) || spec.storageClassName === oldClass);
    if (fromNil) delete spec.storageClassName;
  }
  const bound = statusOf(obj).phase === 'Bound';
  const requests = rec(spec.resources).requests;
  if (bound && isObject(requests)) {
    requests.storage = rec(rec(oldSpec.resources).requests).storage ?? '0';
  }
  if (bound) {
    if (oldSpec.volumeAttributesClassName === undefined) delete spec.volumeAttributesClassName;
    else spec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  }
  if (!sameJson(goClaimSpec(oldSpec, true), goClaimSpec(spec, true))) {
    errors.push(
      forbidden(
        'spec',
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${goDiff(goClaimSpec(oldSpec, false), goClaimSpec(spec, false))}`,
      ),
    );
  }
  const newSize = amount(rec(rec(specOf(obj).resources).requests).storage);
  const oldSize = amount(rec(rec(specOf(old).resources).requests).storage);
  if (newSize < oldSize && newSize <= amount(rec(statusOf(old).capacity).storage)) {
    errors.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  const mode = specOf(obj).volumeMode;
  if (!sameJson(mode ?? null, specOf(old).volumeMode ?? null)) {
    errors.push(invalid('volumeMode', mode ?? null, 'field is immutable'));
  }
  const vac = specOf(obj).volumeAttributesClassName;
  if (!sameJson(vac ?? null, specOf(old).volumeAttributesClassName ?? null)) {
    if (statusOf(old).currentVolumeAttributesClassName != null) {
      if (vac == null) {
        errors.push(
          forbidden(
            'spec.volumeAttributesClassName',
            'update to nil is forbidden when status.currentVolumeAttributesClassName is not nil',
          ),
        );
      } else if (vac === '') {
        errors.push(
          forbidden(
            'spec.volumeAttributesClassName',
            'update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil',
          ),
        );
      }
    }
  }
  return [...errors, ...validateClaimStatus(obj, old)];
}

/** `validatePersistentVolumeClaimResourceKey`: a qualified name; a native one must be `storage`. */
function validateResourceKey(key: string, path: string): FieldError[] {
  const errors = isQualifiedName(key).map((msg) => invalid(path, key, msg));
  if (errors.length > 0) return errors;
  const native = !key.includes('/') || key.includes('kubernetes.io/');
  return native && key !== 'storage' ? [notSupported(path, key, ['storage'])] : [];
}

const RESIZE_STATUSES = [
  'ControllerResizeInProgress',
  'ControllerResizeInfeasible',
  'NodeResizeInProgress',
  'NodeResizeInfeasible',
  'NodeResizePending',
];

/**
 * `ValidatePersistentVolumeClaimStatusUpdate`'s status rules (a main update keeps the stored
 * status, so they find nothing new there): capacities, allocated resources and their statuses.
 */
function validateClaimStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = statusOf(obj);
  if (sameJson(status, statusOf(old))) return [];
  const errors: FieldError[] = [];
  for (const [r, q] of Object.entries(rec(status.capacity))) {
    errors.push(...validateBasicResource(q, `status.capacity[${r}]`));
  }
  const statusesPath = 'status.allocatedResourceStatuses';
  for (const [k, v] of Object.entries(rec(status.allocatedResourceStatuses))) {
    errors.push(...validateResourceKey(k, statusesPath));
    if (!RESIZE_STATUSES.includes(str(v))) errors.push(notSupported(statusesPath, k, RESIZE_STATUSES));
  }
  for (const [r, q] of Object.entries(rec(status.allocatedResources))) {
    const keyErrors = validateResourceKey(r, 'status.allocatedResources');
    if (keyErrors.length > 0) {
      errors.push(...keyErrors);
      continue;
    }
    const basic = validateBasicResource(q, `status.allocatedResources[${r}]`);
    errors.push(
      ...(basic.length > 0 ? basic : validateNonNegativeQuantity(q, `status.allocatedResources[${r}]`)),
    );
  }
  return errors;
}

/** The StorageObjectInUseProtection admission plugin: a new claim gets the protection finalizer. */
export function protectNewClaim(obj: KubeObject): void {
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!finalizers.includes(PVC_PROTECTION_FINALIZER))
    meta.finalizers = [...finalizers, PVC_PROTECTION_FINALIZER];
}

/** `GetPersistentVolumeClaimClass`: the beta annotation, else spec.storageClassName. */
function claimClass(o: KubeObject): string {
  const annotations = rec(o.metadata?.annotations);
  if (BETA_STORAGE_CLASS in annotations) return str(annotations[BETA_STORAGE_CLASS]);
  return str(specOf(o).storageClassName);
}

/** The PersistentVolumeClaim's entry in the served kinds. */
export const persistentVolumeClaimKind: ResourceKind = builtinKind('', 'v1', 'persistentvolumeclaims', {
  defaults: defaultPersistentVolumeClaim,
  prepareForCreate: (obj) => normalizeClaimDataSources(specOf(obj)),
  afterFieldManager: (obj, old, scope) => {
    if (scope === 'main') normalizeClaimDataSources(specOf(obj), specOf(old));
  },
  validate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
  admitCreate: protectNewClaim,
  withAdmissionPluginsOff: (disabled) =>
    disabled.has('StorageObjectInUseProtection') ? { admitCreate: undefined } : undefined,
  cells: {
    Status: (o) => (o.metadata?.deletionTimestamp ? 'Terminating' : str(statusOf(o).phase)),
    Volume: (o) => str(specOf(o).volumeName),
    Capacity: (o) => (str(specOf(o).volumeName) === '' ? '' : str(rec(statusOf(o).capacity).storage) || '0'),
    'Access Modes': (o) => (str(specOf(o).volumeName) === '' ? '' : accessModesCell(statusOf(o).accessModes)),
    StorageClass: claimClass,
    VolumeAttributesClass: (o) => goStringPtr(specOf(o).volumeAttributesClassName) ?? '<unset>',
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    VolumeMode: (o) => goStringPtr(specOf(o).volumeMode) ?? '<unset>',
  },
});

/** For tests: the diff the immutable-spec error prints. */
export const claimSpecText = (spec: Record<string, unknown>): string =>
  goIndentJson(goClaimSpec(spec, false));
