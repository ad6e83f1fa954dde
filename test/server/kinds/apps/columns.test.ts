import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { formatLabels, formatSelectorCell, labelSelectorText } from '../../../../src/server/kinds/columns.js';
import { ago, kind, MIN, row } from '../columns-fixture.js';

describe('workload cells', () => {
  const template = {
    selector: {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }],
    },
    template: {
      spec: {
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        containers: [
          { name: 'nginx', image: 'nginx:1.25' },
          { name: 'side', image: 'envoy:1' },
        ],
      },
    },
  };
  const created = { name: 'web', creationTimestamp: ago(26 * 60 * MIN) };

  it('Deployment', () => {
    const d: KubeObject = {
      metadata: created,
      spec: { replicas: 3, ...template },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(row(kind('apps/v1', 'Deployment'), d)).toEqual([
      '2/3',
      3,
      2,
      '26h',
      'nginx,side',
      'nginx:1.25,envoy:1',
      'app=web,tier in (a,b)',
    ]);
    expect(row(kind('apps/v1', 'Deployment'), {})).toEqual(['0/0', 0, 0, '<unknown>', '', '', '']);
  });

  it('ReplicaSet', () => {
    const rs: KubeObject = {
      metadata: created,
      spec: { replicas: 3, ...template },
      status: { replicas: 3, readyReplicas: 1 },
    };
    expect(row(kind('apps/v1', 'ReplicaSet'), rs)).toEqual([
      3,
      3,
      1,
      '26h',
      'nginx,side',
      'nginx:1.25,envoy:1',
      'app=web,tier in (a,b)',
    ]);
    expect(row(kind('apps/v1', 'ReplicaSet'), {}).at(-1)).toBe('<none>');
  });

  it('StatefulSet', () => {
    const sts: KubeObject = {
      metadata: created,
      spec: { replicas: 2, ...template },
      status: { readyReplicas: 2 },
    };
    expect(row(kind('apps/v1', 'StatefulSet'), sts)).toEqual([
      '2/2',
      '26h',
      'nginx,side',
      'nginx:1.25,envoy:1',
    ]);
  });

  it('DaemonSet', () => {
    const ds: KubeObject = {
      metadata: created,
      spec: template,
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
      },
    };
    expect(row(kind('apps/v1', 'DaemonSet'), ds)).toEqual([
      3,
      3,
      2,
      3,
      2,
      'kubernetes.io/os=linux',
      '26h',
      'nginx,side',
      'nginx:1.25,envoy:1',
      'app=web,tier in (a,b)',
    ]);
    expect(row(kind('apps/v1', 'DaemonSet'), {})[5]).toBe('<none>');
  });

  it('selector helpers', () => {
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(formatLabels(undefined)).toBe('<none>');
    expect(labelSelectorText({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] })).toBe('!x');
    expect(labelSelectorText({ matchExpressions: [{ key: 'x', operator: 'Bogus' }] })).toBeUndefined();
    expect(formatSelectorCell({ matchExpressions: [{ key: 'x', operator: 'Bogus' }] })).toBe('<error>');
  });
});
