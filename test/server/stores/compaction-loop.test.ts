/**
 * The compaction loop (src/server/stores/compaction-loop.ts) on a manual clock over a memory
 * store: each tick compacts to the revision the previous tick saw, a reset forgets that target,
 * and nothing ticks after stop.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import { CompactionLoop } from '../../../src/server/stores/compaction-loop.js';
import { MemoryStore } from '../../../src/server/stores/memory.js';

const INTERVAL = 1_000;

function loop() {
  const store = new MemoryStore();
  const clock = new ManualClock();
  const compacted: number[] = [];
  const compact = store.compact.bind(store);
  store.compact = async (revision: number) => {
    compacted.push(revision);
    return compact(revision);
  };
  const ticks: Promise<void>[] = [];
  const compaction = new CompactionLoop({
    store,
    clock,
    intervalMs: INTERVAL,
    runInBackground: (_what, work) => {
      ticks.push(work());
    },
  });
  const tick = async () => {
    clock.advance(INTERVAL);
    await Promise.all(ticks);
  };
  const write = (name: string) => store.create(`/registry/configmaps/default/${name}`, '{}');
  return { store, clock, compacted, compaction, tick, write };
}

describe('CompactionLoop', () => {
  it('compacts each interval to the revision the previous tick saw', async () => {
    const { compacted, compaction, tick, write, store } = loop();
    compaction.start();
    await write('a');
    await tick(); // the first tick only notes the revision
    expect(compacted).toEqual([]);
    const seen = await store.currentRevision();
    await write('b');
    await tick();
    expect(compacted).toEqual([seen]);
    compaction.stop();
  });

  it('forgets its target on reset, and ticks no more once stopped', async () => {
    const { clock, compacted, compaction, tick, write } = loop();
    compaction.start();
    await write('a');
    await tick();
    compaction.reset();
    await tick();
    expect(compacted).toEqual([]);
    compaction.stop();
    expect(clock.pending).toBe(0);
  });

  it('runs no loop with an interval of 0', () => {
    const store = new MemoryStore();
    const clock = new ManualClock();
    new CompactionLoop({ store, clock, intervalMs: 0, runInBackground: () => {} }).start();
    expect(clock.pending).toBe(0);
  });
});
