/**
 * Samples of the kinds served over another resource's objects (see ../samples.ts for what a
 * sample is): events.k8s.io/v1 Events are core/v1's, autoscaling/v1 HorizontalPodAutoscalers
 * are autoscaling/v2's.
 */
import { grouped, type KindSample, meta } from './kit.js';

export const multiVersionSamples: KindSample[] = [
  {
    ...grouped('events.k8s.io', 'v1', 'Event', 'events', true, 'events'),
    label: 'Event.events.k8s.io',
    subresources: [],
    object: (name) => ({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: meta(name),
      eventTime: '2026-01-02T03:04:05.123456Z',
      reportingController: 'example.com/rollout',
      reportingInstance: 'rollout-1',
      action: 'Scaling',
      reason: 'ScaledUp',
      regarding: { kind: 'Deployment', name: 'web', namespace: '$ns', apiVersion: 'apps/v1' },
      note: 'Scaled up to 3 replicas',
      type: 'Normal',
    }),
    // A series is what an update of an events.k8s.io Event may change (the rest is immutable).
    change: { path: ['series'], value: { count: 2, lastObservedTime: '2026-01-02T03:05:05.000000Z' } },
  },
  {
    ...grouped(
      'autoscaling',
      'v2',
      'HorizontalPodAutoscaler',
      'horizontalpodautoscalers',
      true,
      'autoscaling',
    ),
    label: 'HorizontalPodAutoscaler.v2',
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta(name),
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
          {
            type: 'Pods',
            pods: { metric: { name: 'requests' }, target: { type: 'AverageValue', averageValue: '10' } },
          },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 120 } },
      },
    }),
    change: { path: ['spec', 'maxReplicas'], value: 8 },
  },
  {
    ...grouped(
      'autoscaling',
      'v1',
      'HorizontalPodAutoscaler',
      'horizontalpodautoscalers',
      true,
      'autoscaling',
    ),
    label: 'HorizontalPodAutoscaler.v1',
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta(name),
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 60,
      },
    }),
    change: { path: ['spec', 'targetCPUUtilizationPercentage'], value: 75 },
  },
];
