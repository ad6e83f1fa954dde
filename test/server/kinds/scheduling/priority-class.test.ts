/**
 * The PriorityClass (scheduling.k8s.io/v1): its default, the reserved `system-` names, the value
 * range, the immutable value and preemption policy, and its cells (the fidelity corpus compares
 * the same against the reference).
 */
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { kind, row } from '../columns-fixture.js';
import { defaulted } from '../defaults-fixture.js';
import { check } from '../validation-fixture.js';

const V1 = 'scheduling.k8s.io/v1';
const pc = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  value: 10,
  ...extra,
});

describe('PriorityClass', () => {
  it('preempts lower priorities by default', () => {
    expect(defaulted(V1, 'PriorityClass', pc('a'))).toMatchObject({
      preemptionPolicy: 'PreemptLowerPriority',
    });
    expect(defaulted(V1, 'PriorityClass', pc('a', { preemptionPolicy: 'Never' }))).toMatchObject({
      preemptionPolicy: 'Never',
    });
  });

  it('reserves the system- prefix and the values above a billion', () => {
    const reserved =
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: ";
    expect(check(V1, 'PriorityClass', pc('system-x'))).toEqual([
      `${reserved}system-x is not a known system priority class`,
    ]);
    expect(check(V1, 'PriorityClass', pc('system-node-critical'))).toEqual([
      `${reserved}value of system-node-critical PriorityClass must be 2000001000`,
    ]);
    expect(
      check(V1, 'PriorityClass', pc('system-cluster-critical', { value: 2000000000, globalDefault: true })),
    ).toEqual([`${reserved}globalDefault of system-cluster-critical PriorityClass must be false`]);
    expect(check(V1, 'PriorityClass', pc('system-cluster-critical', { value: 2000000000 }))).toEqual([]);
    expect(check(V1, 'PriorityClass', pc('high', { value: 1000000001 }))).toEqual([
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    ]);
    expect(check(V1, 'PriorityClass', pc('p', { preemptionPolicy: 'Sometimes' }))).toEqual([
      'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ]);
  });

  it('keeps its value and preemption policy', () => {
    const k = kind(V1, 'PriorityClass');
    const old = pc('p', { preemptionPolicy: 'Never' });
    expect(
      k.validateUpdate!(pc('p', { value: 11, preemptionPolicy: 'PreemptLowerPriority' }), old).map(
        fieldErrorText,
      ),
    ).toEqual([
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "PreemptLowerPriority": field is immutable',
    ]);
  });

  it('prints its value, global default and, wide, its preemption policy', () => {
    const obj = pc('p', { globalDefault: true, preemptionPolicy: 'Never', metadata: { name: 'p' } });
    expect(row(kind(V1, 'PriorityClass'), obj)).toEqual([10, true, '<unknown>', 'Never']);
  });
});
