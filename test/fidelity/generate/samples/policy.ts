/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta } from './kit.js';

export const policySamples: KindSample[] = [
  {
    ...grouped('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, 'policy'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta(name),
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    }),
    change: { path: ['spec', 'minAvailable'], value: 2 },
  },
];
