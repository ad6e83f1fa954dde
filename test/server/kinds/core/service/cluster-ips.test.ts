import { describe, expect, it } from 'vitest';
import {
  candidates,
  checkRequested,
  checkRequestedDryRun,
  intToIpv4,
  readyRanges,
  serviceRange,
} from '../../../../../src/server/kinds/core/service/cluster-ips.js';
import { dropTypeDependentFields } from '../../../../../src/server/kinds/core/service/type-change.js';

const ip = (n: number | undefined) => (n === undefined ? undefined : intToIpv4(n));

describe('a ServiceCIDR range as the allocator hands it out', () => {
  it('keeps the network and broadcast addresses out, and a lower part for requested addresses', () => {
    const big = serviceRange('10.96.0.0/12')!;
    expect([ip(big.network), ip(big.first), ip(big.offset), ip(big.last)]).toEqual([
      '10.96.0.0',
      '10.96.0.1',
      '10.96.1.1',
      '10.111.255.254',
    ]);
    const small = serviceRange('10.251.0.0/24')!;
    expect([ip(small.offset), ip(small.last)]).toEqual(['10.251.0.17', '10.251.0.254']);
    // 16 addresses or fewer: no lower part.
    expect(ip(serviceRange('10.0.0.0/28')!.offset)).toBe('10.0.0.1');
    expect(serviceRange('2001:db8::/112')).toBeUndefined();
  });

  it('tries the upper part from a random point around, then the lower part', () => {
    const tiny = serviceRange('10.0.0.0/27')!; // 30 hosts, 16 kept below
    const order = [...candidates(tiny, () => 0.5)];
    expect(order.slice(0, 2)).toEqual(['10.0.0.24', '10.0.0.25']);
    expect(order.indexOf('10.0.0.30')).toBeLessThan(order.indexOf('10.0.0.1'));
    expect(new Set(order).size).toBe(30);
  });

  it('takes the ready ServiceCIDRs: Ready True or no Ready condition, not being deleted, IPv4 only, the default first', () => {
    const sc = (name: string, cidrs: string[], extra: Record<string, unknown> = {}) => ({
      metadata: { name, ...(extra.metadata as object) },
      spec: { cidrs },
      status: extra.status as object,
    });
    const ranges = readyRanges([
      sc('dual', ['10.250.0.0/24', '2001:db8::/112']),
      sc('kubernetes', ['10.96.0.0/12'], { status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
      sc('not-ready', ['10.251.0.0/24'], { status: { conditions: [{ type: 'Ready', status: 'False' }] } }),
      sc('going', ['10.252.0.0/24'], { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }),
      sc('again', ['10.96.0.0/12']),
    ]);
    expect(ranges.map((r) => r.cidr)).toEqual(['10.96.0.0/12', '10.250.0.0/24']);
  });

  it('refuses requested addresses with the allocator messages', () => {
    const ranges = [serviceRange('10.96.0.0/12')!];
    expect(checkRequested('10.96.0.21', ranges)).toBeUndefined();
    for (const outside of ['10.96.0.0', '10.111.255.255', '192.168.0.1']) {
      expect(checkRequested(outside, ranges)).toBe('the provided network does not match the current range');
    }
    expect(checkRequestedDryRun('10.200.0.1', ranges[0])).toBe(
      'the provided IP (10.200.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
  });
});

describe('dropTypeDependentFields', () => {
  it('an ExternalName loses the cluster IPs, families and policies it left as they were', () => {
    const old = {
      spec: {
        type: 'NodePort',
        clusterIP: '10.96.0.5',
        clusterIPs: ['10.96.0.5'],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
        externalTrafficPolicy: 'Cluster',
        ports: [{ port: 80, nodePort: 30080 }],
      },
    };
    const next = structuredClone(old) as { spec: Record<string, unknown> };
    next.spec.type = 'ExternalName';
    next.spec.externalName = 'example.com';
    dropTypeDependentFields(next, old, 'main');
    expect(next.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', ports: [{ port: 80 }] });
    const status = structuredClone(old);
    dropTypeDependentFields(status, old, 'status');
    expect(status).toEqual(old);
  });
});
