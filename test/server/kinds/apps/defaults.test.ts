import { describe, expect, it } from 'vitest';
import { containerDefaults, defaulted, minimalDeployment, podSpecDefaults } from '../defaults-fixture.js';

// The expected objects are `kubectl get -o yaml` of these manifests on a real
// cluster, minus what other layers add: server metadata, the allocated
// clusterIP, the service-account token volume, and the template's
// `creationTimestamp: null` (a Go serialization artefact).

describe('defaults match a real cluster', () => {
  it('minimal Deployment', () => {
    expect(defaulted('apps/v1', 'Deployment', minimalDeployment)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'demo', labels: { app: 'web' } },
      spec: {
        progressDeadlineSeconds: 600,
        replicas: 1,
        revisionHistoryLimit: 10,
        selector: { matchLabels: { app: 'web' } },
        strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', name: 'nginx', ...containerDefaults },
            ],
            ...podSpecDefaults,
          },
        },
      },
      status: {},
    });
  });

  it('minimal ReplicaSet, StatefulSet and DaemonSet', () => {
    const template = minimalDeployment.spec as { selector: unknown; template: unknown };
    const rs = defaulted('apps/v1', 'ReplicaSet', { spec: structuredClone(template) });
    expect(rs.spec).toMatchObject({ replicas: 1 });
    expect(rs.status).toEqual({ replicas: 0 });

    const sts = defaulted('apps/v1', 'StatefulSet', {
      spec: {
        ...structuredClone(template),
        serviceName: 'web',
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }],
      },
    });
    expect(sts.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      // MaxUnavailableStatefulSet is on by default since 1.37.
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
      ],
    });
    expect(sts.status).toEqual({ availableReplicas: 0, replicas: 0 });

    const ds = defaulted('apps/v1', 'DaemonSet', { spec: structuredClone(template) });
    expect(ds.spec).toMatchObject({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect((ds.spec as { replicas?: number }).replicas).toBeUndefined();
    expect(ds.status).toEqual({
      currentNumberScheduled: 0,
      desiredNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
    });
  });

  it('StatefulSet maxUnavailable defaults to 1 only in a RollingUpdate strategy with a rollingUpdate', () => {
    const strategyOf = (updateStrategy: unknown) =>
      (defaulted('apps/v1', 'StatefulSet', { spec: { updateStrategy } }).spec as Record<string, unknown>)
        .updateStrategy;
    expect(strategyOf({ type: 'RollingUpdate', rollingUpdate: { partition: 2 } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 2, maxUnavailable: 1 },
    });
    expect(strategyOf({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: '50%' },
    });
    // A sent RollingUpdate type without rollingUpdate stays without one, as in SetDefaults_StatefulSet.
    expect(strategyOf({ type: 'RollingUpdate' })).toEqual({ type: 'RollingUpdate' });
    expect(strategyOf({ type: 'OnDelete' })).toEqual({ type: 'OnDelete' });
  });
});
