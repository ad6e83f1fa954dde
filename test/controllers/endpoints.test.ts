/**
 * The endpoints and EndpointSlice controllers beyond the fidelity cases
 * (cases/endpoints-controllers.yaml): the subsets' packing, named target ports, the trigger
 * time, and a Deployment's Service filled by the simulated cluster's pods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPort, TriggerTimeTracker } from '../../src/controllers/endpoints-pods.js';
import { fnv128a, portPrinted, repackSubsets } from '../../src/controllers/endpoints-repack.js';
import type { KubeObject } from '../../src/protocol/events.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { eventually } from '../helpers/wait.js';

const ref = (uid: string) => ({ kind: 'Pod', namespace: 'ns', name: uid, uid });

describe('repackSubsets', () => {
  it('puts the ports holding the same addresses in one subset, addresses sorted, not-ready kept apart', () => {
    const http = { name: 'http', port: 8080, protocol: 'TCP' };
    const packed = repackSubsets([
      { addresses: [{ ip: '10.0.0.2', targetRef: ref('b') }], ports: [http] },
      { notReadyAddresses: [{ ip: '10.0.0.3', targetRef: ref('c') }], ports: [http] },
      { addresses: [{ ip: '10.0.0.1', targetRef: ref('a') }], ports: [http] },
    ]);
    expect(packed).toEqual([
      {
        addresses: [
          { ip: '10.0.0.1', targetRef: ref('a') },
          { ip: '10.0.0.2', targetRef: ref('b') },
        ],
        notReadyAddresses: [{ ip: '10.0.0.3', targetRef: ref('c') }],
        ports: [http],
      },
    ]);
    expect(repackSubsets([])).toEqual([]);
  });

  it("orders a subset's ports by the FNV-128a hash of their Go printing, as kube-controller-manager", () => {
    // The hashes pkg/util/hash DeepHashObject gives these ports (a Go probe against k8s.io/api v0.37.2).
    expect(fnv128a(portPrinted({ name: 'http', port: 8080, protocol: 'TCP' })).toString(16)).toBe(
      '25304a33da9e6ece350a4142a45f5b75',
    );
    expect(
      fnv128a(portPrinted({ name: 'metrics', port: 9090, protocol: 'TCP', appProtocol: 'h2c' })).toString(16),
    ).toBe('fe588e06928bb3261a45d00ee87af75c');
  });
});

describe('findPort and the trigger time', () => {
  it('resolves a named target port by name and protocol, sidecars included', () => {
    const pod = {
      spec: {
        containers: [{ ports: [{ name: 'web', containerPort: 8080 }] }],
        initContainers: [
          { restartPolicy: 'Always', ports: [{ name: 'dns', containerPort: 53, protocol: 'UDP' }] },
        ],
      },
    };
    expect(findPort(pod, { port: 80, targetPort: 'web', protocol: 'TCP' })).toBe(8080);
    expect(findPort(pod, { port: 53, targetPort: 'dns', protocol: 'UDP' })).toBe(53);
    expect(findPort(pod, { port: 53, targetPort: 'dns', protocol: 'TCP' })).toBeUndefined();
    expect(findPort(pod, { port: 80, targetPort: 9090 })).toBe(9090);
  });

  it("is the Service's creation first, then the earliest Ready transition since, then none", () => {
    const tracker = new TriggerTimeTracker();
    const service = { metadata: { name: 's', creationTimestamp: '2026-01-01T00:00:00Z' } };
    const pod = (name: string, at: string) => ({
      metadata: { name },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }] },
    });
    expect(tracker.compute('ns/s', service, [])).toBe(Date.parse('2026-01-01T00:00:00Z'));
    const pods = [pod('a', '2026-01-01T00:01:00Z'), pod('b', '2026-01-01T00:00:30Z')];
    expect(tracker.compute('ns/s', service, pods)).toBe(Date.parse('2026-01-01T00:00:30Z'));
    expect(tracker.compute('ns/s', service, pods)).toBe(0);
  });
});

describe("a Deployment's Service in the simulated cluster", () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['*', 'simulation'] });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('gets Endpoints and an EndpointSlice with the ready pods', async () => {
    const ns = 'default';
    const labels = { app: 'web' };
    await cluster.client.resource('deployments.apps', ns).create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [{ name: 'web', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
          },
        },
      },
    } as KubeObject);
    await cluster.client.resource('services', ns).create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: labels, ports: [{ port: 80, targetPort: 'http' }] },
    } as KubeObject);
    const endpoints = await eventually(async () => {
      const ep = await cluster.client.resource('endpoints', ns).find('web');
      const subsets = (ep as { subsets?: Array<{ addresses?: unknown[]; ports?: unknown[] }> })?.subsets;
      return subsets?.[0]?.addresses?.length === 2 ? subsets : undefined;
    }, 'Endpoints web with both ready pods');
    expect(endpoints[0]!.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    const slices = await eventually(async () => {
      const list = await cluster.client
        .resource('endpointslices.discovery.k8s.io', ns)
        .list({ labelSelector: 'kubernetes.io/service-name=web' });
      const items = list.items as Array<{ endpoints?: Array<{ conditions?: { ready?: boolean } }> }>;
      return items[0]?.endpoints?.filter((e) => e.conditions?.ready).length === 2 ? items : undefined;
    }, 'an EndpointSlice of web with both ready pods');
    expect(slices).toHaveLength(1);
  });
});
