/** Samples of resource.k8s.io's kinds (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta } from './kit.js';

const resource = (kind: string, plural: string, namespaced = false) =>
  grouped('resource.k8s.io', 'v1', kind, plural, namespaced, 'resource');

const request = () => ({ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } });

export const resourceSamples: KindSample[] = [
  {
    ...resource('DeviceClass', 'deviceclasses'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: meta(name),
      spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'gpu' },
  },
  {
    ...resource('ResourceClaim', 'resourceclaims', true),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: meta(name),
      spec: { devices: { requests: [request()] } },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'gpu' },
  },
  {
    ...resource('ResourceClaimTemplate', 'resourceclaimtemplates', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: meta(name),
      spec: { spec: { devices: { requests: [request()] } } },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'gpu' },
  },
  {
    ...resource('ResourceSlice', 'resourceslices'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: meta(name),
      spec: {
        driver: 'gpu.example.com',
        nodeName: 'node-1',
        pool: { name: 'node-1', resourceSliceCount: 1 },
        devices: [{ name: 'gpu-0', attributes: { model: { string: 'a100' } } }],
      },
    }),
    change: { path: ['spec', 'pool', 'generation'], value: 1 },
  },
  {
    ...resource('DeviceTaintRule', 'devicetaintrules'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceTaintRule',
      metadata: meta(name),
      spec: {
        deviceSelector: { driver: 'gpu.example.com' },
        taint: {
          key: 'example.com/broken',
          value: 'yes',
          effect: 'NoSchedule',
          timeAdded: '2026-01-01T00:00:00Z',
        },
      },
    }),
    change: { path: ['metadata', 'labels', 'tier'], value: 'gpu' },
  },
];
