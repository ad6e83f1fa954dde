/**
 * The VolumeAttachment (storage.k8s.io/v1, cluster-scoped, with /status): the inline volume's
 * source defaults (pkg/apis/storage/v1/zz_generated.defaults.go `SetObjectDefaults_VolumeAttachment`),
 * validation (pkg/apis/storage/validation `ValidateVolumeAttachment`, `ValidateVolumeAttachmentUpdate`:
 * the attacher, exactly one source, the node's name, the status' metadata and error sizes, a fixed
 * spec; the attacher's rules and the spec's immutability as declarative validation reports them),
 * the strategy (pkg/registry/storage/volumeattachment/strategy.go: the status emptied on create,
 * kept on a main update; /status keeps the spec and the metadata, updates need a resourceVersion)
 * and the columns (printers.go `printVolumeAttachment`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, rec, sameJson, setDefault, setIfAbsent, specOf, statusOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { validateAccessModes } from '../core/volume/common.js';
import { cleanPath, validateSource } from '../core/volume/sources.js';
import { immutable, longNameCaseless, maxLength } from '../declarative.js';
import type { FieldError, ResourceKind } from '../types.js';
import { forbidden, invalid, required, tooLong, validateObjectMeta } from '../validation.js';
import { isDNS1123Subdomain } from '../validation-names.js';

/** `maxAttachedVolumeMetadataSize` and `maxVolumeErrorMessageSize`. */
const MAX_METADATA_BYTES = 256 * 1024;
const MAX_ERROR_MESSAGE_BYTES = 1024;

/** The PersistentVolumeSource fields in the order ValidatePersistentVolumeSpec checks them. */
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

/**
 * The object as the v1 type writes it (`attacher`, `source`, `nodeName` and `status.attached`
 * have no omitempty, so a status is always there; a VolumeError's zero time is `null`) with the inline volume's source defaults.
 */
export function defaultVolumeAttachment(obj: KubeObject): void {
  const spec = rec(obj.spec);
  obj.spec = spec;
  setIfAbsent(spec, 'attacher', '');
  if (!isObject(spec.source)) spec.source = {};
  setIfAbsent(spec, 'nodeName', '');
  const inline = rec(spec.source).inlineVolumeSpec;
  if (isObject(inline)) defaultInlineSources(inline);
  const status = rec(obj.status);
  obj.status = status;
  setIfAbsent(status, 'attached', false);
  for (const key of ['attachError', 'detachError']) {
    if (isObject(status[key])) setIfAbsent(status[key], 'time', null);
  }
}

