/**
 * The namespace controller's condition updates (status_condition_utils.go,
 * `updateConditions`): when a condition changes, when its lastTransitionTime
 * does, and the failure messages' exact wording.
 */
import { describe, expect, it } from 'vitest';
import {
  type ContentReport,
  updatedConditions,
} from '../../../src/server/controllers/namespace-conditions.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const T1 = Date.parse('2025-01-01T00:01:00Z');

function report(extra: Partial<ContentReport> = {}): ContentReport {
  return { remaining: new Map(), finalizers: new Map(), totalsReported: true, errors: [], ...extra };
}

describe('updatedConditions', () => {
  it('adds the five conditions after any others, and a second identical pass changes nothing', () => {
    const other = {
      type: 'Other',
      status: 'True' as const,
      lastTransitionTime: 'x',
      reason: 'R',
      message: 'm',
    };
    const first = updatedConditions([other], report(), T0);
    expect(first.changed).toBe(true);
    expect(first.conditions.map((c) => c.type)).toEqual([
      'Other',
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(
      first.conditions.every((c) => c.type === 'Other' || c.lastTransitionTime === '2025-01-01T00:00:00Z'),
    ).toBe(true);
    const again = updatedConditions(first.conditions, report(), T1);
    expect(again.changed).toBe(false);
    expect(again.conditions).toEqual(first.conditions);
  });

  it('moves lastTransitionTime only when the status flips, not when the message changes', () => {
    const held = (n: number) =>
      report({ remaining: new Map([['pods.', n]]), finalizers: new Map([['example.com/x', n]]) });
    const a = updatedConditions(undefined, held(2), T0).conditions;
    const b = updatedConditions(a, held(1), T1);
    const remaining = b.conditions.find((c) => c.type === 'NamespaceContentRemaining')!;
    expect(b.changed).toBe(true);
    expect(remaining).toEqual({
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: '2025-01-01T00:00:00Z',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 1 resource instances',
    });
    const c = updatedConditions(b.conditions, report(), T1).conditions;
    expect(c.find((x) => x.type === 'NamespaceContentRemaining')).toEqual({
      type: 'NamespaceContentRemaining',
      status: 'False',
      lastTransitionTime: '2025-01-01T00:01:00Z',
      reason: 'ContentRemoved',
      message: 'All content successfully removed',
    });
  });

  it('words failed deletes as the deleter does, sorted', () => {
    const { conditions } = updatedConditions(
      undefined,
      report({
        errors: [
          'unexpected items still remain in namespace: n for gvr: /v1, Resource=pods',
          'etcdserver: request timed out',
        ],
      }),
      T0,
    );
    expect(conditions.find((c) => c.type === 'NamespaceDeletionContentFailure')).toMatchObject({
      status: 'True',
      reason: 'ContentDeletionFailed',
      message:
        'Failed to delete all resource types, 2 remaining: etcdserver: request timed out, unexpected items still remain in namespace: n for gvr: /v1, Resource=pods',
    });
  });

  it('reports no totals when the pass stopped at remaining pods, as 1.33 does', () => {
    const { conditions } = updatedConditions(
      undefined,
      report({ remaining: new Map([['pods.', 1]]), finalizers: new Map([['f', 1]]), totalsReported: false }),
      T0,
    );
    expect(conditions.every((c) => c.status === 'False')).toBe(true);
  });
});
