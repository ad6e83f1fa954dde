import { describe, expect, it } from 'vitest';
import { defaulted, minimalService } from '../../defaults-fixture.js';

// The expected objects are `kubectl get -o yaml` of these manifests on a real
// cluster, minus what other layers add: server metadata, the allocated
// clusterIP, the service-account token volume, and the template's
// `creationTimestamp: null` (a Go serialization artefact).

describe('defaults match a real cluster', () => {
  it('minimal Service', () => {
    expect(defaulted('v1', 'Service', minimalService)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'demo' },
      spec: {
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
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
    expect(sticky.spec).toMatchObject({
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      clusterIPs: ['10.96.0.10'],
    });
    const ext = defaulted('v1', 'Service', { spec: { type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });
});
