/**
 * The volume sources of a PersistentVolume that pkg/apis/core/validation looks into (hostPath,
 * nfs, local, csi: `validateHostPathVolumeSource`, `validateNFSVolumeSource`,
 * `validateLocalVolumeSource`, `validateCSIPersistentVolumeSource`, `ValidateCSIDriverName`), and
 * the internal PersistentVolumeSource as `diff.Diff` marshals it for the immutable-source error.
 */

import { isObject, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { invalid, notSupported, required, tooLong } from '../../validation.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation-names.js';
import { goSecretRef, goStringPtr } from './common.js';

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

/** `validatePathNoBacksteps`. */
function noBacksteps(path: string, field: string): FieldError[] {
  return path.split('/').includes('..') ? [invalid(field, path, "must not contain '..'")] : [];
}

/** `ValidateCSIDriverName`: required, at most 63 characters, a DNS subdomain in any case. */
export function validateCSIDriverName(name: unknown, path: string): FieldError[] {
  const driver = str(name);
  if (driver === '') return [required(path)];
  const errors: FieldError[] = [];
  if (driver.length > 63) errors.push(tooLong(path, 63));
  for (const msg of isDNS1123Subdomain(driver.toLowerCase())) errors.push(invalid(path, driver, msg));
  return errors;
}

function validateSecretRef(ref: unknown, path: string): FieldError[] {
  if (!isObject(ref)) return [];
  const errors: FieldError[] = [];
  const name = str(ref.name);
  const namespace = str(ref.namespace);
  if (name === '') errors.push(required(`${path}.name`));
  else for (const msg of isDNS1123Subdomain(name)) errors.push(invalid(`${path}.name`, name, msg));
  if (namespace === '') errors.push(required(`${path}.namespace`));
  else for (const msg of isDNS1123Label(namespace)) errors.push(invalid(`${path}.namespace`, namespace, msg));
  return errors;
}

/** The rules of the sources this file looks into. */
export function validateSource(name: string, src: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  switch (name) {
    case 'hostPath': {
      const p = str(src.path);
      if (p === '') return [required(`${path}.path`)];
      errors.push(...noBacksteps(p, `${path}.path`));
      if (src.type !== undefined && src.type !== null && !HOST_PATH_TYPES.includes(str(src.type))) {
        errors.push(notSupported(`${path}.type`, src.type, HOST_PATH_TYPES));
      }
      return errors;
    }
    case 'nfs': {
      if (str(src.server) === '') errors.push(required(`${path}.server`));
      if (str(src.path) === '') errors.push(required(`${path}.path`));
      if (!str(src.path).startsWith('/'))
        errors.push(invalid(`${path}.path`, str(src.path), 'must be an absolute path'));
      return errors;
    }
    case 'local': {
      const p = str(src.path);
      if (p === '') return [required(`${path}.path`)];
      return noBacksteps(p, `${path}.path`);
    }
    case 'csi': {
      errors.push(...validateCSIDriverName(src.driver, `${path}.driver`));
      if (str(src.volumeHandle) === '') errors.push(required(`${path}.volumeHandle`));
      for (const ref of [
        'controllerPublishSecretRef',
        'controllerExpandSecretRef',
        'nodePublishSecretRef',
        'nodeExpandSecretRef',
      ]) {
        errors.push(...validateSecretRef(src[ref], `${path}.${ref}`));
      }
      return errors;
    }
    default:
      return [];
  }
}

/** Go's `path.Clean` as far as telling `/` apart: `//`, `/.`, `/..` are `/` too. */
export function cleanPath(p: string): string {
  if (!p.startsWith('/')) return p;
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** A source as its internal struct marshals, for the sources this file knows; else as sent. */
function goSource(name: string, src: unknown): unknown {
  if (!isObject(src)) return null;
  switch (name) {
    case 'hostPath':
      return { Path: str(src.path), Type: goStringPtr(src.type) };
    case 'nfs':
      return { Server: str(src.server), Path: str(src.path), ReadOnly: src.readOnly === true };
    case 'local':
      return { Path: str(src.path), FSType: goStringPtr(src.fsType) };
    case 'csi':
      return {
        Driver: str(src.driver),
        VolumeHandle: str(src.volumeHandle),
        ReadOnly: src.readOnly === true,
        FSType: str(src.fsType),
        VolumeAttributes: isObject(src.volumeAttributes)
          ? Object.fromEntries(
              Object.keys(src.volumeAttributes)
                .sort()
                .map((k) => [k, rec(src.volumeAttributes)[k]]),
            )
          : null,
        ControllerPublishSecretRef: goSecretRef(src.controllerPublishSecretRef),
        NodeStageSecretRef: goSecretRef(src.nodeStageSecretRef),
        NodePublishSecretRef: goSecretRef(src.nodePublishSecretRef),
        ControllerExpandSecretRef: goSecretRef(src.controllerExpandSecretRef),
        NodeExpandSecretRef: goSecretRef(src.nodeExpandSecretRef),
      };
    default:
      return src;
  }
}

/** The internal PersistentVolumeSource's fields, in declaration order (types.go). */
export const GO_SOURCES: ReadonlyArray<readonly [string, string]> = [
  ['GCEPersistentDisk', 'gcePersistentDisk'],
  ['AWSElasticBlockStore', 'awsElasticBlockStore'],
  ['HostPath', 'hostPath'],
  ['Glusterfs', 'glusterfs'],
  ['NFS', 'nfs'],
  ['RBD', 'rbd'],
  ['ISCSI', 'iscsi'],
  ['Cinder', 'cinder'],
  ['CephFS', 'cephfs'],
  ['FC', 'fc'],
  ['Flocker', 'flocker'],
  ['FlexVolume', 'flexVolume'],
  ['AzureFile', 'azureFile'],
  ['VsphereVolume', 'vsphereVolume'],
  ['Quobyte', 'quobyte'],
  ['AzureDisk', 'azureDisk'],
  ['PhotonPersistentDisk', 'photonPersistentDisk'],
  ['PortworxVolume', 'portworxVolume'],
  ['ScaleIO', 'scaleIO'],
  ['Local', 'local'],
  ['StorageOS', 'storageos'],
  ['CSI', 'csi'],
];

/** The internal PersistentVolumeSource of a spec, every source field in declaration order. */
export function goPersistentVolumeSource(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(GO_SOURCES.map(([goName, name]) => [goName, goSource(name, spec[name])]));
}
