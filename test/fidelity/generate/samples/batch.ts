/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta, podSpec } from './kit.js';

/** A Job's pod template: Jobs allow only the OnFailure and Never restart policies. */
const jobTemplate = (app: string) => ({
  metadata: { labels: { app } },
  spec: { ...podSpec(), restartPolicy: 'Never' },
});

export const batchSamples: KindSample[] = [
  {
    ...grouped('batch', 'v1', 'Job', 'jobs', true, 'batch'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: meta(name),
      // A manual selector: a PUT of the object as written keeps its template, where a generated
      // selector's labels would make the template differ (and the reference's message for an
      // immutable template prints the internal Go struct, field by field).
      spec: { manualSelector: true, selector: { matchLabels: { app: 'job' } }, template: jobTemplate('job') },
    }),
    change: { path: ['spec', 'activeDeadlineSeconds'], value: 600 },
  },
  {
    ...grouped('batch', 'v1', 'CronJob', 'cronjobs', true, 'batch'),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta(name),
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: jobTemplate('cron') } } },
    }),
    change: { path: ['spec', 'schedule'], value: '0 * * * *' },
  },
];
