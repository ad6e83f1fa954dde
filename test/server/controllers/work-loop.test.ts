/**
 * The server controllers' worker keeps client-go's workqueue rules (k8s.io/client-go/util/workqueue):
 * a key queued twice syncs once, a key is never synced twice at once and syncs again when added
 * meanwhile, and a failed key comes back after a per-key exponential delay on the injected clock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import { type SyncOutcome, WorkLoop } from '../../../src/server/controllers/work-loop.js';
import { waitUntil } from '../../helpers/wait.js';

function loop(clock: ManualClock, sync: (key: string) => Promise<SyncOutcome>, log: string[] = []): WorkLoop {
  return new WorkLoop({ name: 'test', clock, sync, log: (m) => log.push(m), baseDelayMs: 5, maxDelayMs: 40 });
}

describe('WorkLoop', () => {
  it('syncs a key queued several times once', async () => {
    const synced: string[] = [];
    const l = loop(new ManualClock(), async (key) => {
      synced.push(key);
      return undefined;
    });
    l.add('a');
    l.add('a');
    l.add('b');
    l.add('a');
    l.start();
    await l.idle();
    expect(synced).toEqual(['a', 'b']);
    await l.stop();
  });

  it('never syncs a key twice at once; one added during its sync syncs again after it', async () => {
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const synced: string[] = [];
    const l = loop(new ManualClock(), async (key) => {
      running++;
      most = Math.max(most, running);
      synced.push(key);
      if (synced.length === 1) await new Promise<void>((r) => (release = r));
      running--;
      return undefined;
    });
    l.start();
    l.add('a');
    await waitUntil(() => synced.length === 1, 'the first sync');
    l.add('a');
    l.add('a');
    release();
    await l.idle();
    expect(synced).toEqual(['a', 'a']);
    expect(most).toBe(1);
    await l.stop();
  });

  it('retries a failing key after 5, 10, 20 ms ... capped, on the clock it was given', async () => {
    const clock = new ManualClock();
    const log: string[] = [];
    let calls = 0;
    const l = loop(
      clock,
      async () => {
        calls++;
        if (calls <= 5) throw new Error(`failure ${calls}`);
        return undefined;
      },
      log,
    );
    l.start();
    l.add('k');
    await l.idle();
    expect(calls).toBe(1);
    for (const [delay, after] of [
      [5, 2],
      [10, 3],
      [20, 4],
      [40, 5],
      [40, 6],
    ]) {
      clock.advance(delay - 1);
      await l.idle();
      expect(calls).toBe(after - 1);
      clock.advance(1);
      await waitUntil(() => calls === after, `sync ${after}`);
      await l.idle();
    }
    expect(log[0]).toBe('test k: failure 1');
    // Forgotten after the success: the next failure starts at 5 ms again.
    expect(clock.pending).toBe(0);
    await l.stop();
  });

  it('requeues a key after the delay its sync asks for', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const l = loop(clock, async () => (++calls === 1 ? { requeueAfterMs: 8000 } : undefined));
    l.start();
    l.add('ns');
    await l.idle();
    clock.advance(7999);
    await l.idle();
    expect(calls).toBe(1);
    clock.advance(1);
    await waitUntil(() => calls === 2, 'the requeue');
    await l.stop();
  });
});
