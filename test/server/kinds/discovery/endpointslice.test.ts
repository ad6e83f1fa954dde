/** The EndpointSlice (discovery.k8s.io/v1): defaults, validation by address type, the declarative rules last, cells. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { kind, row } from '../columns-fixture.js';
import { check } from '../validation-fixture.js';

const V1 = 'discovery.k8s.io/v1';
const slice = (extra: Record<string, unknown>): KubeObject => ({ metadata: { name: 's' }, ...extra });

describe('EndpointSlice', () => {
  it('defaults port names and protocols, and writes missing lists and conditions as Go does', () => {
    const obj = slice({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'] }],
      ports: [{ port: 80 }],
    });
    kind(V1, 'EndpointSlice').defaults!(obj);
    expect(obj.ports).toEqual([{ name: '', port: 80, protocol: 'TCP' }]);
    expect(obj.endpoints).toEqual([{ addresses: ['10.0.0.1'], conditions: {} }]);
    const bare = slice({ addressType: 'IPv4' });
    kind(V1, 'EndpointSlice').defaults!(bare);
    expect(bare).toMatchObject({ endpoints: null, ports: null });
  });

  it('checks each address by the slice type, and the declarative rules after the others', () => {
    expect(
      check(
        V1,
        'EndpointSlice',
        slice({ addressType: 'IPv4', endpoints: [{ addresses: ['fd00::1', '127.0.0.1'] }, {}] }),
      ),
    ).toEqual([
      'endpoints[0].addresses: Invalid value: "fd00::1": must be an IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[1].addresses: Required value',
    ]);
    expect(
      check(V1, 'EndpointSlice', slice({ addressType: 'IPv6', endpoints: [{ addresses: ['FD00::1'] }] })),
    ).toEqual(['endpoints[0].addresses[0]: Invalid value: "FD00::1": must be in canonical form ("fd00::1")']);
    expect(
      check(V1, 'EndpointSlice', slice({ addressType: 'FQDN', endpoints: [{ addresses: ['web'] }] })),
    ).toEqual([
      'endpoints[0].addresses[0]: Invalid value: "web": should be a domain with at least two segments separated by dots',
    ]);
    expect(
      check(V1, 'EndpointSlice', slice({ addressType: 'ipv4', ports: [{ name: 'a' }, { name: 'a' }] })),
    ).toEqual([
      'ports[1].name: Duplicate value: "a"',
      'addressType: Unsupported value: "ipv4": supported values: "FQDN", "IPv4", "IPv6"',
    ]);
  });

  it('keeps its address type', () => {
    const k = kind(V1, 'EndpointSlice');
    const errors = k.validate!(slice({ addressType: 'Other' }), slice({ addressType: 'IPv4' }));
    expect(errors.map(fieldErrorText)).toEqual([
      'addressType: Unsupported value: "Other": supported values: "FQDN", "IPv4", "IPv6"',
      'addressType: Invalid value: null: field is immutable',
    ]);
  });

  it('prints its type, ports and addresses, three at most', () => {
    const k = kind(V1, 'EndpointSlice');
    const many = slice({
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }],
      ports: [{ name: 'a', port: 1 }, { name: 'b' }, { name: '', port: 3 }, { name: 'd', port: 4 }],
    });
    expect(row(k, many)).toEqual([
      'IPv4',
      '1,b,3 + 1 more...',
      '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...',
      '<unknown>',
    ]);
    expect(row(k, slice({ addressType: 'FQDN', ports: [{}] }))).toEqual([
      'FQDN',
      '*',
      '<unset>',
      '<unknown>',
    ]);
  });
});

describe('EndpointSlice warnings', () => {
  it('warns of FQDN slices on create and of non-standard addresses outside the controllers’ slices', () => {
    const warnings = kind(V1, 'EndpointSlice').warnings!;
    const fqdn = slice({ addressType: 'FQDN', endpoints: [{ addresses: ['010.0.0.1', 'web.example.com'] }] });
    expect(warnings(fqdn)).toEqual([
      'spec.addressType: FQDN endpoints are deprecated',
      'endpoints[0].addresses[0]: non-standard IP address "010.0.0.1" is invalid: use "10.0.0.1"',
    ]);
    expect(warnings(fqdn, fqdn)).toEqual([
      'endpoints[0].addresses[0]: non-standard IP address "010.0.0.1" is invalid: use "10.0.0.1"',
    ]);
    const v6 = slice({ addressType: 'IPv6', endpoints: [{ addresses: ['fd00:0:0::1'] }] });
    expect(warnings(v6)).toEqual([
      'endpoints[0].addresses[0]: IPv6 address "fd00:0:0::1" should be in RFC 5952 canonical format ("fd00::1")',
    ]);
    const managed = {
      ...v6,
      metadata: {
        name: 's',
        labels: { 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
      },
    };
    expect(warnings(managed)).toEqual([]);
  });
});
