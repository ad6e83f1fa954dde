/**
 * Rollout status, rule by rule, against the messages of kubectl's
 * polymorphichelpers/rollout_status.go (1.27 - 1.33).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import { type CoreEvent, OwnershipIndex, occurrenceKey } from '../../../src/client/rollout/events.js';
import {
  daemonSetStatus,
  deploymentStatus,
  RolloutStatusError,
  statefulSetStatus,
  statusViewerFor,
} from '../../../src/client/rollout/index.js';
import {
  RolloutAbortedError,
  RolloutDeletedError,
  watchRolloutStatus,
} from '../../../src/client/rollout/watch.js';
import { findBuiltin } from '../../../src/client/watch/resources.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { waitUntil } from '../../helpers/wait.js';

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
    [
      'spec not observed',
      deployment({ observedGeneration: 1 }),
      'Waiting for deployment spec update to be observed...',
      false,
    ],
    [
      'no observedGeneration',
      deployment({ observedGeneration: undefined }),
      'Waiting for deployment spec update to be observed...',
      false,
    ],
    [
      'updating',
      deployment({ updatedReplicas: 1, replicas: 3 }),
      `${waiting} 1 out of 3 new replicas have been updated...`,
      false,
    ],
    [
      'old pending',
      deployment({ updatedReplicas: 3, replicas: 4 }),
      `${waiting} 1 old replicas are pending termination...`,
      false,
    ],
    [
      'unavailable',
      deployment({ updatedReplicas: 3, replicas: 3, availableReplicas: 2 }),
      `${waiting} 2 of 3 updated replicas are available...`,
      false,
    ],
    [
      'done',
      deployment({ updatedReplicas: 3, replicas: 3, availableReplicas: 3 }),
      'deployment "web" successfully rolled out',
      true,
    ],
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
    expect(failure(() => deploymentStatus(deployment(done, { revision: 'x' }), 1)).reason).toBe(
      'BadRevision',
    );
  });
});

describe('statefulSetStatus', () => {
  const sts = (
    status: Record<string, unknown>,
    strategy: Record<string, unknown> = { type: 'RollingUpdate' },
  ) => ({
    metadata: { name: 'db', generation: 1 },
    spec: { replicas: 3, updateStrategy: strategy },
    status: { observedGeneration: 1, ...status },
  });
  it.each([
    [
      'not observed',
      sts({ observedGeneration: 0 }),
      'Waiting for statefulset spec update to be observed...',
      false,
    ],
    ['not ready', sts({ readyReplicas: 1 }), 'Waiting for 2 pods to be ready...', false],
    [
      'partitioned, in progress',
      sts(
        { readyReplicas: 3, updatedReplicas: 1 },
        { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      ),
      'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
      false,
    ],
    [
      'partitioned, complete',
      sts(
        { readyReplicas: 3, updatedReplicas: 2 },
        { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      ),
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
    expect([err.message, err.done]).toEqual([
      'rollout status is only available for RollingUpdate strategy type',
      true,
    ]);
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
    [
      'not observed',
      ds({ observedGeneration: 1 }),
      'Waiting for daemon set spec update to be observed...',
      false,
    ],
    [
      'updating',
      ds({ updatedNumberScheduled: 1 }),
      `${waiting} 1 out of 3 new pods have been updated...`,
      false,
    ],
    [
      'unavailable',
      ds({ updatedNumberScheduled: 3, numberAvailable: 2 }),
      `${waiting} 2 of 3 updated pods are available...`,
      false,
    ],
    [
      'done',
      ds({ updatedNumberScheduled: 3, numberAvailable: 3 }),
      'daemon set "agent" successfully rolled out',
      true,
    ],
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

describe('events of a rollout', () => {
  const owned = (
    kind: string,
    name: string,
    uid: string,
    owner?: { kind: string; uid: string },
  ): KubeObject => ({
    kind,
    metadata: {
      name,
      namespace: 'ns',
      uid,
      ownerReferences: owner
        ? [{ apiVersion: 'apps/v1', kind: owner.kind, name: 'x', uid: owner.uid, controller: true }]
        : [],
    },
  });
  const event = (kind: string, name: string, uid?: string, count?: number): CoreEvent => ({
    metadata: { name: `${name}.1`, namespace: 'ns', uid: `e-${name}` },
    involvedObject: { kind, name, namespace: 'ns', uid },
    count,
  });

  it('attributes events through ownership, by uid or by name, and remembers deleted pods', () => {
    const index = new OwnershipIndex();
    index.record('ReplicaSet', owned('ReplicaSet', 'web-1', 'rs1', { kind: 'Deployment', uid: 'd1' }));
    index.record('Pod', owned('Pod', 'web-1-a', 'p1', { kind: 'ReplicaSet', uid: 'rs1' }));
    index.record('Pod', owned('Pod', 'other', 'p2'));
    const byName = (_ns: string, name: string) => (name === 'web' ? 'd1' : undefined);
    expect(index.deploymentOf(event('Deployment', 'web', 'd1'), byName)).toBe('d1');
    expect(index.deploymentOf(event('Deployment', 'web'), byName)).toBe('d1');
    expect(index.deploymentOf(event('ReplicaSet', 'web-1', 'rs1'), byName)).toBe('d1');
    expect(index.deploymentOf(event('Pod', 'web-1-a', 'p1'), byName)).toBe('d1');
    expect(index.deploymentOf(event('Pod', 'web-1-a'), byName)).toBe('d1');
    expect(index.deploymentOf(event('Pod', 'other', 'p2'), byName)).toBeUndefined();
    expect(index.deploymentOf(event('Pod', 'unseen', 'p3'), byName)).toBeUndefined();
    expect(index.deploymentOf(event('Node', 'node-0'), byName)).toBeUndefined();
  });

  it('identifies an occurrence by uid and count', () => {
    expect(occurrenceKey(event('Pod', 'a', 'p', 3))).toBe('e-a#3');
    expect(occurrenceKey(event('Pod', 'a', 'p'))).toBe('e-a#1');
    expect(occurrenceKey({ ...event('Pod', 'a'), series: { count: 5 } })).toBe('e-a#5');
  });
});

describe('watchRolloutStatus against a server', () => {
  let dir: string;
  let server: RunningServer;
  let kube: KubeClient;

  const tempDir = tempDirForFile('watchmark-rollout-status-');
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      kubeconfigOut: join(dir, 'kubeconfig'),
      bookmarkInterval: 200,
      compactionInterval: 0,
    });
    kube = await KubeClient.load({ kubeconfig: join(dir, 'kubeconfig'), qps: 0 });
    await kube.resource('namespaces').create({ metadata: { name: 'ns' } });
  });

  afterAll(async () => {
    await kube?.close();
    await server?.close();
  });

  const template = {
    metadata: { labels: { app: 'x' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };

  it('follows a StatefulSet and a DaemonSet whose status a controller writes, until done', async () => {
    const sts = kube.resource('statefulsets', 'ns');
    await sts.create({
      metadata: { name: 'db' },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'x' } }, template },
    } as KubeObject);
    const seen: string[] = [];
    const done = watchRolloutStatus(kube, findBuiltin('sts')!, 'ns', 'db', {
      onStatus: (s) => seen.push(s.message),
    });
    const write = async (status: Record<string, unknown>) => {
      const live = await sts.get('db');
      await sts.updateStatus({ ...live, status: { observedGeneration: 1, replicas: 2, ...status } });
    };
    // The first status comes from the initial list: write only once it is seen.
    await waitUntil(() => seen.length === 1, 'the first status');
    await write({ readyReplicas: 1 });
    await write({ readyReplicas: 2, updatedReplicas: 2 });
    expect(await done).toEqual({
      message: 'partitioned roll out complete: 2 new pods have been updated...',
      done: true,
    });
    expect(seen).toEqual([
      'Waiting for statefulset spec update to be observed...',
      'Waiting for 1 pods to be ready...',
      'partitioned roll out complete: 2 new pods have been updated...',
    ]);

    const ds = kube.resource('daemonsets', 'ns');
    await ds.create({
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'x' } }, template },
    } as KubeObject);
    const live = await ds.get('agent');
    await ds.updateStatus({
      ...live,
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 3,
        updatedNumberScheduled: 3,
        numberAvailable: 3,
      },
    });
    const final = await watchRolloutStatus(kube, findBuiltin('ds')!, 'ns', 'agent');
    expect(final.message).toBe('daemon set "agent" successfully rolled out');
  });

  it('ends with a typed error when the object is deleted or the signal fires', async () => {
    const deployments = kube.resource('deployments', 'ns');
    await deployments.create({
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template },
    } as KubeObject);
    const deleted = watchRolloutStatus(kube, findBuiltin('deploy')!, 'ns', 'web', {
      onStatus: () => void deployments.delete('web'),
    });
    await expect(deleted).rejects.toBeInstanceOf(RolloutDeletedError);

    await deployments.create({
      metadata: { name: 'web2' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template },
    } as KubeObject);
    const aborted = watchRolloutStatus(kube, findBuiltin('deploy')!, 'ns', 'web2', {
      signal: AbortSignal.timeout(300),
    });
    await expect(aborted).rejects.toBeInstanceOf(RolloutAbortedError);
  });
});
