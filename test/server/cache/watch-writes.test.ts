/**
 * The watch writer belongs to its server: two servers in one process keep
 * their own line and write counts, and turning coalescing off on one (the
 * fan-out benchmark's knob) leaves the other gathering its lines.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer, type TestWatch, watch } from '../../helpers/server.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('watch writes are counted and tuned per server', () => {
  const servers: RunningServer[] = [];
  const watches: TestWatch[] = [];
  afterEach(async () => {
    for (const w of watches.splice(0)) w.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  /** Opens a watch on `server` and creates `n` ConfigMaps in one turn; resolves once all arrived. */
  async function burst(server: RunningServer, n: number, prefix: string): Promise<void> {
    const list = await call(server, 'GET', CM);
    const w = await watch(server, `${CM}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
    watches.push(w);
    const names = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const created = await Promise.all(
      names.map((name) => call(server, 'POST', CM, { body: { metadata: { name }, data: { k: 'v' } } })),
    );
    expect(created.map((a) => a.status)).toEqual(names.map(() => 201));
    for (const name of names) await w.until((e) => e.type === 'ADDED' && e.object.metadata?.name === name);
  }

  it('keeps counts apart and lets one server write line by line while the other gathers', async () => {
    const a = await startTestServer({ noBookmarks: true });
    const b = await startTestServer({ noBookmarks: true, watchWriteCoalescing: false });
    servers.push(a, b);

    await burst(b, 20, 'b');
    // b writes each line on its own; a has had no watch traffic at all.
    expect(b.stats.watchLinesWritten).toBe(20);
    expect(b.stats.watchWrites).toBe(20);
    expect(a.stats.watchLinesWritten).toBe(0);
    expect(a.stats.watchWrites).toBe(0);

    await burst(a, 20, 'a');
    expect(a.stats.watchLinesWritten).toBe(20);
    // Twenty creates answered in a few turns: a gathered them into fewer writes.
    expect(a.stats.watchWrites).toBeGreaterThan(0);
    expect(a.stats.watchWrites).toBeLessThanOrEqual(20);
    expect(b.stats.watchLinesWritten).toBe(20);

    // Tuned at run time, b gathers too: its counts move, a's stay.
    b.tune({ watchWriteCoalescing: true });
    await burst(b, 5, 'b2');
    expect(b.stats.watchLinesWritten).toBe(20 + 5 * 2);
    expect(a.stats.watchLinesWritten).toBe(20);
  });

  it('serves the counts as Prometheus metrics', async () => {
    const a = await startTestServer({ noBookmarks: true });
    servers.push(a);
    await burst(a, 3, 'm');
    const metrics = await call(a, 'GET', '/metrics');
    expect(metrics.text).toMatch(/^watchmark_watch_lines_written_total 3$/m);
    expect(metrics.text).toMatch(new RegExp(`^watchmark_watch_writes_total ${a.stats.watchWrites}$`, 'm'));
  });
});
