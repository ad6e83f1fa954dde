import { describe, expect, it } from 'vitest';
import {
  parseIPSloppy,
  validateEndpointIP,
  validateLegacyIP,
} from '../../../../src/server/kinds/core/endpoint-ip.js';
import {
  defaultEndpoints,
  endpointsKind,
  formatEndpoints,
  validateEndpoints,
} from '../../../../src/server/kinds/core/endpoints.js';
import { builtinDeprecationWarning } from '../../../../src/server/kinds/lifecycle.js';

const messages = (errs: { field: string; message: string }[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('Endpoints', () => {
  it('parses IPs as ParseIPSloppy does', () => {
    expect(parseIPSloppy('010.1.2.3')?.slice(12)).toEqual([10, 1, 2, 3]);
    expect(parseIPSloppy('::ffff:1.2.3.4')?.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIPSloppy('1.2.3')).toBeUndefined();
    expect(parseIPSloppy('fe80::1%eth0')).toBeUndefined();
  });

  it('reports the legacy parse and the forbidden ranges apart', () => {
    expect(messages(validateLegacyIP('010.1.2.3', 'ip'))).toEqual([
      'ip: Invalid value: "010.1.2.3": must not have leading 0s',
    ]);
    expect(messages(validateEndpointIP('fe80::1', 'ip'))).toEqual([
      'ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ]);
    expect(validateEndpointIP('10.0.0.1', 'ip')).toEqual([]);
    const bad = validateEndpoints({ metadata: { name: 'e' }, subsets: [{ addresses: [{ ip: 'x' }] }] });
    expect(bad.map((e) => e.message)).toEqual([
      'Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'Invalid value: "x": must be a valid IP address',
    ]);
  });

  it('defaults TCP, requires port names when several, and keeps unchanged subsets on update', () => {
    const obj = {
      metadata: { name: 'e' },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 1 }, { port: 2 }] }],
    };
    defaultEndpoints(obj);
    expect(obj.subsets[0].ports).toEqual([
      { port: 1, protocol: 'TCP' },
      { port: 2, protocol: 'TCP' },
    ]);
    expect(messages(validateEndpoints(obj))).toEqual([
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[1].name: Required value',
    ]);
    expect(validateEndpoints(obj, structuredClone(obj))).toEqual([]);
  });

  it('prints at most three endpoints and warns as deprecated', () => {
    const addresses = ['10.0.0.1', '2001:db8::1', '10.0.0.3', '10.0.0.4'].map((ip) => ({ ip }));
    expect(formatEndpoints({ subsets: [{ addresses, ports: [{ port: 80 }] }] })).toBe(
      '10.0.0.1:80,[2001:db8::1]:80,10.0.0.3:80 + 1 more...',
    );
    expect(formatEndpoints({})).toBe('<none>');
    expect(builtinDeprecationWarning(endpointsKind)).toBe(
      'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
    );
  });
});
