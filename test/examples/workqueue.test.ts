/** The example operator's work queue keeps client-go's rules (examples/operator/src/workqueue.ts). */
import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../examples/operator/src/workqueue.js';

describe('example operator work queue', () => {
  it('queues a key once, and a key added while processed comes back after done, never twice at once', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('a');
    q.add('b');
    expect(await q.get()).toBe('a');
    q.add('a'); // while processing: dirty, not handed out
    expect(await q.get()).toBe('b');
    const next = q.get();
    q.done('a');
    expect(await next).toBe('a');
    q.shutDown();
    expect(await q.get()).toBeUndefined();
  });

  it('retries with a per-key backoff that forget resets', async () => {
    const q = new WorkQueue({ baseDelayMs: 1 });
    q.addRateLimited('a');
    q.addRateLimited('a');
    expect(q.retries('a')).toBe(2);
    expect(await q.get()).toBe('a'); // the timers fire; the second add finds it queued or processing
    q.forget('a');
    expect(q.retries('a')).toBe(0);
    q.done('a');
    q.shutDown();
  });
});
