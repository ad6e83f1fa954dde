/**
 * The simulated cluster's pure pieces: hash, fenceposts, event correlation,
 * scheduling messages, image names, pod ranking (its work queue:
 * test/protocol/workqueue.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/protocol/clock.js';
import { podTemplateHash, SAFE_ALPHABET } from '../../src/sim/core/hash.js';
import type { Deployment, Pod } from '../../src/sim/core/objects.js';
import { deletionOrder } from '../../src/sim/core/pods.js';
import { maxSurge, maxUnavailable, resolveFenceposts, scaledValue } from '../../src/sim/deployment/util.js';
import { EventCorrelator } from '../../src/sim/events/correlator.js';
import type { KubeEvent } from '../../src/sim/events/types.js';
import { normalizeImage } from '../../src/sim/kubelet/images.js';
import { slowStartBatch } from '../../src/sim/replicaset.js';
import { schedulingFailure } from '../../src/sim/scheduler.js';

function dep(replicas: number, maxSurge?: number | string, maxUnavailable?: number | string): Deployment {
  return {
    spec: { replicas, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } },
  };
}

describe('pod-template-hash', () => {
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
  };

  it('is 8-10 characters of the safe alphabet, stable across key order', () => {
    const h = podTemplateHash(template);
    expect(h).toMatch(new RegExp(`^[${SAFE_ALPHABET}]{8,10}$`));
    const reordered = {
      spec: { containers: [{ image: 'nginx:1.27', name: 'c' }] },
      metadata: { labels: { app: 'web' } },
    };
    expect(podTemplateHash(reordered)).toBe(h);
  });

  it('changes with the template and with the collision count', () => {
    const h = podTemplateHash(template);
    const other = structuredClone(template);
    other.spec.containers[0].image = 'nginx:1.28';
    expect(podTemplateHash(other)).not.toBe(h);
    expect(podTemplateHash(template, 1)).not.toBe(h);
  });
});

describe('rolling update fenceposts', () => {
  it('rounds surge up and unavailability down', () => {
    expect(scaledValue('25%', 10, true)).toBe(3);
    expect(scaledValue('25%', 10, false)).toBe(2);
    expect(resolveFenceposts(dep(10, '25%', '25%'))).toEqual({ surge: 3, unavailable: 2 });
  });

  it('makes unavailability 1 when both resolve to zero', () => {
    expect(resolveFenceposts(dep(3, 0, '10%'))).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts(dep(1, '25%', '25%'))).toEqual({ surge: 1, unavailable: 0 });
  });

  it('caps unavailability at replicas and gives Recreate neither', () => {
    expect(maxUnavailable(dep(2, 0, 5))).toBe(2);
    const recreate: Deployment = { spec: { replicas: 3, strategy: { type: 'Recreate' } } };
    expect(maxSurge(recreate)).toBe(0);
    expect(maxUnavailable(recreate)).toBe(0);
  });
});

describe('EventCorrelator', () => {
  const event = (message: string, reason = 'BackOff'): KubeEvent => ({
    metadata: { name: `p.${message}`, namespace: 'demo' },
    involvedObject: { kind: 'Pod', namespace: 'demo', name: 'p', uid: 'u1' },
    reason,
    message,
    source: { component: 'kubelet', host: 'node-0' },
    type: 'Normal',
    count: 1,
    firstTimestamp: 't0',
    lastTimestamp: 't0',
    reportingComponent: 'kubelet',
    reportingInstance: 'node-0',
  });

  it('patches a repeat with count+1, keeping the first event name and firstTimestamp', () => {
    const c = new EventCorrelator(new ManualClock());
    const first = c.correlate(event('Back-off pulling image "x"'));
    expect(first.action).toBe('create');
    if (first.action === 'skip') throw new Error('unreachable');
    c.written(first.key, first.event);
    const again = c.correlate({ ...event('Back-off pulling image "x"'), lastTimestamp: 't1' });
    expect(again).toMatchObject({
      action: 'patch',
      event: { count: 2, firstTimestamp: 't0', lastTimestamp: 't1' },
    });
    if (again.action === 'skip') throw new Error('unreachable');
    expect(again.event.metadata.name).toBe(first.event.metadata.name);
  });

  it('combines the 10th distinct message of one reason, and the spam filter stops a flood at 25', () => {
    const c = new EventCorrelator(new ManualClock());
    const results = Array.from({ length: 30 }, (_, i) =>
      c.correlate(event(`Created pod: p-${i}`, 'SuccessfulCreate')),
    );
    const kept = results.filter((r) => r.action !== 'skip');
    expect(kept).toHaveLength(25);
    const tenth = results[9];
    expect(tenth.action !== 'skip' && tenth.event.message).toBe(
      '(combined from similar events): Created pod: p-9',
    );
    expect(results[8].action !== 'skip' && results[8].event.message).toBe('Created pod: p-8');
  });
});

describe('small helpers', () => {
  it('words FailedScheduling as kube-scheduler does', () => {
    expect(schedulingFailure(3, 3, 0, 0)).toBe(
      '0/3 nodes are available: 3 Too many pods. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
    expect(schedulingFailure(0, 0, 0, 0)).toBe('no nodes available to schedule pods');
  });

  it('normalizes image references like containerd', () => {
    expect(normalizeImage('nginx:1.27')).toBe('docker.io/library/nginx:1.27');
    expect(normalizeImage('bitnami/redis')).toBe('docker.io/bitnami/redis:latest');
    expect(normalizeImage('ghcr.io/org/app:v1')).toBe('ghcr.io/org/app:v1');
    expect(normalizeImage('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(normalizeImage('index.docker.io/library/nginx:1.27')).toBe('docker.io/library/nginx:1.27');
  });

  it('deletes unscheduled, then pending, then not-ready pods first', () => {
    const pod = (name: string, nodeName: string | undefined, phase: string, ready: boolean): Pod => ({
      metadata: { name, creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: { nodeName },
      status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
    const pods = [
      pod('ready', 'n', 'Running', true),
      pod('unready', 'n', 'Running', false),
      pod('pending', 'n', 'Pending', false),
      pod('unscheduled', undefined, 'Pending', false),
    ];
    expect(pods.sort(deletionOrder).map((p) => p.metadata?.name)).toEqual([
      'unscheduled',
      'pending',
      'unready',
      'ready',
    ]);
  });

  it('slow-start batches double and stop at the first failing batch', async () => {
    let calls = 0;
    let inFlight = 0;
    const widths: number[] = [];
    const { successes, error } = await slowStartBatch(20, 1, async () => {
      const n = ++calls;
      inFlight++;
      widths.push(inFlight);
      await Promise.resolve();
      inFlight--;
      if (n === 10) throw new Error('boom');
    });
    // Batches of 1, 2, 4, 8: the one holding call 10 fails, so 7 + 7 succeed and no 5th batch runs.
    expect(Math.max(...widths)).toBe(8);
    expect(calls).toBe(15);
    expect(successes).toBe(14);
    expect((error as Error).message).toBe('boom');
  });
});
