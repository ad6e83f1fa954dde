import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { minimalDeployment, minimalPod, minimalService } from './defaults-fixture.js';

describe('defaults never overwrite and are idempotent', () => {
  const custom: Record<string, KubeObject> = {
    Deployment: {
      spec: {
        replicas: 0,
        revisionHistoryLimit: 0,
        progressDeadlineSeconds: 30,
        strategy: { type: 'Recreate' },
        template: {
          spec: {
            restartPolicy: 'Always',
            dnsPolicy: 'Default',
            terminationGracePeriodSeconds: 0,
            containers: [],
          },
        },
      },
    },
    Pod: {
      spec: {
        enableServiceLinks: false,
        serviceAccountName: 'robot',
        priority: 5,
        preemptionPolicy: 'Never',
        schedulerName: 'mine',
        securityContext: { runAsUser: 1000 },
        containers: [
          {
            name: 'c',
            image: 'nginx',
            imagePullPolicy: 'Never',
            terminationMessagePolicy: 'FallbackToLogsOnError',
            ports: [{ containerPort: 53, protocol: 'UDP' }],
          },
        ],
      },
      status: { phase: 'Running', qosClass: 'Burstable' },
    },
    Service: {
      spec: {
        type: 'NodePort',
        sessionAffinity: 'ClientIP',
        externalTrafficPolicy: 'Local',
        ports: [{ port: 53, protocol: 'UDP', targetPort: 5353 }],
      },
    },
    StatefulSet: {
      spec: { podManagementPolicy: 'Parallel', updateStrategy: { type: 'OnDelete' }, replicas: 3 },
    },
    DaemonSet: {
      spec: {
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } },
      },
    },
    Secret: { type: 'kubernetes.io/tls', data: {} },
    Namespace: { metadata: { name: 'x' }, status: { phase: 'Terminating' } },
  };

  it.each(Object.entries(custom))('%s keeps client values', (kind, obj) => {
    const k = REGISTRY.find((r) => r.kind === kind)!;
    const out = structuredClone(obj);
    k.defaults!(out);
    expect(out).toMatchObject(obj);
  });

  const samples: KubeObject[] = [minimalDeployment, minimalPod, minimalService, ...Object.values(custom), {}];
  it.each(REGISTRY.map((k) => [k.kind, k] as const))(
    '%s defaults are idempotent and accept anything',
    (_, k) => {
      for (const sample of [
        ...samples,
        { spec: 'nonsense', status: 7, metadata: { labels: 'x' } } as unknown as KubeObject,
      ]) {
        const once = structuredClone(sample);
        k.defaults?.(once);
        const twice = structuredClone(once);
        k.defaults?.(twice);
        expect(twice).toEqual(once);
      }
    },
  );
});
