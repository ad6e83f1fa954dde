/**
 * The work queue the simulated controllers, the garbage collector and the server's controllers run on:
 * client-go's util/workqueue rules, on an injected clock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/protocol/clock.js';
import { WorkQueue } from '../../src/protocol/workqueue.js';

describe('WorkQueue', () => {
  it('dedupes waiting keys and re-queues a key added while it is processed', async () => {
    const q = new WorkQueue(new ManualClock());
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.length).toBe(2);
    expect(await q.get()).toBe('a');
    q.add('a');
    expect(q.length).toBe(1);
    expect(await q.get()).toBe('b');
    q.done('a');
    expect(await q.get()).toBe('a');
  });

  it('backs off failures exponentially on its clock and keeps the earliest delayed add', async () => {
    const clock = new ManualClock();
    const q = new WorkQueue(clock, { baseDelayMs: 10 });
    q.addRateLimited('k');
    q.addRateLimited('k');
    expect(q.length).toBe(0);
    clock.advance(10);
    expect(q.length).toBe(1);
    expect(q.retries('k')).toBe(2);
    q.forget('k');
    expect(q.retries('k')).toBe(0);
    q.addAfter('x', 100);
    q.addAfter('x', 50);
    clock.advance(50);
    expect(q.length).toBe(2);
  });

  it('wakes waiting workers with undefined on shutdown', async () => {
    const q = new WorkQueue(new ManualClock());
    const waiting = q.get();
    q.shutDown();
    expect(await waiting).toBeUndefined();
  });
});
