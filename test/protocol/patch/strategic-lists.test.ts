import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import type { Obj } from './strategic-fixture.js';

describe('applyStrategicMergePatch: merge lists', () => {
  const cases: Array<[string, string, Obj, Obj, Obj]> = [
    [
      'env merges by name, new entries first (upstream order rule)',
      'Pod',
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [
                { name: 'B', value: 'x' },
                { name: 'C', value: '3' },
              ],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: 'x' },
                { name: 'C', value: '3' },
              ],
            },
          ],
        },
      },
    ],
    [
      'a new container lands before server-only ones',
      'Pod',
      { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      { spec: { containers: [{ name: 'n', image: 'x' }] } },
      { spec: { containers: [{ name: 'n', image: 'x' }, { name: 'a' }, { name: 'b' }] } },
    ],
    [
      'container ports merge by containerPort',
      'Pod',
      { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http' }] }] } },
      { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } },
      {
        spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }] }] },
      },
    ],
    [
      'volumeMounts by mountPath, volumeDevices by devicePath',
      'Pod',
      {
        spec: {
          containers: [
            {
              name: 'c',
              volumeMounts: [{ mountPath: '/a', name: 'x' }],
              volumeDevices: [{ devicePath: '/d', name: 'y' }],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              volumeMounts: [{ mountPath: '/a', readOnly: true }],
              volumeDevices: [{ devicePath: '/d', name: 'z' }],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              volumeMounts: [{ mountPath: '/a', name: 'x', readOnly: true }],
              volumeDevices: [{ devicePath: '/d', name: 'z' }],
            },
          ],
        },
      },
    ],
    [
      'tolerations have no merge key: replaced',
      'Pod',
      { spec: { tolerations: [{ key: 'a' }, { key: 'b' }] } },
      { spec: { tolerations: [{ key: 'c' }] } },
      { spec: { tolerations: [{ key: 'c' }] } },
    ],
    [
      'finalizers are a set of primitives',
      'ConfigMap',
      { metadata: { finalizers: ['a', 'b'] } },
      { metadata: { finalizers: ['b', 'c'] } },
      { metadata: { finalizers: ['a', 'b', 'c'] } },
    ],
    [
      '$deleteFromPrimitiveList removes from a set',
      'ConfigMap',
      { metadata: { finalizers: ['a', 'b', 'c'] } },
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'zz'] } },
      { metadata: { finalizers: ['a', 'c'] } },
    ],
    [
      'ownerReferences merge by uid',
      'ReplicaSet',
      { metadata: { ownerReferences: [{ uid: '1', name: 'a' }] } },
      {
        metadata: {
          ownerReferences: [
            { uid: '1', controller: true },
            { uid: '2', name: 'b' },
          ],
        },
      },
      {
        metadata: {
          ownerReferences: [
            { uid: '1', name: 'a', controller: true },
            { uid: '2', name: 'b' },
          ],
        },
      },
    ],
    [
      'service ports merge by port',
      'Service',
      { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } },
      { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
      { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
    ],
    [
      'node addresses and conditions merge by type',
      'Node',
      {
        status: {
          addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
          conditions: [{ type: 'Ready', status: 'False' }],
        },
      },
      {
        status: {
          addresses: [{ type: 'Hostname', address: 'n1' }],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
      {
        status: {
          addresses: [
            { type: 'Hostname', address: 'n1' },
            { type: 'InternalIP', address: '10.0.0.1' },
          ],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
    ],
    [
      'StatefulSet and DaemonSet share the pod template table',
      'DaemonSet',
      {
        spec: {
          template: { spec: { volumes: [{ name: 'a', emptyDir: {} }], imagePullSecrets: [{ name: 's' }] } },
        },
      },
      {
        spec: {
          template: { spec: { volumes: [{ name: 'b', emptyDir: {} }], imagePullSecrets: [{ name: 't' }] } },
        },
      },
      {
        spec: {
          template: {
            spec: {
              volumes: [
                { name: 'b', emptyDir: {} },
                { name: 'a', emptyDir: {} },
              ],
              imagePullSecrets: [{ name: 't' }, { name: 's' }],
            },
          },
        },
      },
    ],
    [
      'duplicate merge keys in a list new to the object are kept (53/TCP + 53/UDP)',
      'Pod',
      { spec: { containers: [{ name: 'c' }] } },
      {
        spec: {
          containers: [
            {
              name: 'c',
              ports: [
                { containerPort: 53, protocol: 'TCP' },
                { containerPort: 53, protocol: 'UDP' },
              ],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              ports: [
                { containerPort: 53, protocol: 'TCP' },
                { containerPort: 53, protocol: 'UDP' },
              ],
            },
          ],
        },
      },
    ],
    [
      'unknown kinds replace lists like JSON merge patch',
      'Widget',
      { spec: { containers: [{ name: 'a', x: 1 }], metadata: { finalizers: ['a'] } } },
      { spec: { containers: [{ name: 'a', y: 2 }] } },
      { spec: { containers: [{ name: 'a', y: 2 }], metadata: { finalizers: ['a'] } } },
    ],
  ];

  it.each(cases)('%s', (_name, kind, target, patch, expected) => {
    expect(applyStrategicMergePatch(target, patch, kind)).toEqual(expected);
  });
});
