import { describe, expect, it } from 'vitest';
import { initIpFamilies } from '../../../../../src/server/kinds/core/service/cluster-ips.js';
import { defaulted, minimalService } from '../../defaults-fixture.js';

// The expected objects are `kubectl get -o yaml` of these manifests on a real
// cluster, minus what other layers add: server metadata, the allocated
// clusterIP, the service-account token volume, and the template's
// `creationTimestamp: null` (a Go serialization artefact). The IP family fields and clusterIPs
// are the storage's (cluster-ips.ts `initIpFamilies`), set after the field manager ran.

describe('defaults match a real cluster', () => {
  it('minimal Service', () => {
    expect(defaulted('v1', 'Service', minimalService)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'demo' },
      spec: {
        internalTrafficPolicy: 'Cluster',
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        selector: { app: 'web' },
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
  });
});

describe('defaults in detail', () => {
  it('covers the Service variants', () => {
    const lb = defaulted('v1', 'Service', {
      spec: { type: 'LoadBalancer', ports: [{ port: 443, targetPort: 'https' }] },
    });
    expect(lb.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
      ports: [{ port: 443, targetPort: 'https', protocol: 'TCP' }],
    });
    const sticky = defaulted('v1', 'Service', {
      spec: { sessionAffinity: 'ClientIP', clusterIP: '10.96.0.10' },
    });
    expect(sticky.spec).toMatchObject({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } });
    const ext = defaulted('v1', 'Service', { spec: { type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });
});

describe('initIpFamilies (the storage, after the field manager)', () => {
  it('gives clusterIPs from clusterIP and sets the families of a single-stack IPv4 cluster', () => {
    const svc = { spec: { type: 'ClusterIP', clusterIP: '10.96.0.10' } };
    initIpFamilies(svc);
    expect(svc.spec).toEqual({
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
  });

  it('a headless Service without selector requires dual stack; an update keeps the old policy', () => {
    const headless = { spec: { type: 'ClusterIP', clusterIP: 'None' } };
    initIpFamilies(headless);
    expect(headless.spec).toMatchObject({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    const next = { spec: { type: 'ClusterIP', clusterIPs: ['10.96.0.11'] } };
    initIpFamilies(next, { spec: { type: 'ClusterIP', ipFamilyPolicy: 'PreferDualStack' } });
    expect(next.spec).toMatchObject({ ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'] });
    const external = { spec: { type: 'ExternalName', externalName: 'example.com' } };
    initIpFamilies(external);
    expect(external.spec).toEqual({ type: 'ExternalName', externalName: 'example.com' });
  });
});
