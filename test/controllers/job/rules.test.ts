/**
 * The Job controller's pure rules: completion indexes as intervals and their text, the pod failure
 * and success policies' verdicts and messages, the failure back-off, and the pod a template makes.
 */
import { describe, expect, it } from 'vitest';
import {
  firstPendingIndexes,
  formatIndexes,
  generateNameWithIndex,
  parseIndexes,
  withIndexes,
} from '../../../src/controllers/job/indexes.js';
import { podFromTemplate } from '../../../src/controllers/job/pods.js';
import {
  backoffRemaining,
  matchPodFailurePolicy,
  matchSuccessPolicy,
  nextBackoffRecord,
} from '../../../src/controllers/job/policies.js';

describe('completion indexes', () => {
  it('writes neighbours with a comma and runs of three as a range', () => {
    expect(formatIndexes(withIndexes([], [0, 1, 3, 4, 5, 7]))).toBe('0,1,3-5,7');
    expect(formatIndexes(parseIndexes('0-2,5,9-12', 11))).toBe('0-2,5,9,10');
    expect(parseIndexes('x,2', 5)).toEqual([{ first: 2, last: 2 }]);
  });
  it('picks the lowest indexes not done or running', () => {
    expect(firstPendingIndexes(parseIndexes('0,2-3', 10), 3, 10)).toEqual([1, 4, 5]);
    expect(firstPendingIndexes([], 5, 2)).toEqual([0, 1]);
  });
  it('cuts a long Job name so the generated name fits', () => {
    expect(generateNameWithIndex('a'.repeat(63), 12)).toBe(`${'a'.repeat(54)}-12-`);
  });
});

const failedPod = (exitCode: number, conditions: Array<{ type: string; status: string }> = []) => ({
  metadata: { namespace: 'ns', name: 'p-1' },
  status: {
    phase: 'Failed',
    conditions,
    containerStatuses: [
      { name: 'main', state: { terminated: { exitCode, finishedAt: '2026-01-01T00:00:10Z' } } },
    ],
  },
});

describe('pod failure policy', () => {
  const policy = {
    rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      { action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } },
      { action: 'Count', onExitCodes: { containerName: 'main', operator: 'NotIn', values: [1] } },
    ],
  };
  it('fails the Job with the rule’s message', () => {
    expect(matchPodFailurePolicy(policy, failedPod(42))).toEqual({
      failJobMessage:
        'Container main for pod ns/p-1 failed with exit code 42 matching FailJob rule at index 1',
      countFailed: true,
      action: 'FailJob',
    });
  });
  it('ignores a disrupted pod and counts the rest', () => {
    expect(
      matchPodFailurePolicy(policy, failedPod(1, [{ type: 'DisruptionTarget', status: 'True' }])),
    ).toEqual({
      countFailed: false,
      action: 'Ignore',
    });
    expect(matchPodFailurePolicy(policy, failedPod(3))).toEqual({ countFailed: true, action: 'Count' });
    expect(matchPodFailurePolicy(policy, failedPod(1))).toEqual({ countFailed: true });
  });
});

describe('success policy', () => {
  it('matches a rule by its indexes or by a count', () => {
    const done = parseIndexes('0-2', 10);
    expect(matchSuccessPolicy({ rules: [{ succeededIndexes: '5' }, { succeededCount: 3 }] }, 10, done)).toBe(
      'Matched rules at index 1',
    );
    expect(matchSuccessPolicy({ rules: [{ succeededIndexes: '0-4', succeededCount: 2 }] }, 10, done)).toBe(
      'Matched rules at index 0',
    );
    expect(matchSuccessPolicy({ rules: [{ succeededIndexes: '0-4' }] }, 10, done)).toBeUndefined();
  });
});

describe('failure back-off', () => {
  it('waits 10 s after one failure, doubling per failure since the last success', () => {
    const one = nextBackoffRecord({ failuresAfterLastSuccess: 0 }, [], [failedPod(1)]);
    const at = Date.parse('2026-01-01T00:00:10Z');
    expect(backoffRemaining(one, at + 4_000)).toBe(6_000);
    const three = nextBackoffRecord(one, [], [failedPod(1), failedPod(1)]);
    expect(three.failuresAfterLastSuccess).toBe(3);
    expect(backoffRemaining(three, at)).toBe(40_000);
    expect(backoffRemaining({ failuresAfterLastSuccess: 20, lastFailureTime: at }, at)).toBe(600_000);
  });
});

describe('podFromTemplate', () => {
  it('makes an Indexed pod as CreatePodsWithGenerateName sends it', () => {
    const pod = podFromTemplate(
      {
        metadata: { name: 'work', uid: 'u' },
        spec: {
          template: {
            metadata: { labels: { app: 'x' }, finalizers: ['keep'] },
            spec: { containers: [{ name: 'c', env: [{ name: 'A', value: '1' }] }] },
          },
        },
      },
      4,
    );
    expect(pod.metadata).toMatchObject({
      generateName: 'work-4-',
      labels: { app: 'x', 'batch.kubernetes.io/job-completion-index': '4' },
      annotations: { 'batch.kubernetes.io/job-completion-index': '4' },
      finalizers: ['keep', 'batch.kubernetes.io/job-tracking'],
    });
    expect(pod.spec?.hostname).toBe('work-4');
    expect(pod.spec?.containers?.[0]?.env).toEqual([
      { name: 'A', value: '1' },
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } },
      },
    ]);
  });
});
