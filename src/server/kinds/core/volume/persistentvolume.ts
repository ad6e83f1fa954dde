/**
 * The PersistentVolume (core/v1, cluster-scoped): defaults (pkg/apis/core/v1/defaults.go
 * `SetDefaults_PersistentVolume`, `SetDefaults_HostPathVolumeSource` and the generated defaults
 * of the RBD, iSCSI, AzureDisk and ScaleIO sources), validation (pkg/apis/core/validation
 * `ValidatePersistentVolume`, `ValidatePersistentVolumeUpdate`; pkg/volume/validation's mount
 * options rule), its strategy (pkg/registry/core/persistentvolume/strategy.go: phase Pending and
 * its transition time on create, the time moved when a status write changes the phase), the
 * StorageObjectInUseProtection finalizer and the columns
 * (printers.go `printPersistentVolume`).
 *
 * The volume sources validated field by field are hostPath, nfs, local and csi; the other
 * (deprecated, in-tree) sources count as a source and are not looked into.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import {
  child,
  isObject,
  rec,
  sameJson,
  setDefault,
  setIfAbsent,
  specOf,
  statusOf,
  str,
} from '../../access.js';
import { translateTimestampSince } from '../../age.js';
import { builtinKind } from '../../builtin.js';
import type { FieldError, ResourceKind } from '../../types.js';
import { forbidden, invalid, notSupported, required, validateObjectMeta } from '../../validation.js';
import {
  accessModesCell,
  BETA_STORAGE_CLASS,
  goResourceList,
  goStringPtr,
  validateAccessModes,
  validateBasicResource,
  validateClassName,
  validatePositiveQuantity,
  validateVolumeMode,
} from './common.js';
import { goDiff } from './go-diff.js';
import { validateNodeSelector } from './node-selector.js';
import { cleanPath, goPersistentVolumeSource, validateSource } from './sources.js';

/** The finalizer StorageObjectInUseProtection gives every new volume (volumeutil.PVProtectionFinalizer). */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];

/** The volume sources of a PersistentVolumeSource, in the order ValidatePersistentVolumeSpec checks them. */
const SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

/** The paths Go names a few sources by in its "more than 1 volume type" error. */
const FORBIDDEN_PATH: Partial<Record<string, string>> = { cephfs: 'cephFS' };

/** The volume's defaults: phase Pending, reclaim policy Retain, volume mode Filesystem, the sources'. */
export function defaultPersistentVolume(obj: KubeObject): void {
  const status = child(obj, 'status');
  if (status && !status.phase) status.phase = 'Pending';
  const spec = child(obj, 'spec');
  if (!spec) return;
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setIfAbsent(spec, 'volumeMode', 'Filesystem');
  if (isObject(spec.hostPath)) setIfAbsent(spec.hostPath, 'type', '');
  if (isObject(spec.rbd)) {
    setDefault(spec.rbd, 'pool', 'rbd');
    setDefault(spec.rbd, 'user', 'admin');
    setDefault(spec.rbd, 'keyring', '/etc/ceph/keyring');
  }
  if (isObject(spec.iscsi)) setDefault(spec.iscsi, 'iscsiInterface', 'default');
  if (isObject(spec.azureDisk)) {
    setIfAbsent(spec.azureDisk, 'cachingMode', 'ReadWrite');
    setIfAbsent(spec.azureDisk, 'fsType', 'ext4');
    setIfAbsent(spec.azureDisk, 'readOnly', false);
    setIfAbsent(spec.azureDisk, 'kind', 'Shared');
  }
  if (isObject(spec.scaleIO)) {
    setDefault(spec.scaleIO, 'storageMode', 'ThinProvisioned');
    setDefault(spec.scaleIO, 'fsType', 'xfs');
  }
}

