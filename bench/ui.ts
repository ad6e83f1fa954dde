/**
 * `npm run bench:ui`: does the live view stay responsive with 1,000 watchers
 * and 500 events/s, and what does it cost the server? The same load in every
 * phase (1,000 raw watches, each with its own user agent, so 1,000 lanes; a
 * writer updating ConfigMaps at 500 writes/s, each update seen by 20
 * watchers), three ways: without the UI (the baseline, run first and last),
 * with the UI on and its stream read by a plain client (the server's cost),
 * and with `/ui` open in headless Chromium (the page's). Each phase runs in
 * its own process. Reported, never asserted: the page's render time per frame
 * and its long tasks, the stream's bytes/s, and the server's event-loop delay
 * and achieved write rate as ratios against the baseline.
 *
 *   npm run bench:ui                 # 8 s per phase, writes bench/results/ui.json
 *   npm run bench:ui -- --seconds 4  # shorter, no JSON
 *
 * The server, watchers and writer share a process (the browser does not), so
 * the event-loop delay includes the clients' work; the ratio is the figure.
 * Chromium runs on the same cores, so the last phase's server figures also
 * pay for the browser.
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, type ClientRequest, request as httpRequest } from 'node:http';
import { dirname } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { waitUntil } from '../src/process/index.js';
import { type RunningServer, startServer } from '../src/server/index.js';
import { round, table } from './lib/report.js';

// These run in the page (page.evaluate / addInitScript), where they exist.
declare const window: any;
declare const document: any;

const WATCHERS = 1_000;
const WRITES_PER_SECOND = 500;
const SHARDS = 50;
const OUT = fileURLToPath(new URL('./results/ui.json', import.meta.url));

/** No UI (the baseline); the UI's stream read by a plain client; the page open in Chromium. */
type Mode = 'baseline' | 'stream' | 'browser';

interface PhaseResult {
  mode: Mode;
  seconds: number;
  writesPerSecond: number;
  eventsSentPerSecond: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMeanMs: number;
  page?: PageFigures;
}

interface PageFigures {
  framesPerSecond: number;
  renderMsMean: number;
  renderMsMax: number;
  longTasks: number;
  longTaskMs: number;
  streamBytesPerSecond: number;
  lanesDrawn: number;
  lanesSummed: number;
}

const args = process.argv.slice(2);
const secondsArg = args.indexOf('--seconds');
const seconds = secondsArg >= 0 ? Number(args[secondsArg + 1]) : 8;
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('usage: npm run bench:ui -- [--seconds N]');
const chromiumPath = process.env.WATCHMARK_CHROMIUM ?? '/usr/bin/chromium';

const phaseArg = args.indexOf('--phase');
if (phaseArg >= 0) {
  // A child: one phase, its result as the last line.
  console.log(JSON.stringify(await phase(args[phaseArg + 1] as Mode)));
  process.exit(0);
}

