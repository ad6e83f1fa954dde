import { describe, expect, it } from 'vitest';
import { pollUntil, WaitTimeoutError, waitUntil } from '../../src/process/index.js';

describe('polling a condition', () => {
  it('resolves with the first truthy value the probe returns', async () => {
    let calls = 0;
    const value = await pollUntil(async () => (++calls >= 3 ? { calls } : undefined), { intervalMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('resolves undefined once the time is up, after one last look', async () => {
    let calls = 0;
    expect(await pollUntil(() => ++calls < 0, { timeoutMs: 20, intervalMs: 5 })).toBeUndefined();
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it('a wait that runs out names what it waited for, as it stood at the deadline', async () => {
    let seen = 0;
    const wait = waitUntil(
      () => ++seen < 0,
      () => `the counter (at ${seen})`,
      {
        timeoutMs: 20,
        intervalMs: 5,
      },
    );
    await expect(wait).rejects.toBeInstanceOf(WaitTimeoutError);
    await expect(wait).rejects.toThrow(/^timed out after 20 ms waiting for the counter \(at \d+\)$/);
  });
});