/** `ValidatePersistentVolumeSpec` of a volume (not an inline one). */
export function validatePersistentVolumeSpec(specIn: unknown, path: string): FieldError[] {
  const spec = rec(specIn);
  const errors = validateAccessModes(spec.accessModes, `${path}.accessModes`, '');
  const capacity = rec(spec.capacity);
  const keys = Object.keys(capacity);
  if (keys.length === 0) errors.push(required(`${path}.capacity`));
  if (!('storage' in capacity) || keys.length > 1) {
    errors.push(notSupported(`${path}.capacity`, goResourceList(spec.capacity), ['storage']));
  }
  for (const k of keys) {
    errors.push(...validateBasicResource(capacity[k], `${path}.capacity[${k}]`));
    errors.push(...validatePositiveQuantity(capacity[k], `${path}.capacity[${k}]`));
  }
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && !RECLAIM_POLICIES.includes(policy)) {
    errors.push(notSupported(`${path}.persistentVolumeReclaimPolicy`, policy, RECLAIM_POLICIES));
  }
  let affinity = false;
  if (isObject(spec.nodeAffinity)) {
    affinity = true;
    const req = spec.nodeAffinity.required;
    if (isObject(req)) errors.push(...validateNodeSelector(req, `${path}.nodeAffinity.required`));
    else errors.push(required(`${path}.nodeAffinity.required`, 'must specify required node constraints'));
  }
  let count = 0;
  for (const name of SOURCES) {
    const src = spec[name];
    if (!isObject(src)) continue;
    if (count > 0 && name !== 'flexVolume') {
      errors.push(
        forbidden(`${path}.${FORBIDDEN_PATH[name] ?? name}`, 'may not specify more than 1 volume type'),
      );
      continue;
    }
    count++;
    errors.push(...validateSource(name, src, `${path}.${name}`));
    if (name === 'local' && !affinity) {
      errors.push(required(`${path}.nodeAffinity`, 'Local volume requires node affinity'));
    }
  }
  if (count === 0) errors.push(required(path, 'must specify a volume type'));
  const hostPath = rec(spec.hostPath);
  if (isObject(spec.hostPath) && cleanPath(str(hostPath.path)) === '/' && policy === 'Recycle') {
    errors.push(
      forbidden(`${path}.persistentVolumeReclaimPolicy`, "may not be 'recycle' for a hostPath mount of '/'"),
    );
  }
  errors.push(...validateClassName(spec.storageClassName, `${path}.storageClassName`));
  errors.push(...validateVolumeMode(spec.volumeMode, `${path}.volumeMode`));
  const vac = spec.volumeAttributesClassName;
  if (typeof vac === 'string') {
    if (vac === '')
      errors.push(required(`${path}.volumeAttributesClassName`, 'an empty string is disallowed'));
    else errors.push(...validateClassName(vac, `${path}.volumeAttributesClassName`));
    if (!isObject(spec.csi)) {
      errors.push(required(`${path}.csi`, 'has to be specified when using volumeAttributesClassName'));
    }
  }
  return errors;
}

/** `ValidatePersistentVolume` with pkg/volume/validation's rule on mount options. */
export function validatePersistentVolume(obj: KubeObject): FieldError[] {
  const errors = [...validateObjectMeta(obj), ...validatePersistentVolumeSpec(obj.spec, 'spec')];
  const spec = specOf(obj);
  const mountable = [
    'gcePersistentDisk',
    'awsElasticBlockStore',
    'glusterfs',
    'nfs',
    'rbd',
    'quobyte',
    'iscsi',
  ]
    .concat(['cinder', 'cephfs', 'azureFile', 'vsphereVolume', 'azureDisk', 'photonPersistentDisk'])
    .some((s) => isObject(spec[s]));
  const option = 'volume.beta.kubernetes.io/mount-options';
  if (!mountable && option in rec(obj.metadata?.annotations)) {
    errors.push(
      forbidden(`metadata.annotations.${option}`, 'may not specify mount options for this volume type'),
    );
  }
  return errors;
}

/**
 * `ValidatePersistentVolumeUpdate`'s own rules: the volume source is immutable (a CSI volume may
 * gain a controllerExpandSecretRef), so is volumeMode; a volume attributes class cannot be
 * removed. The node affinity is mutable (MutablePVNodeAffinity is on).
 */
