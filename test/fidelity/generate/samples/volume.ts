/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { core, type KindSample, meta } from './kit.js';

export const volumeSamples: KindSample[] = [
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
