import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { kind, names, row } from './columns-fixture.js';

describe('column sets match kubectl get', () => {
  it.each<[string, string, string[], string[]]>([
    [
      'v1',
      'Pod',
      ['READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
    ],
    [
      'apps/v1',
      'Deployment',
      ['READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
      ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    ],
    ['apps/v1', 'ReplicaSet', ['DESIRED', 'CURRENT', 'READY', 'AGE'], ['CONTAINERS', 'IMAGES', 'SELECTOR']],
    ['apps/v1', 'StatefulSet', ['READY', 'AGE'], ['CONTAINERS', 'IMAGES']],
    [
      'apps/v1',
      'DaemonSet',
      ['DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
      ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    ],
    ['v1', 'Namespace', ['STATUS', 'AGE'], []],
    [
      'v1',
      'Node',
      ['STATUS', 'ROLES', 'AGE', 'VERSION'],
      ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
    ],
    ['v1', 'ConfigMap', ['DATA', 'AGE'], []],
    ['v1', 'Secret', ['TYPE', 'DATA', 'AGE'], []],
    ['v1', 'Service', ['TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'], ['SELECTOR']],
    [
      'v1',
      'Event',
      ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
      ['SUBOBJECT', 'SOURCE', 'FIRST SEEN', 'COUNT', 'NAME'],
    ],
    ['coordination.k8s.io/v1', 'Lease', ['HOLDER', 'AGE'], []],
  ])('%s %s', (apiVersion, name, defaults, wide) => {
    const k = kind(apiVersion, name);
    expect(names(k, 0)).toEqual(defaults);
    expect(names(k, 1)).toEqual(wide);
    expect(k.columnsIncludeName === true).toBe(name === 'Event');
  });

  it.each(REGISTRY.map((k) => [k.kind, k] as const))(
    '%s cells accept {} and odd shapes without throwing',
    (_, k) => {
      for (const obj of [
        {},
        { metadata: {}, spec: 'x', status: 4, data: [] },
        { spec: { containers: [null], ports: 'x' } },
      ] as KubeObject[]) {
        for (const cell of row(k, obj)) expect(['string', 'number', 'boolean']).toContain(typeof cell);
      }
      const ageIndex = k.columns.findIndex((c) => c.name === 'Age');
      if (ageIndex >= 0) expect(row(k, {})[ageIndex]).toBe('<unknown>');
    },
  );
});
