/**
 * The CronJob controller on an injected clock against a real server: a Job per activation named
 * `<cronjob>-<minutes>` with the scheduled-timestamp annotation in the CronJob's zone,
 * status.active and lastScheduleTime, Forbid holding back while a Job runs, a finished Job leaving
 * the active list (lastSuccessfulTime) and the held-back activation running late.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  jobFromTemplate,
  mostRecentScheduleTime,
  rfc3339In,
} from '../../../src/controllers/cronjob/schedule.js';
import { type RunningControllers, startControllers } from '../../../src/controllers/index.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import { parseCronSchedule } from '../../../src/protocol/cron.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type TestCluster, testCluster } from '../../../src/testing/index.js';
import { eventually } from '../../helpers/wait.js';

type Obj = KubeObject & { spec?: any; status?: any };

/** Polls `fn` until it answers (15 s at most): test/helpers/wait.ts `eventually`. */
const until = <T>(fn: () => Promise<T | undefined> | T | undefined, what: string) =>
  eventually(fn, what, 15_000);

describe('schedule arithmetic', () => {
  it('finds the most recent missed activation and counts many missed', () => {
    const schedule = parseCronSchedule('* * * * *');
    const cj = { metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } };
    const few = mostRecentScheduleTime(cj, Date.parse('2026-01-01T00:05:30Z'), schedule, false);
    expect(new Date(few.mostRecent!).toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(few.missed).toBe('few');
    const many = mostRecentScheduleTime(cj, Date.parse('2026-01-01T03:00:30Z'), schedule, false);
    expect(many.missed).toBe('many');
    const deadline = mostRecentScheduleTime(
      { ...cj, spec: { startingDeadlineSeconds: 30 } },
      Date.parse('2026-01-01T03:00:10Z'),
      schedule,
      true,
    );
    expect(new Date(deadline.mostRecent!).toISOString()).toBe('2026-01-01T03:00:00.000Z');
  });

  it('writes the scheduled time in the CronJob’s zone and names the Job by minutes', () => {
    expect(rfc3339In(Date.parse('2026-01-01T00:00:00Z'), 'Asia/Tokyo')).toBe('2026-01-01T09:00:00+09:00');
    expect(rfc3339In(Date.parse('2026-01-01T00:00:00Z'), undefined)).toBe('2026-01-01T00:00:00Z');
    const job = jobFromTemplate(
      {
        metadata: { name: 'nightly', uid: 'u1' },
        spec: {
          timeZone: 'America/New_York',
          jobTemplate: { metadata: { labels: { a: 'b' } }, spec: { parallelism: 2 } },
        },
      },
      Date.parse('2026-01-01T05:00:00Z'),
    );
    expect(job.metadata).toEqual({
      name: `nightly-${Date.parse('2026-01-01T05:00:00Z') / 60_000}`,
      labels: { a: 'b' },
      annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T00:00:00-05:00' },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: 'nightly',
          uid: 'u1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
  });
});

describe('the cronjob controller on a manual clock', () => {
  let cluster: TestCluster;
  let controllers: RunningControllers;
  let clock: ManualClock;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace'] });
    // Just past a whole minute, so the next activations are a minute apart from here.
    clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000 + 60_000 + 1_000);
    controllers = await startControllers({ client: cluster.client, controllers: ['cronjob'], clock });
  });
  afterAll(async () => {
    await controllers?.close();
    await cluster?.close();
  });

  it('creates a Job per activation, holds back under Forbid, and forgets a finished one', async () => {
    const kube = cluster.client;
    const ns = 'default';
    await kube.resource<Obj>('cronjobs.batch', ns).create({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: {
        schedule: '* * * * *',
        concurrencyPolicy: 'Forbid',
        successfulJobsHistoryLimit: 1,
        jobTemplate: {
          spec: {
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
          },
        },
      },
    } as Obj);
    const jobs = kube.resource<Obj>('jobs.batch', ns);
    const activation = Math.floor(clock.now() / 60_000) * 60_000;
    const first = `tick-${activation / 60_000}`;
    const job = await until(() => jobs.find(first), `job ${first}`);
    expect(job.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      new Date(activation).toISOString().replace('.000Z', 'Z'),
    );
    const cj = await until(async () => {
      const c = await kube.resource<Obj>('cronjobs.batch', ns).get('tick');
      return c.status?.active?.length === 1 ? c : undefined;
    }, 'status.active');
    expect(cj.status.active[0]).toMatchObject({ kind: 'Job', name: first, apiVersion: 'batch/v1' });
    expect(cj.status.lastScheduleTime).toBe(new Date(activation).toISOString().replace('.000Z', 'Z'));

    // The next minute: the first Job still runs, and Forbid holds the next one back.
    const synced = controllers.stats()['cronjob-controller']!.syncs;
    clock.advance(60_000);
    // A positive barrier: the controller has synced the CronJob at the new minute.
    await until(
      async () => (controllers.stats()['cronjob-controller']!.syncs > synced ? true : undefined),
      'a sync at the next minute',
    );
    expect((await jobs.list()).items.map((j) => j.metadata?.name)).toEqual([first]);

    // The Job finishes: it leaves the active list and its completion time becomes lastSuccessfulTime.
    const now = new Date(clock.now()).toISOString().replace(/\.\d+Z/, 'Z');
    await jobs.patch(
      first,
      {
        status: {
          startTime: now,
          completionTime: now,
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: now, lastProbeTime: now },
            { type: 'Complete', status: 'True', lastTransitionTime: now, lastProbeTime: now },
          ],
        },
      },
      'merge',
      { subresource: 'status' },
    );
    const done = await until(async () => {
      const c = await kube.resource<Obj>('cronjobs.batch', ns).get('tick');
      return c.status?.lastSuccessfulTime ? c : undefined;
    }, 'lastSuccessfulTime');
    expect(done.status.lastSuccessfulTime).toBe(now);
    // The activation Forbid held back is still within reach (no startingDeadlineSeconds): it runs now.
    const late = `tick-${activation / 60_000 + 1}`;
    expect(done.status.active?.map((r: { name: string }) => r.name)).toEqual([late]);
    expect((await jobs.list()).items.map((j) => j.metadata?.name).sort()).toEqual([first, late].sort());
  });
});
