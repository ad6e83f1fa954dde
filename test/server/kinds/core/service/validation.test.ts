import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { check } from '../../validation-fixture.js';

describe('Service', () => {
  const svc = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'web' }, spec });

  it('accepts ordinary, headless and ExternalName services', () => {
    expect(
      check('v1', 'Service', svc({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] })),
    ).toEqual([]);
    expect(check('v1', 'Service', svc({ clusterIP: 'None', selector: { app: 'web' } }))).toEqual([]);
    expect(check('v1', 'Service', svc({ type: 'ExternalName', externalName: 'example.com.' }))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no ports', {}, ['spec.ports: Required value']],
    [
      'port 0 (the defaulted targetPort inherits the problem, as in kube)',
      { ports: [{ port: 0 }] },
      [
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'unnamed ports when there are several',
      { ports: [{ port: 80 }, { port: 443, name: 'https' }] },
      ['spec.ports[0].name: Required value'],
    ],
    [
      'duplicate names and ports',
      {
        ports: [
          { port: 80, name: 'a' },
          { port: 80, name: 'a' },
        ],
      },
      ['spec.ports[1].name: Duplicate value: "a"', 'spec.ports[1]: Duplicate value: "80/TCP"'],
    ],
    [
      'an unknown type',
      { type: 'Magic', ports: [{ port: 80 }] },
      [
        'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    ],
    ['ExternalName without a name', { type: 'ExternalName' }, ['spec.externalName: Required value']],
    [
      'a nodePort on ClusterIP',
      { ports: [{ port: 80, nodePort: 30080 }] },
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
  ])('rejects %s', (_, spec, expected) => {
    expect(check('v1', 'Service', svc(spec))).toEqual(expected);
  });
});