// Each phase in its own process (no heap or sockets left over from the one before), and the
// baseline both first and last: the mean of the two evens out a neighbour's load.
const first = runPhase('baseline');
const withStream = runPhase('stream');
const withUi = runPhase('browser');
const last = runPhase('baseline');
const mean = (a: number, b: number) => round((a + b) / 2, 2);
const baseline: PhaseResult = {
  mode: 'baseline',
  seconds: mean(first.seconds, last.seconds),
  writesPerSecond: mean(first.writesPerSecond, last.writesPerSecond),
  eventsSentPerSecond: mean(first.eventsSentPerSecond, last.eventsSentPerSecond),
  eventLoopDelayP99Ms: mean(first.eventLoopDelayP99Ms, last.eventLoopDelayP99Ms),
  eventLoopDelayMeanMs: mean(first.eventLoopDelayMeanMs, last.eventLoopDelayMeanMs),
};
const ratio = (a: number, b: number) => (b === 0 ? null : round(a / b, 2));
const LABELS: Record<Mode, string> = {
  baseline: 'no UI',
  stream: 'UI on, stream read',
  browser: 'UI open in Chromium',
};
console.log(
  table(
    ['phase', 'writes/s', 'watch events/s', 'loop delay p99 ms', 'loop delay mean ms'],
    [first, withStream, withUi, last, baseline].map((r, i) => [
      i === 4 ? 'baseline (mean of both)' : LABELS[r.mode],
      r.writesPerSecond,
      r.eventsSentPerSecond,
      r.eventLoopDelayP99Ms,
      r.eventLoopDelayMeanMs,
    ]),
  ),
);
const page = withUi.page!;
console.log(
  `\npage: ${page.framesPerSecond} frames/s, render ${page.renderMsMean} ms mean / ${page.renderMsMax} ms max, ` +
    `${page.longTasks} long tasks (${page.longTaskMs} ms in all), stream ${round(page.streamBytesPerSecond / 1024)} KiB/s, ` +
    `${page.lanesDrawn} lanes drawn + ${page.lanesSummed} summed`,
);
const ratios = {
  streamWritesPerSecond: ratio(withStream.writesPerSecond, baseline.writesPerSecond),
  streamEventLoopDelayP99: ratio(withStream.eventLoopDelayP99Ms, baseline.eventLoopDelayP99Ms),
  browserWritesPerSecond: ratio(withUi.writesPerSecond, baseline.writesPerSecond),
  browserEventLoopDelayP99: ratio(withUi.eventLoopDelayP99Ms, baseline.eventLoopDelayP99Ms),
};
console.log(
  `ratios to the baseline: UI stream only: writes/s ${ratios.streamWritesPerSecond}, loop delay p99 ${ratios.streamEventLoopDelayP99}; ` +
    `page in Chromium on the same cores: writes/s ${ratios.browserWritesPerSecond}, loop delay p99 ${ratios.browserEventLoopDelayP99}`,
);
if (secondsArg < 0) {
  mkdirSync(dirname(OUT), { recursive: true });
  const report = {
    watchers: WATCHERS,
    targetWritesPerSecond: WRITES_PER_SECOND,
    seconds,
    baseline,
    baselineRuns: [first, last],
    withStream,
    withUi,
    ratios,
  };
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}

/** Runs one phase in a child process. */
function runPhase(mode: Mode): PhaseResult {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', mode, '--seconds', String(seconds)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = child.stdout.trim().split('\n');
  if (child.status !== 0) throw new Error(`phase ${mode} failed (exit ${child.status}): ${child.stdout}`);
  return JSON.parse(lines[lines.length - 1]) as PhaseResult;
}

