import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ListWatchSource, WatchStream } from '../../src/client/watch/listwatch.js';
import type { WatchEvent } from '../../src/protocol/events.js';
import { CountingSource } from '../../src/study/source.js';

/** A source whose watches deliver the events pushed to them, then wait. */
function scripted() {
  const streams: Array<{ push(e: WatchEvent | undefined): void }> = [];
  const inner: ListWatchSource = {
    bytesRead: 0,
    list: async () => ({ metadata: { resourceVersion: '5' }, items: [] }),
    watch: async (): Promise<WatchStream> => {
      const queue: Array<WatchEvent | undefined> = [];
      let wake: (() => void) | undefined;
      streams.push({
        push(e) {
          queue.push(e);
          wake?.();
        },
      });
      return {
        async next() {
          while (queue.length === 0) await new Promise<void>((r) => (wake = r));
          return queue.shift();
        },
        close() {},
      };
    },
  };
  return { inner, streams };
}

const watchParams = { resourceVersion: '5', allowWatchBookmarks: true, timeoutSeconds: 60 };
const expired: WatchEvent = {
  type: 'ERROR',
  object: { kind: 'Status', code: 410, reason: 'Expired', metadata: {} } as never,
};

describe('CountingSource.hasWatched', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a watch that stayed open, seen at two calls; then for good', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { inner } = scripted();
    const source = new CountingSource(inner, 75_000);
    expect(source.hasWatched()).toBe(false);
    await source.list({});
    await source.watch(watchParams);
    expect(source.hasWatched()).toBe(false);
    vi.advanceTimersByTime(150);
    // Open long enough, but an ERROR could still be waiting to be read: not yet.
    expect(source.hasWatched()).toBe(false);
    expect(source.hasWatched()).toBe(true);
    await source.list({});
    expect(source.hasWatched()).toBe(true);
  });

  it('does not count a watch answered with an ERROR (410: its list took longer than the window)', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { inner, streams } = scripted();
    const source = new CountingSource(inner, 75_000);
    await source.list({});
    const stream = await source.watch(watchParams);
    streams[0].push(expired);
    expect(await stream.next()).toEqual(expired);
    vi.advanceTimersByTime(150);
    expect(source.hasWatched()).toBe(false);
    expect(source.hasWatched()).toBe(false);
    // The relist's watch holds.
    await source.list({});
    await source.watch(watchParams);
    vi.advanceTimersByTime(150);
    expect(source.hasWatched()).toBe(false);
    expect(source.hasWatched()).toBe(true);
  });

  it('a stream that ended is not one that holds', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { inner, streams } = scripted();
    const source = new CountingSource(inner, 75_000);
    const stream = await source.watch(watchParams);
    vi.advanceTimersByTime(150);
    expect(source.hasWatched()).toBe(false);
    streams[0].push(undefined);
    expect(await stream.next()).toBeUndefined();
    expect(source.hasWatched()).toBe(false);
  });
});
