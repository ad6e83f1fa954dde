/**
 * The watch cache follows the server's kinds: a kind added while the server
 * runs gets a cache holding what the store already has of it plus every
 * change from then on, and a kind removed loses its cache and its watches.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import { Cacher } from '../../../src/server/cache/cacher.js';
import { jsonEncoder } from '../../../src/server/cache/event.js';
import { CacheWatcher, type WatchSink } from '../../../src/server/cache/watcher.js';
import { KindTable } from '../../../src/server/kinds/served/kind-table.js';
import { newStats } from '../../../src/server/stats/stats.js';
import { objectKey } from '../../../src/server/stores/keys.js';
import { MemoryStore } from '../../../src/server/stores/memory.js';
import { waitUntil } from '../../helpers/wait.js';
import { widget as makeWidget } from '../../helpers/widget.js';
import { widgetKind } from '../fixtures/kinds.js';

const widget = (name: string, size: number) =>
  JSON.stringify(makeWidget(name, { size }, { namespace: 'ns' }));

function setup() {
  const clock = new ManualClock();
  const store = new MemoryStore();
  const table = new KindTable();
  const stats = newStats();
  const cacher = new Cacher(store, table, { clock, stats, history: { windowMs: 75_000, capacity: 1000 } });
  return { clock, store, table, stats, cacher };
}

/** A watcher of every widget in `ns` that records the lines it is sent and whether it was ended. */
function recordingWatcher(
  cacher: Cacher,
  kind: ReturnType<typeof widgetKind>,
  clock: ManualClock,
  stats: ReturnType<typeof newStats>,
) {
  const lines: string[] = [];
  let ended = false;
  const sink: WatchSink = {
    write: (chunk) => void lines.push(chunk.toString()),
    end: () => {
      ended = true;
    },
    destroy: () => {
      ended = true;
    },
    bufferedBytes: 0,
  };
  const cache = cacher.cacheFor(kind);
  const watcher = new CacheWatcher(
    { namespace: 'ns', matches: () => true, everything: true },
    sink,
    cacher.latestRevision,
    {
      clock,
      stats,
      encoder: jsonEncoder,
      kind: 'Widget',
      apiVersion: 'example.com/v1',
      allowBookmarks: false,
      periodicBookmarks: false,
      bookmarkIntervalMs: 60_000,
      bookmarkLeadMs: 1_000,
      deadline: clock.now() + 600_000,
      maxBufferedBytes: 1 << 20,
      latestRevision: () => cacher.latestRevision,
      onClosed: () => {},
    },
  );
  expect(cache.watchFrom(watcher, cacher.latestRevision)).toBeUndefined();
  return { lines, isEnded: () => ended };
}

describe('the watch cache follows the kind table', () => {
  it('a kind added at run time holds what the store had and follows every change after', async () => {
    const { store, table, cacher, clock, stats } = setup();
    const kind = widgetKind();
    // Objects left in the store before the kind is served (a definition deleted and created again).
    await store.create(objectKey(kind, 'ns', 'old-a'), widget('old-a', 1));
    await store.create(objectKey(kind, 'ns', 'old-b'), widget('old-b', 2));
    await cacher.start();
    expect(() => cacher.cacheFor(kind)).toThrow('no watch cache for example.com/widgets');

    await cacher.addKind(kind);
    table.add(kind);
    const cache = cacher.cacheFor(kind);
    expect(cache.keys()).toEqual([objectKey(kind, 'ns', 'old-a'), objectKey(kind, 'ns', 'old-b')]);

    const watch = recordingWatcher(cacher, kind, clock, stats);
    const created = await store.create(objectKey(kind, 'ns', 'new'), widget('new', 3));
    await waitUntil(() => cacher.latestRevision >= created.modRevision, 'the cache to reach the create');
    expect(cache.keys()).toContain(objectKey(kind, 'ns', 'new'));
    await waitUntil(() => watch.lines.join('').includes('"name":"new"'), 'the watcher to get the new widget');
    expect(watch.lines.join('')).toContain('"type":"ADDED"');
    await cacher.stop();
  });

  it('a kind removed from the table loses its cache, and its watches end', async () => {
    const { table, cacher, clock, stats } = setup();
    await cacher.start();
    const kind = widgetKind();
    await cacher.addKind(kind);
    table.add(kind);
    const watch = recordingWatcher(cacher, kind, clock, stats);
    expect(watch.isEnded()).toBe(false);

    table.remove(kind);
    expect(watch.isEnded()).toBe(true);
    expect(() => cacher.cacheFor(kind)).toThrow('no watch cache for example.com/widgets');
    // The built-in caches are untouched.
    expect(cacher.all().length).toBe(table.all().length);
    cacher.stop();
  });

  it('a kind added to the table alone still gets its cache', async () => {
    const { table, cacher } = setup();
    await cacher.start();
    const kind = widgetKind();
    table.add(kind);
    await waitUntil(() => cacher.all().some((c) => c.kind === kind), 'a cache for the added kind');
    cacher.stop();
  });
});
