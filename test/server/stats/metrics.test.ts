import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';

// Issue #10: `*_total` metrics were typed `gauge`, so Prometheus' rate() over them was wrong
// in spirit and refused by some tools. Scraped from a real server, every one is a counter.
describe('/metrics', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const scrape = async () => {
    const r = await call(server, 'GET', '/metrics');
    expect(r.status).toBe(200);
    return r.text;
  };
  const types = (text: string) =>
    new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]] as const));
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('types every *_total as a counter and the open watchers as a gauge', async () => {
    const text = await scrape();
    const typed = types(text);
    const totals = [...typed.keys()].filter((name) => name.endsWith('_total'));
    expect(totals.length).toBeGreaterThan(10);
    for (const name of totals) expect(`${name} ${typed.get(name)}`).toBe(`${name} counter`);
    expect(typed.get('watchmark_open_watchers')).toBe('gauge');
  });

  it('counts up across scrapes with the server stats, not twice', async () => {
    const before = sample(await scrape(), 'watchmark_writes_total') ?? Number.NaN;
    await ensureNamespace(server, 'metrics');
    expect((await call(server, 'POST', '/api/v1/namespaces/metrics/pods', { body: pod('p') })).status).toBe(
      201,
    );
    const text = await scrape();
    const stats = (await call(server, 'GET', '/debug/watchmark/stats')).body as { writes: number };
    const after = sample(text, 'watchmark_writes_total');
    expect(after).toBe(stats.writes);
    expect(after).toBeGreaterThanOrEqual(before + 2);
    expect(sample(text, 'watchmark_lists_total{mode="consistent"}')).toBeGreaterThanOrEqual(0);
  });
});
