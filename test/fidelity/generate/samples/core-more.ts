/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { core, type KindSample, meta, template } from './kit.js';

export const coreMoreSamples: KindSample[] = [
  {
    ...core('Endpoints', 'endpoints', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta(name),
      subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'http', port: 8080 }] }],
    }),
    change: { path: ['subsets', '0', 'addresses', '0', 'ip'], value: '10.1.2.4' },
  },
  {
    ...core('LimitRange', 'limitranges', true),
    subresources: [],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: meta(name),
      spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' } }] },
    }),
    change: { path: ['spec', 'limits', '0', 'max', 'cpu'], value: '3' },
  },
  {
    ...core('ResourceQuota', 'resourcequotas', true),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: meta(name),
      spec: { hard: { pods: '10', 'requests.cpu': '4' } },
    }),
    change: { path: ['spec', 'hard', 'pods'], value: '20' },
  },
  {
    ...core('ReplicationController', 'replicationcontrollers', true),
    subresources: ['status', 'scale'],
    object: (name) => ({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: meta(name),
      spec: { replicas: 2, selector: { app: 'web' }, template: template('web') },
    }),
    change: { path: ['spec', 'replicas'], value: 3 },
  },
];
