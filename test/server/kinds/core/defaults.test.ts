import { describe, expect, it } from 'vitest';
import { defaulted } from '../defaults-fixture.js';

// The expected objects are `kubectl get -o yaml` of these manifests on a real
// cluster, minus what other layers add: server metadata, the allocated
// clusterIP, the service-account token volume, and the template's
// `creationTimestamp: null` (a Go serialization artefact).

describe('defaults match a real cluster', () => {
  it('Namespace, Secret, Node, ConfigMap, Event and Lease', () => {
    expect(defaulted('v1', 'Namespace', { metadata: { name: 'demo' } })).toEqual({
      metadata: { name: 'demo', labels: { 'kubernetes.io/metadata.name': 'demo' } },
      status: { phase: 'Active' },
    });
    expect(defaulted('v1', 'Secret', { metadata: { name: 's' }, data: { a: 'YQ==' } })).toEqual({
      metadata: { name: 's' },
      data: { a: 'YQ==' },
      type: 'Opaque',
    });
    expect(
      defaulted('v1', 'Node', {
        spec: { podCIDR: '10.244.1.0/24' },
        status: { capacity: { cpu: '4', pods: '110' } },
      }),
    ).toEqual({
      spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] },
      status: {
        capacity: { cpu: '4', pods: '110' },
        allocatable: { cpu: '4', pods: '110' },
        // Go's zero values of the non-omitempty fields.
        daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
        nodeInfo: {
          machineID: '',
          systemUUID: '',
          bootID: '',
          kernelVersion: '',
          osImage: '',
          containerRuntimeVersion: '',
          kubeletVersion: '',
          kubeProxyVersion: '',
          operatingSystem: '',
          architecture: '',
        },
      },
    });
    expect(defaulted('v1', 'Node', {})).toMatchObject({ spec: {}, status: { nodeInfo: { machineID: '' } } });
    expect(defaulted('v1', 'ConfigMap', { metadata: { name: 'x' } })).toEqual({ metadata: { name: 'x' } });
    // An Event's non-omitempty fields are always written: zero times as null, strings as "".
    expect(defaulted('v1', 'Event', { metadata: { name: 'x' } })).toEqual({
      metadata: { name: 'x' },
      involvedObject: {},
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    });
    expect(defaulted('coordination.k8s.io/v1', 'Lease', { spec: {} })).toEqual({ spec: {} });
  });
});

describe('defaults in detail', () => {
  it('moves Secret stringData into data', () => {
    const s = defaulted('v1', 'Secret', {
      data: { a: 'eA==', b: 'eA==' },
      stringData: { b: 'hello', c: 'wörld' },
    });
    expect(s).toEqual({
      type: 'Opaque',
      data: {
        a: 'eA==',
        b: Buffer.from('hello').toString('base64'),
        c: Buffer.from('wörld').toString('base64'),
      },
    });
  });

  it('keeps the Namespace name label equal to the name, as kube does', () => {
    const ns = defaulted('v1', 'Namespace', {
      metadata: { name: 'demo', labels: { 'kubernetes.io/metadata.name': 'other', team: 'a' } },
    });
    expect(ns.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'demo', team: 'a' });
  });
});
