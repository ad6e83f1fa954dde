import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { formatLabels, formatSelectorCell, labelSelectorText } from '../../../src/server/kinds/columns.js';
import { podSummary } from '../../../src/server/kinds/core/pod/status.js';
import { findByKind, REGISTRY } from '../../../src/server/kinds/served/registry.js';
import type { ResourceKind } from '../../../src/server/kinds/types.js';

const now = Date.parse('2024-05-01T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const MIN = 60_000;

function names(k: ResourceKind, priority?: number): string[] {
  return k.columns
    .filter((c) => priority === undefined || c.priority === priority)
    .map((c) => c.name.toUpperCase());
}

function row(k: ResourceKind, obj: KubeObject): Array<string | number | boolean | null> {
  return k.columns.map((c) => c.cell(obj, now));
}

const kind = (apiVersion: string, name: string) => findByKind(apiVersion, name)!;

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

  it('Service', () => {
    const svc = kind('v1', 'Service');
    const clusterIP: KubeObject = {
      metadata: { creationTimestamp: ago(10 * MIN) },
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        selector: { app: 'web' },
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
      },
    };
    expect(row(svc, clusterIP)).toEqual([
      'ClusterIP',
      '10.96.0.10',
      '<none>',
      '80/TCP,53/UDP',
      '10m',
      'app=web',
    ]);
    const lb: KubeObject = {
      spec: {
        type: 'LoadBalancer',
        clusterIP: '10.96.0.11',
        ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }],
        externalIPs: ['1.2.3.4'],
      },
      status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }, { hostname: 'lb.example.com' }] } },
    };
    expect(row(svc, lb).slice(0, 4)).toEqual([
      'LoadBalancer',
      '10.96.0.11',
      '5.6.7.8,lb.example.com,1.2.3.4',
      '443:31443/TCP',
    ]);
    expect(row(svc, { spec: { type: 'LoadBalancer' } })[2]).toBe('<pending>');
    expect(row(svc, { spec: { type: 'ExternalName', externalName: 'example.com' } }).slice(0, 4)).toEqual([
      'ExternalName',
      '<none>',
      'example.com',
      '<none>',
    ]);
    expect(row(svc, {})).toEqual(['', '<none>', '<unknown>', '<none>', '<unknown>', '<none>']);
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
