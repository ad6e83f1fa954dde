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
];
