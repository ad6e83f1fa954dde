/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { core, grouped, type KindSample, meta } from './kit.js';

const coreVolumeSamples: KindSample[] = [
  {
    ...core('PersistentVolumeClaim', 'persistentvolumeclaims', true),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta(name),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'data' },
  },
  {
    ...core('PersistentVolume', 'persistentvolumes', false),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: meta(name),
      spec: {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: '1Gi' },
        hostPath: { path: '/data/volume' },
      },
    }),
    change: { path: ['spec', 'persistentVolumeReclaimPolicy'], value: 'Delete' },
  },
];

const storage = (kind: string, plural: string, namespaced = false) =>
  grouped('storage.k8s.io', 'v1', kind, plural, namespaced, 'storage');

const storageSamples: KindSample[] = [
  {
    ...storage('StorageClass', 'storageclasses'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: meta(name),
      provisioner: 'csi.example.com',
      parameters: { type: 'fast' },
    }),
    change: { path: ['allowVolumeExpansion'], value: true },
  },
  {
    ...storage('CSIDriver', 'csidrivers'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: meta(name),
      spec: { attachRequired: false },
    }),
    change: { path: ['spec', 'podInfoOnMount'], value: true },
  },
  {
    ...storage('CSINode', 'csinodes'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: meta(name),
      spec: {
        drivers: [
          { name: 'csi.example.com', nodeID: 'node-1', topologyKeys: ['topology.kubernetes.io/zone'] },
        ],
      },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'data' },
  },
  {
    ...storage('CSIStorageCapacity', 'csistoragecapacities', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: meta(name),
      storageClassName: 'fast',
      capacity: '10Gi',
    }),
    change: { path: ['capacity'], value: '20Gi' },
  },
  {
    ...storage('VolumeAttributesClass', 'volumeattributesclasses'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttributesClass',
      metadata: meta(name),
      driverName: 'csi.example.com',
      parameters: { iops: '3000' },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'data' },
  },
  {
    ...storage('VolumeAttachment', 'volumeattachments'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: meta(name),
      spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'data' },
  },
];

export const volumeSamples: KindSample[] = [...coreVolumeSamples, ...storageSamples];
