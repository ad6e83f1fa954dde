import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { check, DNS1123_LABEL } from '../../validation-fixture.js';

describe('Pod', () => {
  const pod = (spec: Record<string, unknown>): KubeObject => ({
    metadata: { name: 'p', namespace: 'demo' },
    spec,
  });

  it('accepts a minimal pod', () => {
    expect(check('v1', 'Pod', pod({ containers: [{ name: 'c', image: 'nginx' }] }))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no spec containers', {}, ['spec.containers: Required value']],
    [
      'a container name that is not a DNS label',
      { containers: [{ name: 'Web', image: 'x' }] },
      [`spec.containers[0].name: Invalid value: "Web": ${DNS1123_LABEL}`],
    ],
    [
      'an init container clashing with a container',
      { initContainers: [{ name: 'c', image: 'x' }], containers: [{ name: 'c', image: 'y' }] },
      ['spec.containers[0].name: Duplicate value: "c"'],
    ],
    [
      'a bad port',
      { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 70000, protocol: 'HTTP' }] }] },
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    [
      'an unknown restart policy',
      { restartPolicy: 'Sometimes', containers: [{ name: 'c', image: 'x' }] },
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    ],
    [
      'an image with spaces',
      { containers: [{ name: 'c', image: ' nginx' }] },
      ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'],
    ],
  ])('rejects %s', (_, spec, expected) => {
    expect(check('v1', 'Pod', pod(spec))).toEqual(expected);
  });
});
