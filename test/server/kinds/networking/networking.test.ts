import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { validateIngress } from '../../../../src/server/kinds/networking/ingress.js';
import { ingressClassKind } from '../../../../src/server/kinds/networking/ingressclass.js';
import { isValidIP, validateCIDR } from '../../../../src/server/kinds/networking/ip.js';
import { ipAddressKind, validateIPAddress } from '../../../../src/server/kinds/networking/ipaddress.js';
import {
  defaultNetworkPolicy,
  validateNetworkPolicy,
} from '../../../../src/server/kinds/networking/networkpolicy.js';
import { validateServiceCIDR } from '../../../../src/server/kinds/networking/servicecidr.js';
import { ago, MIN, now, row } from '../columns-fixture.js';

const texts = (errors: Array<{ field: string; message: string }>) =>
  errors.map((e) => `${e.field}: ${e.message}`);

describe('networking.k8s.io', () => {
  it('parses and judges addresses as Go does', () => {
    expect(isValidIP('10.0.0.1')).toEqual([]);
    expect(isValidIP('010.0.0.1')).toEqual(['must not have leading 0s']);
    expect(isValidIP('2001:DB8:0:0::1')).toEqual(['must be in canonical form ("2001:db8::1")']);
    expect(isValidIP('::ffff:1.2.3.4')).toEqual(['must not be an IPv4-mapped IPv6 address']);
    expect(texts(validateCIDR('c', '10.0.0.1/8'))).toEqual([
      'c: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
    ]);
  });

  it('defaults a NetworkPolicy and puts declarative Required errors last', () => {
    const np: KubeObject = {
      metadata: { name: 'np' },
      spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }], to: [{ ipBlock: { cidr: '' } }, {}] }] },
    };
    defaultNetworkPolicy(np);
    expect(np.spec).toMatchObject({
      policyTypes: ['Ingress', 'Egress'],
      egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }],
    });
    expect(texts(validateNetworkPolicy(np))).toEqual([
      'spec.egress[0].to[1]: Required value: must specify a peer',
      'spec.egress[0].to[0].ipBlock.cidr: Required value',
    ]);
  });

  it('validates an Ingress path by its pathType', () => {
    const ing: KubeObject = {
      metadata: { name: 'i' },
      spec: {
        rules: [
          {
            http: {
              paths: [
                {
                  path: '/a/..',
                  pathType: 'Exact',
                  backend: { service: { name: 'web', port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    };
    expect(texts(validateIngress(ing))).toEqual([
      'spec.rules[0].http.paths[0].path: Invalid value: "/a/..": cannot end with \'/..\'',
    ]);
  });

  it('keeps a ServiceCIDR fixed but for a second family', () => {
    const old: KubeObject = { metadata: { name: 'c' }, spec: { cidrs: ['10.0.0.0/24'] } };
    expect(
      validateServiceCIDR({ metadata: { name: 'c' }, spec: { cidrs: ['10.0.0.0/24', 'fd00::/64'] } }, old),
    ).toEqual([]);
    expect(
      texts(validateServiceCIDR({ metadata: { name: 'c' }, spec: { cidrs: ['10.1.0.0/24'] } }, old)),
    ).toEqual(['spec.cidrs[0]: Invalid value: "10.1.0.0/24": field is immutable']);
  });

  it('names an IPAddress by its address and prints its parent', () => {
    expect(
      texts(
        validateIPAddress({
          metadata: { name: '10.0.0.01' },
          spec: { parentRef: { resource: 'services', name: 's' } },
        }),
      ),
    ).toEqual(['metadata.name: Invalid value: "10.0.0.01": must not have leading 0s']);
    expect(
      row(ipAddressKind, { spec: { parentRef: { resource: 'services', namespace: 'ns', name: 's' } } }),
    ).toEqual(['services/ns/s']);
    // printIPAddress appends the age beyond its two columns.
    const held = {
      metadata: { creationTimestamp: ago(2 * MIN) },
      spec: { parentRef: { resource: 'services', name: 's' } },
    };
    expect(ipAddressKind.trailingCells?.(held, now)).toEqual(['2m']);
  });

  it('prints the default IngressClass with its mark', () => {
    const cells = row(ingressClassKind, {
      metadata: {
        name: 'nginx',
        creationTimestamp: ago(2 * MIN),
        annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
      },
      spec: {
        controller: 'k8s.io/ingress-nginx',
        parameters: { apiGroup: 'k8s.example.com', kind: 'P', name: 'p' },
      },
    });
    expect(cells).toEqual(['nginx (default)', 'k8s.io/ingress-nginx', 'P.k8s.example.com/p', '2m']);
  });
});
