import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { ago, kind, MIN, row } from '../columns-fixture.js';

describe('other kinds', () => {
  it('Namespace, ConfigMap, Secret, Lease', () => {
    expect(
      row(kind('v1', 'Namespace'), {
        metadata: { creationTimestamp: ago(90_000) },
        status: { phase: 'Active' },
      }),
    ).toEqual(['Active', '90s']);
    expect(
      row(kind('v1', 'ConfigMap'), {
        metadata: { creationTimestamp: ago(3 * MIN) },
        data: { a: '1', b: '2' },
        binaryData: { c: 'eA==' },
      }),
    ).toEqual([3, '3m']);
    expect(
      row(kind('v1', 'Secret'), {
        metadata: { creationTimestamp: ago(MIN) },
        type: 'Opaque',
        data: { a: 'eA==' },
      }),
    ).toEqual(['Opaque', 1, '60s']);
    expect(
      row(kind('coordination.k8s.io/v1', 'Lease'), {
        metadata: { creationTimestamp: ago(9 * 24 * 60 * MIN) },
        spec: { holderIdentity: 'node-1' },
      }),
    ).toEqual(['node-1', '9d']);
  });

  it('Node', () => {
    const node: KubeObject = {
      metadata: {
        creationTimestamp: ago(3 * 24 * 60 * MIN + 5 * 60 * MIN),
        labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker' },
      },
      spec: { unschedulable: true },
      status: {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
        addresses: [
          { type: 'Hostname', address: 'n1' },
          { type: 'InternalIP', address: '192.168.1.10' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.33.1',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          kernelVersion: '6.1.0',
          containerRuntimeVersion: 'containerd://1.7.22',
        },
      },
    };
    expect(row(kind('v1', 'Node'), node)).toEqual([
      'Ready,SchedulingDisabled',
      'control-plane,worker',
      '3d5h',
      'v1.33.1',
      '192.168.1.10',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.1.0',
      'containerd://1.7.22',
    ]);
    expect(
      row(kind('v1', 'Node'), { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }).slice(0, 2),
    ).toEqual(['NotReady', '<none>']);
    expect(row(kind('v1', 'Node'), {})).toEqual([
      'Unknown',
      '<none>',
      '<unknown>',
      '',
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ]);
  });

  it('Event', () => {
    const ev = kind('v1', 'Event');
    const legacy: KubeObject = {
      metadata: { name: 'web-1.17c2a' },
      involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{nginx}' },
      reason: 'Pulled',
      message: '  Successfully pulled image "nginx:1.25"\n',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: ago(10 * MIN),
      lastTimestamp: ago(2 * MIN),
      count: 3,
    };
    expect(row(ev, legacy)).toEqual([
      '2m',
      'Normal',
      'Pulled',
      'pod/web-1',
      'spec.containers{nginx}',
      'kubelet, node-1',
      'Successfully pulled image "nginx:1.25"',
      '10m',
      3,
      'web-1.17c2a',
    ]);
    const modern: KubeObject = {
      metadata: { name: 'e2' },
      involvedObject: { kind: 'Node' },
      reason: 'Starting',
      type: 'Normal',
      eventTime: ago(30_000).replace('Z', '123Z'),
      reportingComponent: 'kube-proxy',
      reportingInstance: 'node-1',
    };
    expect(row(ev, modern)).toEqual([
      '30s',
      'Normal',
      'Starting',
      'node',
      '',
      'kube-proxy, node-1',
      '',
      '30s',
      1,
      'e2',
    ]);
    const series: KubeObject = { ...modern, series: { count: 7, lastObservedTime: ago(5_000) } };
    expect(row(ev, series)[0]).toBe('5s');
    expect(row(ev, series)[8]).toBe(7);
    expect(row(ev, {})).toEqual(['<unknown>', '', '', '', '', '', '', '<unknown>', 1, '']);
    const nameCol = ev.columns.find((c) => c.name === 'Name')!;
    expect(nameCol).toMatchObject({ priority: 1, format: 'name' });
  });
});