export function validatePersistentVolumeUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const spec = structuredClone(specOf(obj));
  const oldSpec = specOf(old);
  if (isObject(oldSpec.csi) && oldSpec.csi.controllerExpandSecretRef == null && isObject(spec.csi)) {
    delete spec.csi.controllerExpandSecretRef;
  }
  const before = goPersistentVolumeSource(oldSpec);
  const after = goPersistentVolumeSource(spec);
  if (!sameJson(before, after)) {
    errors.push(
      forbidden(
        'spec.persistentvolumesource',
        `spec.persistentvolumesource is immutable after creation\n${goDiff(before, after)}`,
      ),
    );
  }
  const mode = specOf(obj).volumeMode ?? null;
  if (!sameJson(mode, oldSpec.volumeMode ?? null))
    errors.push(invalid('volumeMode', mode, 'field is immutable'));
  if (
    typeof oldSpec.volumeAttributesClassName === 'string' &&
    specOf(obj).volumeAttributesClassName == null
  ) {
    errors.push(forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  }
  return errors;
}

/** The strategy's PrepareForCreate: the phase Pending, since now. */
export function preparePersistentVolumeCreate(obj: KubeObject): void {
  obj.status = { phase: 'Pending', lastPhaseTransitionTime: nowRFC3339() };
}

function nowRFC3339(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * The status strategy's PrepareForUpdate: the phase's transition time stays when the phase does,
 * and is now when the phase changes and the write did not set another time.
 */
export function preparePersistentVolumeStatusUpdate(obj: KubeObject, old: KubeObject): void {
  const status = child(obj, 'status');
  if (!status) return;
  const oldStatus = statusOf(old);
  const time = status.lastPhaseTransitionTime;
  if (status.phase === oldStatus.phase) {
    if (time == null && oldStatus.lastPhaseTransitionTime != null) {
      status.lastPhaseTransitionTime = oldStatus.lastPhaseTransitionTime;
    }
  } else if (time == null || time === oldStatus.lastPhaseTransitionTime) {
    status.lastPhaseTransitionTime = nowRFC3339();
  }
}

/** The StorageObjectInUseProtection admission plugin: a new volume gets the protection finalizer. */
export function protectNewVolume(obj: KubeObject): void {
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!finalizers.includes(PV_PROTECTION_FINALIZER))
    meta.finalizers = [...finalizers, PV_PROTECTION_FINALIZER];
}

/** printers.go's Claim cell: `namespace/name` of the claim reference, "" without one. */
function claimCell(o: KubeObject): string {
  const ref = specOf(o).claimRef;
  return isObject(ref) ? `${str(ref.namespace)}/${str(ref.name)}` : '';
}

/** The PersistentVolume's entry in the served kinds. */
export const persistentVolumeKind: ResourceKind = builtinKind('', 'v1', 'persistentvolumes', {
  defaults: defaultPersistentVolume,
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
  prepareForCreate: preparePersistentVolumeCreate,
  // PrepareForUpdate runs after the field manager: the time it sets belongs to no writer.
  afterFieldManager: (obj, old, scope) => {
    if (scope === 'status') preparePersistentVolumeStatusUpdate(obj, old);
  },
  admitCreate: protectNewVolume,
  withAdmissionPluginsOff: (disabled) =>
    disabled.has('StorageObjectInUseProtection') ? { admitCreate: undefined } : undefined,
  cells: {
    Capacity: (o) => str(rec(specOf(o).capacity).storage) || '0',
    'Access Modes': (o) => accessModesCell(specOf(o).accessModes),
    'Reclaim Policy': (o) => str(specOf(o).persistentVolumeReclaimPolicy),
    Status: (o) => (o.metadata?.deletionTimestamp ? 'Terminating' : str(statusOf(o).phase)),
    Claim: claimCell,
    StorageClass: (o) => {
      const annotations = rec(o.metadata?.annotations);
      return BETA_STORAGE_CLASS in annotations
        ? str(annotations[BETA_STORAGE_CLASS])
        : str(specOf(o).storageClassName);
    },
    VolumeAttributesClass: (o) => goStringPtr(specOf(o).volumeAttributesClassName) ?? '<unset>',
    Reason: (o) => str(statusOf(o).reason),
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
    VolumeMode: (o) => goStringPtr(specOf(o).volumeMode) ?? '<unset>',
  },
});
