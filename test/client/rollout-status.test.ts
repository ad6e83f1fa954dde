/**
 * Rollout status, rule by rule, against the messages of kubectl's
 * polymorphichelpers/rollout_status.go (1.27 - 1.33).
 */
import { describe, expect, it } from 'vitest';
import {
  daemonSetStatus,
  deploymentStatus,
  RolloutStatusError,
  statefulSetStatus,
  statusViewerFor,
} from '../../src/client/rollout/index.js';
import type { KubeObject } from '../../src/protocol/events.js';

function deployment(
  status: Record<string, unknown>,
  opts: { replicas?: number; generation?: number; revision?: string } = {},
): KubeObject {
  return {
    metadata: {
      name: 'web',
      generation: opts.generation ?? 2,
      annotations: opts.revision ? { 'deployment.kubernetes.io/revision': opts.revision } : {},
    },
    spec: { replicas: opts.replicas ?? 3 },
    status: { observedGeneration: 2, ...status },
  };
}

function failure(fn: () => unknown): RolloutStatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof RolloutStatusError) return err;
    throw err;
  }
  throw new Error('no RolloutStatusError thrown');
}

describe('deploymentStatus', () => {
  const waiting = 'Waiting for deployment "web" rollout to finish:';
  it.each([
    ['spec not observed', deployment({ observedGeneration: 1 }), 'Waiting for deployment spec update to be observed...', false],
    ['no observedGeneration', deployment({ observedGeneration: undefined }), 'Waiting for deployment spec update to be observed...', false],
    ['updating', deployment({ updatedReplicas: 1, replicas: 3 }), `${waiting} 1 out of 3 new replicas have been updated...`, false],
    ['old pending', deployment({ updatedReplicas: 3, replicas: 4 }), `${waiting} 1 old replicas are pending termination...`, false],
    ['unavailable', deployment({ updatedReplicas: 3, replicas: 3, availableReplicas: 2 }), `${waiting} 2 of 3 updated replicas are available...`, false],
    ['done', deployment({ updatedReplicas: 3, replicas: 3, availableReplicas: 3 }), 'deployment "web" successfully rolled out', true],
    ['scaled to zero', deployment({}, { replicas: 0 }), 'deployment "web" successfully rolled out', true],
  ])('%s', (_name, object, message, done) => {
    expect(deploymentStatus(object)).toEqual({ message, done });
  });

  it('fails past the progress deadline, but only once the spec is observed', () => {
    const conditions = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }];
    const err = failure(() => deploymentStatus(deployment({ conditions, updatedReplicas: 1 })));
    expect(err.reason).toBe('ProgressDeadlineExceeded');
    expect(err.message).toBe('deployment "web" exceeded its progress deadline');
    expect(deploymentStatus(deployment({ conditions, observedGeneration: 1 })).message).toBe(
      'Waiting for deployment spec update to be observed...',
    );
  });

  it('checks --revision before anything else', () => {
    const done = { updatedReplicas: 3, replicas: 3, availableReplicas: 3 };
    expect(deploymentStatus(deployment(done, { revision: '2' }), 2).done).toBe(true);
    expect(failure(() => deploymentStatus(deployment(done, { revision: '3' }), 2)).message).toBe(
      'desired revision (2) is different from the running revision (3)',
    );
    expect(failure(() => deploymentStatus(deployment(done), 1)).message).toBe(
      'desired revision (1) is different from the running revision (0)',
    );
    expect(failure(() => deploymentStatus(deployment(done, { revision: 'x' }), 1)).reason).toBe('BadRevision');
  });
});

describe('statefulSetStatus', () => {
  const sts = (status: Record<string, unknown>, strategy: Record<string, unknown> = { type: 'RollingUpdate' }) => ({
    metadata: { name: 'db', generation: 1 },
    spec: { replicas: 3, updateStrategy: strategy },
    status: { observedGeneration: 1, ...status },
  });
  it.each([
    ['not observed', sts({ observedGeneration: 0 }), 'Waiting for statefulset spec update to be observed...', false],
    ['not ready', sts({ readyReplicas: 1 }), 'Waiting for 2 pods to be ready...', false],
    [
      'partitioned, in progress',
      sts({ readyReplicas: 3, updatedReplicas: 1 }, { type: 'RollingUpdate', rollingUpdate: { partition: 1 } }),
      'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
      false,
    ],
    [
      'partitioned, complete',
      sts({ readyReplicas: 3, updatedReplicas: 2 }, { type: 'RollingUpdate', rollingUpdate: { partition: 1 } }),
      'partitioned roll out complete: 2 new pods have been updated...',
      true,
    ],
    [
      'revisions differ',
      sts({ readyReplicas: 3, updatedReplicas: 1, updateRevision: 'db-2', currentRevision: 'db-1' }),
      'waiting for statefulset rolling update to complete 1 pods at revision db-2...',
      false,
    ],
    [
      'complete',
      sts({ readyReplicas: 3, currentReplicas: 3, updateRevision: 'db-2', currentRevision: 'db-2' }),
      'statefulset rolling update complete 3 pods at revision db-2...',
      true,
    ],
  ])('%s', (_name, object, message, done) => {
    expect(statefulSetStatus(object)).toEqual({ message, done });
  });

  it('refuses OnDelete', () => {
    const err = failure(() => statefulSetStatus(sts({}, { type: 'OnDelete' })));
    expect([err.message, err.done]).toEqual(['rollout status is only available for RollingUpdate strategy type', true]);
  });
});

describe('daemonSetStatus', () => {
  const ds = (status: Record<string, unknown>, type = 'RollingUpdate') => ({
    metadata: { name: 'agent', generation: 2 },
    spec: { updateStrategy: { type } },
    status: { observedGeneration: 2, desiredNumberScheduled: 3, ...status },
  });
  const waiting = 'Waiting for daemon set "agent" rollout to finish:';
  it.each([
    ['not observed', ds({ observedGeneration: 1 }), 'Waiting for daemon set spec update to be observed...', false],
    ['updating', ds({ updatedNumberScheduled: 1 }), `${waiting} 1 out of 3 new pods have been updated...`, false],
    ['unavailable', ds({ updatedNumberScheduled: 3, numberAvailable: 2 }), `${waiting} 2 of 3 updated pods are available...`, false],
    ['done', ds({ updatedNumberScheduled: 3, numberAvailable: 3 }), 'daemon set "agent" successfully rolled out', true],
  ])('%s', (_name, object, message, done) => {
    expect(daemonSetStatus(object)).toEqual({ message, done });
  });

  it('refuses OnDelete', () => {
    expect(failure(() => daemonSetStatus(ds({}, 'OnDelete'))).reason).toBe('UnsupportedStrategy');
  });
});

describe('statusViewerFor', () => {
  it('knows the apps kinds (and extensions Deployments and DaemonSets) only', () => {
    expect(statusViewerFor('apps', 'Deployment')).toBe(deploymentStatus);
    expect(statusViewerFor('extensions', 'DaemonSet')).toBe(daemonSetStatus);
    expect(statusViewerFor('apps', 'StatefulSet')).toBeDefined();
    expect(statusViewerFor('extensions', 'StatefulSet')).toBeUndefined();
    expect(statusViewerFor('', 'Pod')).toBeUndefined();
  });
});