/** The source defaults SetObjectDefaults_VolumeAttachment gives an inline PersistentVolumeSpec. */
function defaultInlineSources(spec: Record<string, unknown>): void {
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

/**
 * core's `ValidatePersistentVolumeSpec` of an inline volume (validateInlinePersistentVolumeSpec,
 * no VolumeAttributesClass option): no claim, capacity, node affinity or class, a CSI source,
 * Retain and Filesystem only.
 */
function validateInlineVolumeSpec(spec: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const context = 'may not be specified in the context of inline volumes';
  if (isObject(spec.claimRef)) errors.push(forbidden(`${path}.claimRef`, context));
  if (Object.keys(rec(spec.capacity)).length > 0) errors.push(forbidden(`${path}.capacity`, context));
  if (!isObject(spec.csi))
    errors.push(required(`${path}.csi`, 'has to be specified in the context of inline volumes'));
  errors.push(...validateAccessModes(spec.accessModes, `${path}.accessModes`, ''));
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && policy !== 'Retain') {
    errors.push(
      forbidden(
        `${path}.persistentVolumeReclaimPolicy`,
        'may only be Retain in the context of inline volumes',
      ),
    );
  }
  if (isObject(spec.nodeAffinity)) errors.push(forbidden(`${path}.nodeAffinity`, context));
  let count = 0;
  for (const name of SOURCES) {
    const src = spec[name];
    if (!isObject(src)) continue;
    if (count > 0 && name !== 'flexVolume') {
      const at = name === 'cephfs' ? 'cephFS' : name;
      errors.push(forbidden(`${path}.${at}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errors.push(...validateSource(name, src, `${path}.${name}`));
    if (name === 'local')
      errors.push(required(`${path}.nodeAffinity`, 'Local volume requires node affinity'));
  }
  if (count === 0) errors.push(required(path, 'must specify a volume type'));
  if (isObject(spec.hostPath) && cleanPath(str(spec.hostPath.path)) === '/' && policy === 'Recycle') {
    errors.push(
      forbidden(`${path}.persistentVolumeReclaimPolicy`, "may not be 'recycle' for a hostPath mount of '/'"),
    );
  }
  if (str(spec.storageClassName) !== '') errors.push(forbidden(`${path}.storageClassName`, context));
  const mode = spec.volumeMode;
  if (mode !== undefined && mode !== null && mode !== 'Filesystem') {
    errors.push(
      forbidden(
        `${path}.volumeMode`,
        'may not specify volumeMode other than Filesystem in the context of inline volumes',
      ),
    );
  }
  return errors;
}

/** `validateVolumeAttachmentSource`: exactly one of a volume's name and an inline volume. */
function validateSourceOf(source: Record<string, unknown>): FieldError[] {
  const path = 'spec.source';
  const message = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  const hasName = typeof source.persistentVolumeName === 'string';
  const inline = source.inlineVolumeSpec;
  if (!isObject(inline) && !hasName) return [required(path, message)];
  if (isObject(inline) && hasName) return [forbidden(path, message)];
  if (hasName) {
    return source.persistentVolumeName === ''
      ? [required(`${path}.persistentVolumeName`, 'must specify non empty persistentVolumeName')]
      : [];
  }
  return validateInlineVolumeSpec(rec(inline), `${path}.inlineVolumeSpec`);
}

/** `validateVolumeError`: a message of at most 1024 bytes, a non-negative code. */
function validateVolumeError(e: unknown, path: string): FieldError[] {
  if (!isObject(e)) return [];
  const errors: FieldError[] = [];
  if (Buffer.byteLength(str(e.message)) > MAX_ERROR_MESSAGE_BYTES)
    errors.push(tooLong(`${path}.message`, MAX_ERROR_MESSAGE_BYTES));
  if (typeof e.errorCode === 'number' && e.errorCode < 0) {
    errors.push(invalid(`${path}.errorCode`, e.errorCode, 'must be between 0 and 2147483647, inclusive'));
  }
  return errors;
}

/** `validateVolumeAttachmentStatus`. */
function validateStatus(status: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(rec(status.attachmentMetadata))) {
    size += Buffer.byteLength(k) + Buffer.byteLength(str(v));
  }
  if (size > MAX_METADATA_BYTES) errors.push(tooLong('status.attachmentMetadata', MAX_METADATA_BYTES));
  errors.push(...validateVolumeError(status.attachError, 'status.attachError'));
  errors.push(...validateVolumeError(status.detachError, 'status.detachError'));
  return errors;
}

/**
 * `ValidateVolumeAttachment`, and on an update `ValidateVolumeAttachmentUpdate`. The attacher's
 * rules are declarative (`+k8s:required`, `+k8s:format=k8s-long-name-caseless`, `+k8s:maxLength=63`)
 * and come last; on an update they are not checked again, the changed spec being refused whole
 * (`+k8s:immutable`, reported after the rest), and the handwritten ValidateCSIDriverName speaks.
 */
export function validateVolumeAttachment(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errors = validateObjectMeta(obj);
  const attacher = str(spec.attacher);
  const specChanged = old !== undefined && !sameJson(spec, specOf(old));
  if (specChanged && attacher === '') errors.push(required('spec.attacher'));
  else if (specChanged) {
    if (attacher.length > 63) errors.push(tooLong('spec.attacher', 63));
    for (const msg of isDNS1123Subdomain(attacher.toLowerCase()))
      errors.push(invalid('spec.attacher', attacher, msg));
  }
  const source = rec(spec.source);
  errors.push(...validateSourceOf(source));
  const node = str(spec.nodeName);
  for (const msg of isDNS1123Subdomain(node)) errors.push(invalid('spec.nodeName', node, msg));
  errors.push(...validateStatus(statusOf(obj)));
  if (typeof source.persistentVolumeName === 'string') {
    const pv = source.persistentVolumeName;
    for (const msg of isDNS1123Subdomain(pv))
      errors.push(invalid('spec.source.persistentVolumeName', pv, msg));
  }
  if (specChanged) errors.push(immutable('spec'));
  else if (old === undefined) {
    if (attacher === '') errors.push(required('spec.attacher'));
    else
      errors.push(
        ...longNameCaseless(attacher, 'spec.attacher'),
        ...maxLength(attacher, 'spec.attacher', 63),
      );
  }
  return errors;
}

/** The status strategy's PrepareForUpdate: `metav1.ResetObjectMetaForStatus` (the spec is kept by the registry). */
export function prepareVolumeAttachmentStatusUpdate(obj: KubeObject, old: KubeObject): void {
  const meta = rec(obj.metadata);
  const was = rec(old.metadata);
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (was[key] === undefined) delete meta[key];
    else meta[key] = structuredClone(was[key]);
  }
}

/** The VolumeAttachment's entry in the served kinds. */
export const volumeAttachmentKind: ResourceKind = builtinKind('storage.k8s.io', 'v1', 'volumeattachments', {
  defaults: defaultVolumeAttachment,
  // PrepareForCreate: whatever status was sent, a new attachment has none.
  prepareForCreate: (obj) => {
    obj.status = { attached: false };
  },
  validate: validateVolumeAttachment,
  prepareForStatusUpdate: prepareVolumeAttachmentStatusUpdate,
  allowUnconditionalUpdate: false,
  cells: {
    Attacher: (o) => str(specOf(o).attacher),
    PV: (o) => str(rec(specOf(o).source).persistentVolumeName),
    Node: (o) => str(specOf(o).nodeName),
    Attached: (o) => statusOf(o).attached === true,
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
