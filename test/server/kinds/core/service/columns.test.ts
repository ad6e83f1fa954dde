import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { ago, kind, MIN, row } from '../../columns-fixture.js';

describe('other kinds', () => {
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
});
