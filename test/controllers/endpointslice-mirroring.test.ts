/**
 * The EndpointSlice mirroring controller's reconcile (which slices to create, update or delete
 * for an Endpoints) and, against a real server, a custom Endpoints mirrored and its slice removed
 * once the Endpoints is labelled skip-mirror.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Endpoints,
  reconcileSlices,
  type Slice,
  shouldMirror,
} from '../../src/controllers/endpointslice-mirroring-reconcile.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { eventually } from '../helpers/wait.js';

const ep = (
  subsets: Endpoints['subsets'],
  extra: Partial<NonNullable<Endpoints['metadata']>> = {},
): Endpoints => ({
  metadata: { name: 'ext', namespace: 'ns', uid: 'u1', ...extra },
  subsets,
});

describe('mirroring reconcile', () => {
  it('makes one slice per address family, copying labels and annotations but the trigger time', () => {
    const c = reconcileSlices(
      ep(
        [
          {
            addresses: [{ ip: '10.0.0.1', hostname: 'a', nodeName: 'n' }, { ip: 'fd00::1' }],
            notReadyAddresses: [{ ip: '10.0.0.2' }],
            ports: [{ name: 'web', port: 80, protocol: 'TCP' }],
          },
        ],
        {
          labels: { team: 'edge' },
          annotations: { note: 'x', 'endpoints.kubernetes.io/last-change-trigger-time': 't' },
        },
      ),
      [],
      1000,
    );
    expect(c.update).toEqual([]);
    expect(c.create.map((s) => s.addressType)).toEqual(['IPv4', 'IPv6']);
    const v4 = c.create[0]!;
    expect(v4.metadata).toMatchObject({
      generateName: 'ext-',
      labels: {
        team: 'edge',
        'kubernetes.io/service-name': 'ext',
        'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
      },
      annotations: { note: 'x' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: 'u1', controller: true }],
    });
    expect(v4.endpoints).toEqual([
      { addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'n', hostname: 'a' },
      { addresses: ['10.0.0.2'], conditions: { ready: false } },
    ]);
    expect(v4.ports).toEqual([{ name: 'web', port: 80, protocol: 'TCP' }]);
  });

  it('leaves a matching slice alone, rewrites a changed one and reuses a doomed one’s name', () => {
    const endpoints = ep([
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ name: '', port: 80, protocol: 'TCP' }] },
    ]);
    const first = reconcileSlices(endpoints, [], 1000).create[0]!;
    const stored: Slice = {
      ...first,
      metadata: { ...first.metadata, name: 'ext-abcde', generateName: undefined },
    };
    expect(reconcileSlices(endpoints, [stored], 1000)).toEqual({
      create: [],
      update: [],
      delete: [],
      skipped: 0,
    });
    const moved = ep([{ addresses: [{ ip: '10.0.0.9' }], ports: [{ name: '', port: 80, protocol: 'TCP' }] }]);
    expect(reconcileSlices(moved, [stored], 1000).update.map((s) => s.metadata?.name)).toEqual(['ext-abcde']);
    // Another port: the old slice's name goes to the new port set's slice.
    const other = ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: '', port: 81, protocol: 'TCP' }] }]);
    const c = reconcileSlices(other, [stored], 1000);
    expect([c.create.length, c.delete.length]).toEqual([0, 0]);
    expect(c.update[0]?.metadata?.name).toBe('ext-abcde');
    expect(c.update[0]?.ports).toEqual([{ name: '', port: 81, protocol: 'TCP' }]);
  });

  it('mirrors at most the maximum a subset and counts the rest skipped', () => {
    const addresses = Array.from({ length: 5 }, (_, i) => ({ ip: `10.0.0.${i + 1}` }));
    const c = reconcileSlices(ep([{ addresses, ports: [{ port: 80, protocol: 'TCP' }] }]), [], 3);
    expect(c.create[0]?.endpoints).toHaveLength(3);
    expect(c.skipped).toBe(2);
  });

  it('skips an Endpoints labelled skip-mirror or holding a leader record', () => {
    expect(shouldMirror(ep([]))).toBe(true);
    expect(shouldMirror(ep([], { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }))).toBe(
      false,
    );
    expect(shouldMirror(ep([], { annotations: { 'control-plane.alpha.kubernetes.io/leader': '{}' } }))).toBe(
      false,
    );
  });
});

describe('the EndpointSlice mirroring controller', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace', 'endpointslicemirroring'] });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('mirrors a selectorless Service’s Endpoints and removes the slice on skip-mirror', async () => {
    const kube = cluster.client;
    await kube
      .resource('services', 'default')
      .create({ metadata: { name: 'ext' }, spec: { ports: [{ port: 80 }] } });
    await kube.resource<Endpoints>('endpoints', 'default').create({
      metadata: { name: 'ext' },
      subsets: [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 8080 }] }],
    });
    const slices = kube.resource<Slice>('endpointslices.discovery.k8s.io', 'default');
    const list = () => slices.list({ labelSelector: 'kubernetes.io/service-name=ext' });
    const slice = await eventually(async () => (await list()).items[0], 'the mirrored slice');
    expect(slice.endpoints).toEqual([{ addresses: ['10.1.1.1'], conditions: { ready: true } }]);
    expect(slice.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    await kube
      .resource('endpoints', 'default')
      .patch('ext', { metadata: { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } } }, 'merge');
    await eventually(async () => (await list()).items.length === 0, 'the slice deleted');
  });
});
