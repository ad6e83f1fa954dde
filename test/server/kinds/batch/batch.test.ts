import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { cronScheduleError } from '../../../../src/server/kinds/batch/cron-schedule.js';
import { cronJobKind, defaultCronJob, validateCronJob } from '../../../../src/server/kinds/batch/cronjob.js';
import { defaultJob, jobKind, prepareJobCreate } from '../../../../src/server/kinds/batch/job.js';
import { validateJob } from '../../../../src/server/kinds/batch/job-validation.js';

const template = (restartPolicy?: string) => ({
  metadata: { labels: { app: 'pi' } },
  spec: { containers: [{ name: 'c', image: 'perl' }], ...(restartPolicy ? { restartPolicy } : {}) },
});

function createdJob(spec: Record<string, unknown>): KubeObject {
  const job: KubeObject = { metadata: { name: 'pi', namespace: 'ns', uid: 'u-1' }, spec };
  defaultJob(job);
  prepareJobCreate(job);
  return job;
}

describe('Job', () => {
  it('defaults as SetDefaults_Job does', () => {
    const job = createdJob({ template: template('Never') });
    expect(job.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      manualSelector: false,
    });
    const perIndex = createdJob({ completions: 2, backoffLimitPerIndex: 1, template: template('Never') });
    expect(perIndex.spec).toMatchObject({ parallelism: 1, backoffLimit: 2147483647 });
  });

  it('generates the selector and the template labels from the uid and name', () => {
    const job = createdJob({ template: template('Never') });
    const labels = {
      app: 'pi',
      'batch.kubernetes.io/controller-uid': 'u-1',
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': 'u-1',
      'job-name': 'pi',
    };
    expect((job.spec as any).selector).toEqual({
      matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' },
    });
    expect((job.spec as any).template.metadata.labels).toEqual(labels);
    // The Job's labels were the template's map: they show the generated labels too.
    expect(job.metadata?.labels).toEqual(labels);
    expect(validateJob(job)).toEqual([]);
  });

  it('refuses restart policy Always and a selector it did not generate', () => {
    const always = createdJob({ template: template() });
    expect(validateJob(always).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    const manual = createdJob({ selector: { matchLabels: { app: 'pi' } }, template: template('Never') });
    expect(validateJob(manual).map((e) => e.field)).toEqual(['spec.selector']);
    expect(validateJob(manual)[0]!.message).toContain('`selector` not auto-generated');
  });

  it('keeps the selector and a running Job template immutable', () => {
    const old = createdJob({ template: template('Never') });
    const next = structuredClone(old);
    (next.spec as any).template.spec.containers[0].image = 'perl:2';
    (next.spec as any).completions = 3;
    expect(validateJob(next, old).map((e) => e.field)).toEqual(['spec.completions', 'spec.template']);
  });

  it('judges a /status write by the status rules alone', () => {
    const old = createdJob({ template: template('Never') });
    old.status = { succeeded: 2, startTime: '2026-01-01T00:00:00Z' };
    const next = structuredClone(old);
    next.status = {
      succeeded: 1,
      startTime: '2026-01-01T00:00:00Z',
      conditions: [{ type: 'Complete', status: 'True' }],
    };
    expect(validateJob(next, old).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'status.completionTime: Required value: completionTime is required for Complete jobs',
      'status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
      'status.succeeded: Invalid value: 1: cannot decrease the succeeded counter',
    ]);
  });

  it('prints its Table cells', () => {
    const job = createdJob({ template: template('Never') });
    job.status = {
      succeeded: 1,
      startTime: '2026-01-01T00:00:00Z',
      completionTime: '2026-01-01T00:01:05Z',
      conditions: [{ type: 'Complete', status: 'True' }],
    };
    const cells = Object.fromEntries(jobKind.columns.map((c) => [c.name, c.cell(job, Date.now())]));
    expect(cells).toMatchObject({
      Status: 'Complete',
      Completions: '1/1',
      Duration: '65s',
      Containers: 'c',
      Images: 'perl',
      Selector: 'batch.kubernetes.io/controller-uid=u-1',
    });
    expect(jobKind.fields['status.successful']!(job)).toBe('1');
  });
});

describe('CronJob', () => {
  const cronJob = (spec: Record<string, unknown>): KubeObject => {
    const obj: KubeObject = { metadata: { name: 'hello', namespace: 'ns' }, spec };
    defaultCronJob(obj);
    return obj;
  };

  it('defaults concurrency, suspension and history limits', () => {
    const obj = cronJob({ schedule: '@daily', jobTemplate: { spec: { template: template('Never') } } });
    expect(obj.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(validateCronJob(obj)).toEqual([]);
  });

  it('words schedule errors as robfig/cron does', () => {
    expect(cronScheduleError('* * * *')).toBe('expected exactly 5 fields, found 4: [* * * *]');
    expect(cronScheduleError('61 * * * *')).toBe('end of range (61) above maximum (59): 61');
    expect(cronScheduleError('* * * * x')).toBe(
      'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
    );
    expect(cronScheduleError('@fortnightly')).toBe('unrecognized descriptor: @fortnightly');
    expect(cronScheduleError('@every 5q')).toBe(
      'failed to parse duration @every 5q: time: unknown unit "q" in duration "5q"',
    );
    expect(cronScheduleError('*/5 1-3 * jan-mar mon-fri')).toBeUndefined();
  });

  it('checks the time zone and the job template', () => {
    const obj = cronJob({
      schedule: 'TZ=UTC 0 * * * *',
      timeZone: 'Mars/Olympus',
      jobTemplate: { spec: { manualSelector: true, template: template('Never') } },
    });
    expect(validateCronJob(obj).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
  });

  it('prints its Table cells', () => {
    const obj = cronJob({ schedule: '@daily', jobTemplate: { spec: { template: template('Never') } } });
    const cells = Object.fromEntries(cronJobKind.columns.map((c) => [c.name, c.cell(obj, Date.now())]));
    expect(cells).toMatchObject({
      Schedule: '@daily',
      Timezone: '<none>',
      Suspend: 'False',
      Active: 0,
      'Last Schedule': '<none>',
      Selector: '<none>',
    });
  });
});
