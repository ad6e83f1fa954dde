/**
 * The apps/v1 workload rules of src/server/kinds/apps/ that the registry-wide table
 * in validation.test.ts does not reach: pkg/apis/apps/validation `validateRollingUpdateStatefulSet`.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { findByKind } from '../../../../src/server/kinds/served/registry.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';

/** The field errors of `obj` after defaulting, as the 422's causes word them. */
function check(apiVersion: string, kind: string, obj: KubeObject): string[] {
  const k = findByKind(apiVersion, kind)!;
  const copy = structuredClone(obj);
  k.defaults?.(copy);
  return (k.validate?.(copy) ?? []).map(fieldErrorText);
}

const spec = () => ({
  serviceName: 'web',
  selector: { matchLabels: { app: 'web' } },
  template: {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
  },
});

describe('StatefulSet', () => {
  it('StatefulSet maxUnavailable: a valid int or percent, neither 0 nor over 100%', () => {
    const errorsOf = (rollingUpdate: Record<string, unknown>) =>
      check('apps/v1', 'StatefulSet', {
        metadata: { name: 'sts' },
        spec: { ...spec(), updateStrategy: { type: 'RollingUpdate', rollingUpdate } },
      });
    const field = 'spec.updateStrategy.rollingUpdate.maxUnavailable';
    expect(errorsOf({ partition: 0, maxUnavailable: 2 })).toEqual([]);
    expect(errorsOf({ maxUnavailable: '100%' })).toEqual([]);
    expect(errorsOf({})).toEqual([]);
    expect(errorsOf({ maxUnavailable: 0 })).toEqual([`${field}: Invalid value: 0: cannot be 0`]);
    expect(errorsOf({ maxUnavailable: '0%' })).toEqual([`${field}: Invalid value: "0%": cannot be 0`]);
    expect(errorsOf({ maxUnavailable: -1 })).toEqual([
      `${field}: Invalid value: -1: must be greater than or equal to 0`,
    ]);
    expect(errorsOf({ maxUnavailable: '150%' })).toEqual([
      `${field}: Invalid value: "150%": must not be greater than 100%`,
    ]);
    // A string that is no percent is one error, and reads as 0 (intstr IntValue), another.
    expect(errorsOf({ maxUnavailable: 'abc' })).toEqual([
      `${field}: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      `${field}: Invalid value: "abc": cannot be 0`,
    ]);
    expect(errorsOf({ partition: -1, maxUnavailable: 1 })).toEqual([
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});
