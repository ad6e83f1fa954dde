import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  defaultPodDisruptionBudget,
  podDisruptionBudgetKind,
  validatePodDisruptionBudget,
} from '../../../../src/server/kinds/policy/poddisruptionbudget.js';
import { ago, MIN, row } from '../columns-fixture.js';

const pdb = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'pdb', namespace: 'ns' },
  spec,
  ...extra,
});

describe('PodDisruptionBudget', () => {
  it('writes the status counts Go always writes', () => {
    const obj = pdb({}, { status: { observedGeneration: 2 } });
    defaultPodDisruptionBudget(obj);
    expect(obj.status).toEqual({
      observedGeneration: 2,
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
  });

  it('refuses minAvailable with maxUnavailable, showing the internal spec', () => {
    const errors = validatePodDisruptionBudget(
      pdb({ minAvailable: 1, maxUnavailable: '10%', selector: { matchLabels: { a: 'b' } } }),
    );
    expect(errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"a":"b"}},"MaxUnavailable":"10%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
    ]);
  });

  it('checks percentages, the eviction policy, and the metadata only when the spec is valid', () => {
    const errors = validatePodDisruptionBudget({
      ...pdb({ minAvailable: '101%', maxUnavailable: undefined, unhealthyPodEvictionPolicy: 'Never' }),
      metadata: { name: 'Bad_Name', labels: { '-x': 'y' } },
    });
    expect(errors.map((e) => e.field)).toEqual(['spec.minAvailable', 'spec.unhealthyPodEvictionPolicy']);
    expect(errors[1].message).toBe(
      'Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    );
    const meta = validatePodDisruptionBudget({
      ...pdb({}),
      metadata: { name: 'Bad_Name', labels: { '-x': 'y' } },
    });
    // A path segment is enough for its name (rest.ValidateCreate's validatePathSegment).
    expect(meta.map((e) => e.field)).toEqual(['metadata.labels']);
  });

  it('checks the status on updates', () => {
    const old = pdb({});
    const errors = validatePodDisruptionBudget(
      pdb({}, { status: { disruptionsAllowed: -1, conditions: [{ type: 'x', status: 'Maybe' }] } }),
      old,
    );
    expect(errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[0].lastTransitionTime: Required value',
      'status.conditions[0].reason: Required value',
      'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('prints MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS and AGE', () => {
    expect(
      row(podDisruptionBudgetKind, {
        metadata: { creationTimestamp: ago(5 * MIN) },
        spec: { minAvailable: '50%' },
        status: { disruptionsAllowed: 2 },
      }),
    ).toEqual(['50%', 'N/A', 2, '5m']);
  });
});