async function phase(mode: Mode): Promise<PhaseResult> {
  const server = await startServer({
    ui: mode !== 'baseline',
    insecureHttp: true,
    insecureNoAuth: true,
    bookmarkInterval: 1_000,
    compactionInterval: 0,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const watches: ClientRequest[] = [];
  try {
    await send(server, agent, 'POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
    for (let s = 0; s < SHARDS; s++) {
      await send(server, agent, 'POST', '/api/v1/namespaces/bench/configmaps', {
        metadata: { name: `cm-${s}`, labels: { shard: String(s) } },
        data: { n: '0' },
      });
    }
    for (let i = 0; i < WATCHERS; i++) watches.push(openWatch(server, i));
    await waitUntil(() => server.stats.openWatchers >= WATCHERS, 'the watches to open', {
      timeoutMs: 30_000,
      intervalMs: 20,
    });

    let browserClose: (() => Promise<void>) | undefined;
    let browserPage: Page | undefined;
    let readPage: (() => Promise<Omit<PageFigures, 'streamBytesPerSecond'>>) | undefined;
    let streamBytes = 0;
    let stream: ClientRequest | undefined;
    if (mode === 'browser') {
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: ['--no-sandbox'],
      });
      browserClose = () => browser.close();
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      browserPage = page;
      await page.addInitScript(() => {
        const w = window as unknown as { __longTasks: { count: number; ms: number } };
        w.__longTasks = { count: 0, ms: 0 };
        new PerformanceObserver((list: any) => {
          for (const e of list.getEntries()) {
            w.__longTasks.count++;
            w.__longTasks.ms += e.duration;
          }
        }).observe({ type: 'longtask' as any, buffered: true });
      });
      await page.goto(server.uiLoginUrl()!);
      await page.waitForSelector('[data-testid="more-lanes"]:not([hidden])');
      await page.evaluate(() => {
        const w = window as unknown as {
          __watchmarkUi: Record<string, number>;
          __longTasks: Record<string, number>;
        };
        for (const k of Object.keys(w.__watchmarkUi)) w.__watchmarkUi[k] = 0;
        w.__longTasks.count = 0;
        w.__longTasks.ms = 0;
      });
    }
    if (mode !== 'baseline') {
      stream = httpRequest(`${server.url}/ui/events`, (res) =>
        res.on('data', (c: Buffer) => (streamBytes += c.length)),
      );
      stream.on('error', () => {});
      stream.end();
    }
    if (browserPage) {
      const page = browserPage;
      readPage = () =>
        page.evaluate(() => {
          const w = window as unknown as {
            __watchmarkUi: { frames: number; renders: number; renderMsTotal: number; renderMsMax: number };
            __longTasks: { count: number; ms: number };
          };
          const p = w.__watchmarkUi;
          return {
            framesPerSecond: p.frames,
            renderMsMean: p.renders ? p.renderMsTotal / p.renders : 0,
            renderMsMax: p.renderMsMax,
            longTasks: w.__longTasks.count,
            longTaskMs: w.__longTasks.ms,
            lanesDrawn: document.querySelectorAll('[data-lane-id]').length,
            lanesSummed: Number(
              document.querySelector('[data-testid="more-lanes"]')?.getAttribute('data-count'),
            ),
          };
        });
    }

    const eventsBefore = totalEvents(server);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = Date.now();
    const bytesBefore = streamBytes;
    const writes = await writeFor(server, agent, seconds * 1000);
    const elapsed = (Date.now() - started) / 1000;
    delay.disable();
    const result: PhaseResult = {
      mode,
      seconds: round(elapsed, 1),
      writesPerSecond: round(writes / elapsed),
      eventsSentPerSecond: round((totalEvents(server) - eventsBefore) / elapsed),
      eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6, 2),
      eventLoopDelayMeanMs: round(delay.mean / 1e6, 2),
    };
    if (readPage) {
      const p = await readPage();
      result.page = {
        ...p,
        framesPerSecond: round(p.framesPerSecond / elapsed),
        renderMsMean: round(p.renderMsMean, 2),
        renderMsMax: round(p.renderMsMax, 1),
        longTaskMs: round(p.longTaskMs),
        streamBytesPerSecond: round((streamBytes - bytesBefore) / elapsed),
      };
    }
    stream?.destroy();
    await browserClose?.();
    return result;
  } finally {
    for (const w of watches) w.destroy();
    agent.destroy();
    await server.close();
  }
}

function totalEvents(server: RunningServer): number {
  const e = server.stats.eventsSent;
  return e.ADDED + e.MODIFIED + e.DELETED;
}

/** One watch with its own user agent (so its own lane), reading and dropping what it gets. */
function openWatch(server: RunningServer, i: number): ClientRequest {
  const path = `/api/v1/namespaces/bench/configmaps?watch=1&allowWatchBookmarks=true&labelSelector=shard%3D${i % SHARDS}`;
  const req = httpRequest(`${server.url}${path}`, {
    headers: { 'user-agent': `bench-watcher-${i}` },
    agent: false,
  });
  req.on('response', (res) => res.resume());
  req.on('error', () => {});
  req.end();
  return req;
}

/** Updates the shards' ConfigMaps at WRITES_PER_SECOND for `ms`; returns the writes done. */
async function writeFor(server: RunningServer, agent: Agent, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let done = 0;
  let n = 0;
  const tickMs = 20;
  const perTick = (WRITES_PER_SECOND * tickMs) / 1000;
  while (Date.now() < end) {
    const tickEnd = Date.now() + tickMs;
    const batch = Array.from({ length: perTick }, () => {
      const s = n++ % SHARDS;
      return send(
        server,
        agent,
        'PATCH',
        `/api/v1/namespaces/bench/configmaps/cm-${s}`,
        { data: { n: String(n) } },
        'application/merge-patch+json',
      ).then(() => {
        done++;
      });
    });
    await Promise.all(batch);
    const wait = tickEnd - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return done;
}

function send(
  server: RunningServer,
  agent: Agent,
  method: string,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<void> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const req = httpRequest(
      `${server.url}${path}`,
      { method, agent, headers: { 'content-type': contentType, 'content-length': payload.length } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode! < 300 ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
