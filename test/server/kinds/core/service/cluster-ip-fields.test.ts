import { describe, expect, it } from 'vitest';
import {
  normalizeClusterIPs,
  validateClusterIPFields,
} from '../../../../../src/server/kinds/core/service/cluster-ip-fields.js';
import type { FieldError } from '../../../../../src/server/kinds/types.js';

const texts = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.message}`);
const svc = (spec: Record<string, unknown>): { spec: Record<string, unknown> } => ({
  spec: { type: 'ClusterIP', ...spec },
});

describe('normalizeClusterIPs', () => {
  it('on a create, gives clusterIPs from clusterIP, never the other way', () => {
    const single = svc({ clusterIP: '10.96.0.9' });
    normalizeClusterIPs(single);
    expect(single.spec).toMatchObject({ clusterIPs: ['10.96.0.9'] });
    const plural = svc({ clusterIPs: ['10.96.0.9'] });
    normalizeClusterIPs(plural);
    expect(plural.spec).toEqual({ type: 'ClusterIP', clusterIPs: ['10.96.0.9'] });
  });

  it('on an update, keeps the old plural for a client that sent none, and follows a changed clusterIP', () => {
    const old = svc({ clusterIP: '10.96.0.9', clusterIPs: ['10.96.0.9'] });
    const kept = svc({ clusterIP: '10.96.0.9' });
    normalizeClusterIPs(kept, old);
    expect(kept.spec.clusterIPs).toEqual(['10.96.0.9']);
    const moved = svc({ clusterIP: '10.96.0.7', clusterIPs: ['10.96.0.9'] });
    normalizeClusterIPs(moved, old);
    expect(moved.spec.clusterIPs).toEqual(['10.96.0.7']);
    const cleared = svc({ clusterIP: '', clusterIPs: ['10.96.0.9'] });
    normalizeClusterIPs(cleared, old);
    expect(cleared.spec.clusterIPs).toBeUndefined();
  });
});

describe('validateClusterIPFields', () => {
  it('refuses what the reference refuses before allocating', () => {
    expect(texts(validateClusterIPFields(svc({ clusterIP: 'abc', clusterIPs: ['abc'] })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(
      texts(validateClusterIPFields(svc({ clusterIP: '10.96.0.010', clusterIPs: ['10.96.0.010'] }))),
    ).toEqual(['spec.clusterIPs[0]: Invalid value: "10.96.0.010": must not have leading 0s']);
    const mapped = '::ffff:10.96.0.9';
    expect(texts(validateClusterIPFields(svc({ clusterIP: mapped, clusterIPs: [mapped] })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "::ffff:10.96.0.9": must not be an IPv4-mapped IPv6 address',
    ]);
    expect(texts(validateClusterIPFields(svc({ clusterIPs: ['10.96.0.9', '10.96.0.10'] })))).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.9","10.96.0.10"]: must be empty when `clusterIP` is not specified',
      'spec.clusterIPs: Invalid value: ["10.96.0.9","10.96.0.10"]: may specify no more than one IP for each IP family',
    ]);
    expect(
      texts(validateClusterIPFields(svc({ clusterIP: 'None', clusterIPs: ['None', '10.96.0.9'] }))),
    ).toEqual([
      `spec.clusterIPs: Invalid value: ["None","10.96.0.9"]: 'None' must be the first and only value`,
    ]);
  });

  it('lets an address stored before keep its legacy form, and passes IPv6 forms Go parses', () => {
    const old = svc({ clusterIP: '10.96.0.010', clusterIPs: ['10.96.0.010'] });
    expect(
      validateClusterIPFields(svc({ clusterIP: '10.96.0.010', clusterIPs: ['10.96.0.010'] }), old),
    ).toEqual([]);
    for (const ip of ['2001:db8::7', '::', '::1.2.3.4', '1:2:3:4:5:6:7:8']) {
      expect(validateClusterIPFields(svc({ clusterIP: ip, clusterIPs: [ip] })), ip).toEqual([]);
    }
    expect(validateClusterIPFields(svc({ type: 'ExternalName', clusterIPs: ['x'] }))).toEqual([]);
  });
});
