import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, streamRandom } from '../../src/process/index.js';
import { chartSvg, niceScale } from '../../src/study/chart.js';
import { bestRatio, expectedRestartWork } from '../../src/study/model.js';
import { resolveOptions } from '../../src/study/options.js';
import { runStudy, type StudyResult } from '../../src/study/study.js';
import { tempDirForFile } from '../helpers/lifecycle.js';

describe('watchmark study --quick', () => {
  let dir: string;
  let result: StudyResult;
  const lines: string[] = [];

  const tempDir = tempDirForFile('watchmark-study-test-');
  beforeAll(async () => {
    dir = tempDir();
    result = await runStudy({ quick: true, outDir: dir }, (line) => lines.push(line));
  }, 120_000);

  it('runs bookmarks on, off, and off with the window doubled, with the same load', () => {
    expect(result.runs.map((r) => r.id)).toEqual(['bookmarks', 'no-bookmarks', 'no-bookmarks-2x']);
    const writes = result.runs.map((r) => r.churn.writes);
    // The same seeded churn: the same writes, give or take the last tick's timing.
    expect(Math.max(...writes) - Math.min(...writes)).toBeLessThanOrEqual(writes[0] * 0.05);
    for (const r of result.runs) {
      expect(r.churn.failed).toBe(0);
      // The writer has a process of its own; its CPU is part of the client side's.
      expect(r.churnCpuMs).toBeGreaterThan(0);
      expect(r.churnCpuMs).toBeLessThan(r.clientCpuMs);
    }
  });

  it('bookmarks cost no 410 and no relist; without them quiet watchers relist', () => {
    const [on, off] = result.runs;
    expect(on.server.bookmarksSent).toBeGreaterThan(0);
    expect(on.server.expiredSent).toBe(0);
    expect(on.clients.lists.expired).toBe(0);
    expect(off.server.bookmarksSent).toBe(0);
    expect(off.clients.lists.expired).toBeGreaterThan(0);
    // Each 410 is one watch start from a resourceVersion older than the window, and costs one relist.
    expect(off.server.expiredSent).toBe(off.clients.lists.expired);
  });

  it('bookmarks cut the server restart work by a large factor', () => {
    const [on, off] = result.runs;
    expect(off.restartWork).toBeGreaterThan(0);
    // The model says ~9 % here; allow for a loaded machine's reconnect latency.
    expect(on.restartWork).toBeLessThan(off.restartWork * 0.35);
    expect(result.totalRatio).toBeCloseTo(on.restartWork / off.restartWork, 3);
    expect(result.ratio).toBeLessThan(0.35);
  });

  it('no run missed an event: every cache equals the server', () => {
    expect(result.missedEvents).toBe(0);
    for (const r of result.runs) {
      expect(r.verify.watchers).toBeGreaterThan(0);
      expect(r.verify.objects).toBeGreaterThan(0);
      expect(r.verify.mismatchedWatchers).toBe(0);
      expect(r.verify.serverDisagreements).toBe(0);
    }
  });

  it('writes study.json and study.svg, and prints the tables', async () => {
    const json = JSON.parse(await readFile(join(dir, 'study.json'), 'utf8')) as StudyResult;
    expect(json.runs).toHaveLength(3);
    expect(json.runs[0].timeline.length).toBeGreaterThan(5);
    const svg = await readFile(join(dir, 'study.svg'), 'utf8');
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('<polyline');
    expect(result.files.png ?? result.files.pngNote).toBeTruthy();
    const out = lines.join('\n');
    expect(out).toContain('RESTART WORK PER RESTART');
    expect(out).toContain('churn writer (own process)');
    expect(out).toContain('time scale 60x');
    expect(out).toMatch(/events missed in all 3 runs: 0/);
  });
});

describe('study pieces', () => {
  it('the model: large saving for a kubelet, none for a watcher that sees everything', () => {
    const base = { churn: 5, historyWindowS: 75, bookmarkLeadS: 2 };
    const node = expectedRestartWork({ ...base, share: 1 / 500, objects: 10 });
    expect(node.withBookmarks / node.withoutBookmarks).toBeLessThan(0.2);
    expect(node.expiredShare).toBeCloseTo(Math.exp(-0.75), 5);
    const all = expectedRestartWork({ ...base, share: 1, objects: 5000 });
    expect(all.withoutBookmarks).toBeLessThan(1e-6);
    expect(all.withBookmarks).toBeLessThan(1e-6);
  });

  it('the model: 1/40 is out of reach with a 75 s window, within reach with 5 minutes', () => {
    const base = { churn: 5, bookmarkLeadS: 2, objects: 5000 };
    const short = bestRatio({ ...base, historyWindowS: 75 });
    expect(short.ratio).toBeGreaterThan(0.08);
    expect(short.ratio).toBeLessThan(0.1);
    // The best watcher sees an event every H / 1.8 s or so.
    expect(short.share * 5 * 75).toBeGreaterThan(1.2);
    expect(short.share * 5 * 75).toBeLessThan(2.4);
    expect(bestRatio({ ...base, historyWindowS: 300 }).ratio).toBeLessThan(0.025);
  });

  it('seeded streams repeat and differ', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(streamRandom(1, 1)()).not.toBe(streamRandom(1, 2)());
  });

  it('options: quick preset, scaling checks', () => {
    const q = resolveOptions({ quick: true });
    expect(q.watchers).toBe(50);
    expect(q.selectivity).toBe(false);
    expect(() => resolveOptions({ timeScale: 1000 })).toThrow(/keep it >= 2 s/);
    expect(niceScale(873)).toEqual({ max: 1000, step: 200 });
  });

  it('the chart is plain SVG text', () => {
    const run = (id: string) => ({
      id,
      label: id,
      historyWindowMs: 75_000,
      clusterMinutes: 2,
      timeline: [
        {
          minute: 1,
          restartWork: 5,
          initEventsExamined: 5,
          listedObjects: 0,
          relists: 1,
          expired: 1,
          bookmarks: 0,
        },
      ],
    });
    const svg = chartSvg({
      options: resolveOptions({ quick: true }),
      runs: [run('a'), run('b'), run('c<')],
    } as unknown as StudyResult);
    expect(svg).toContain('c&lt;');
    expect(svg.match(/<polyline/g)).toHaveLength(6);
  });
});
