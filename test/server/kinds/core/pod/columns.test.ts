import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { podSummary } from '../../../../../src/server/kinds/core/pod/status.js';
import { ago, kind, MIN, now, row } from '../../columns-fixture.js';

describe('pod cells', () => {
  const pods = kind('v1', 'Pod');
  const running: KubeObject = {
    metadata: { name: 'web-1', creationTimestamp: ago(5 * MIN) },
    spec: { nodeName: 'node-1', containers: [{ name: 'a' }, { name: 'b' }] },
    status: {
      phase: 'Running',
      podIP: '10.244.0.5',
      podIPs: [{ ip: '10.244.0.5' }],
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'a',
          ready: true,
          restartCount: 2,
          state: { running: {} },
          lastState: { terminated: { finishedAt: ago(3 * MIN), exitCode: 1 } },
        },
        { name: 'b', ready: true, restartCount: 0, state: { running: {} } },
      ],
    },
  };

  it('renders a running pod', () => {
    expect(row(pods, running)).toEqual([
      '2/2',
      'Running',
      '2 (3m ago)',
      '5m',
      '10.244.0.5',
      'node-1',
      '<none>',
      '<none>',
    ]);
  });

  it('renders an empty pod', () => {
    expect(row(pods, {})).toEqual(['0/0', '', '0', '<unknown>', '<none>', '<none>', '<none>', '<none>']);
  });

  const summary = (
    status: Record<string, unknown>,
    spec: Record<string, unknown> = { containers: [{ name: 'c' }] },
    metadata = {},
  ) => podSummary({ metadata, spec, status }, now);

  it.each<[string, Record<string, unknown>, string]>([
    ['Pending', { phase: 'Pending' }, 'Pending'],
    [
      'ContainerCreating',
      {
        phase: 'Pending',
        containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ContainerCreating' } } }],
      },
      'ContainerCreating',
    ],
    [
      'ErrImagePull',
      {
        phase: 'Pending',
        containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ErrImagePull' } } }],
      },
      'ErrImagePull',
    ],
    [
      'ImagePullBackOff',
      {
        phase: 'Pending',
        containerStatuses: [{ name: 'c', state: { waiting: { reason: 'ImagePullBackOff' } } }],
      },
      'ImagePullBackOff',
    ],
    [
      'CrashLoopBackOff',
      {
        phase: 'Running',
        containerStatuses: [
          { name: 'c', restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
      'CrashLoopBackOff',
    ],
    [
      'Completed',
      {
        phase: 'Succeeded',
        containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Completed', exitCode: 0 } } }],
      },
      'Completed',
    ],
    [
      'Error',
      {
        phase: 'Failed',
        containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Error', exitCode: 1 } } }],
      },
      'Error',
    ],
    [
      'ExitCode',
      { phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 137 } } }] },
      'ExitCode:137',
    ],
    [
      'Signal',
      {
        phase: 'Failed',
        containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, signal: 9 } } }],
      },
      'Signal:9',
    ],
    ['status reason', { phase: 'Failed', reason: 'Evicted' }, 'Evicted'],
    [
      'SchedulingGated',
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
      },
      'SchedulingGated',
    ],
  ])('STATUS %s', (_, status, expected) => {
    expect(summary(status).status).toBe(expected);
  });

  it('STATUS during init, with sidecars, and while terminating', () => {
    const spec = { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'c' }] };
    expect(
      summary({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { running: {} } }] }, spec)
        .status,
    ).toBe('Init:0/2');
    expect(
      summary(
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'i1', state: { waiting: { reason: 'ImagePullBackOff' } } }],
        },
        spec,
      ).status,
    ).toBe('Init:ImagePullBackOff');
    expect(
      summary(
        { phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 2 } } }] },
        spec,
      ).status,
    ).toBe('Init:ExitCode:2');
    expect(
      summary(
        {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'i1', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
            { name: 'i2', state: { waiting: { reason: 'PodInitializing' } } },
          ],
        },
        spec,
      ).status,
    ).toBe('Init:1/2');

    const sidecarSpec = {
      initContainers: [{ name: 'proxy', restartPolicy: 'Always' }],
      containers: [{ name: 'c' }],
    };
    const withSidecar = summary(
      {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [
          { name: 'proxy', started: true, ready: true, restartCount: 1, state: { running: {} } },
        ],
        containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: { running: {} } }],
      },
      sidecarSpec,
    );
    expect(withSidecar).toEqual({ ready: '2/2', status: 'Running', restarts: '1' });

    const terminating = summary({ phase: 'Running' }, undefined, { deletionTimestamp: ago(MIN) });
    expect(terminating.status).toBe('Terminating');
    expect(summary({ phase: 'Succeeded' }, undefined, { deletionTimestamp: ago(MIN) }).status).toBe(
      'Succeeded',
    );
    expect(
      summary({ phase: 'Running', reason: 'NodeLost' }, undefined, { deletionTimestamp: ago(MIN) }).status,
    ).toBe('Unknown');
  });

  it('turns Completed back into Running or NotReady while a container still runs', () => {
    const spec = { containers: [{ name: 'a' }, { name: 'b' }] };
    const status = (ready: boolean) => ({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: [
        { name: 'a', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        { name: 'b', ready: true, state: { running: {} } },
      ],
    });
    expect(summary(status(true), spec)).toMatchObject({ ready: '1/2', status: 'Running' });
    expect(summary(status(false), spec)).toMatchObject({ status: 'NotReady' });
  });

  it('counts readiness gates', () => {
    const gated: KubeObject = {
      spec: { readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }] },
      status: { conditions: [{ type: 'example.com/lb', status: 'True' }] },
    };
    expect(row(pods, gated).at(-1)).toBe('1/2');
  });
});
