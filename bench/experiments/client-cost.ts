/**
 * What the study's client side costs against its server, per message and
 * per request (docs/bookmarks.md, "At Kubernetes scale"), each side in a
 * process of its own, plain HTTP:
 *
 * - bookmarks: 1,000 quiet informers (one pod selector each, nothing to
 *   see) get a bookmark every 200 ms from a `watchmark` server whose
 *   resourceVersion a writer process moves on; client CPU per bookmark
 *   received against the server's CPU per bookmark sent, over windows of
 *   3 s;
 * - relists: what a watcher without bookmarks does after a quiet spell, a
 *   list of its node's 10 pods and a watch that ends in a 410 ERROR event,
 *   8 at a time over kept-alive connections: client CPU per cycle through
 *   the library (the Watcher's own list and watch calls) against the same
 *   two requests on bare node:http with one JSON.parse each, in
 *   alternating rounds.
 *
 *     npm run build && npx tsx bench/experiments/client-cost.ts   # ~1 min
 *
 * The library runs from dist/, as users run it.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spawnStudyServer, waitUntil } from '../../src/process/index.js';
import { buildPod } from '../../src/sim/index.js';

const DIST = new URL('../../dist/', import.meta.url).href;
const WATCHERS = 1_000;
const WINDOWS = 5;
const WINDOW_MS = 3_000;
const CYCLES = 1_000;
const ROUNDS = 7;
const CONCURRENCY = 8;
const NODE = 'node-1';

type Wm = typeof import('../../src/index.js');

const connection = (server: string) => ({
  server,
  insecureSkipTlsVerify: false,
  namespace: 'default',
  credentials: {
    authorization: async () => undefined,
    clientCertificate: async () => undefined,
    invalidate() {},
  },
});

/** The writer process: moves the server's resourceVersion on 10 times a second (bookmarks carry it). */
async function writer(server: string): Promise<void> {
  const wm = (await import(`${DIST}index.js`)) as Wm;
  const maps = new wm.KubeClient(connection(server), { qps: 0 }).resource('configmaps', 'default');
  await maps.create({ metadata: { name: 'tick' }, data: { n: '0' } });
  let n = 0;
  setInterval(() => void maps.patch('tick', { data: { n: String(++n) } }).catch(() => {}), 100);
  process.send?.('ready');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const cpuUs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

async function bookmarks(wm: Wm): Promise<{ clientUs: number; serverUs: number; ratio: number }> {
  const server = await spawnStudyServer({ insecureHttp: true, insecureNoAuth: true, bookmarkInterval: 200 });
  const child = fork(fileURLToPath(import.meta.url), ['--writer', server.url], { stdio: 'inherit' });
  const kubes = Array.from({ length: 4 }, () => new wm.KubeClient(connection(server.url), { qps: 0 }));
  const informers = Array.from({ length: WATCHERS }, (_, i) => {
    const source = kubes[i % 4]
      .resource('pods', 'default')
      .listWatch({ fieldSelector: `spec.nodeName=n${i}` });
    return new wm.Informer(source, { bookmarks: true, watchTimeoutMs: [600_000, 660_000] }).start();
  });
  try {
    await new Promise((resolve) => child.once('message', resolve));
    await Promise.all(informers.map((i) => i.synced()));
    const received = () => informers.reduce((n, i) => n + i.watcher.metrics.bookmarks, 0);
    // Every watcher's first bookmark in, before measuring.
    await waitUntil(() => received() >= WATCHERS, "every watcher's first bookmark", {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const rows: Array<{ clientUs: number; serverUs: number; ratio: number }> = [];
    for (let w = 0; w < WINDOWS; w++) {
      const n0 = received();
      const c0 = process.cpuUsage();
      const s0 = (await server.sample()).cpuUs;
      await new Promise((r) => setTimeout(r, WINDOW_MS));
      const client = cpuUs(c0);
      const n = received() - n0;
      const serverUs = ((await server.sample()).cpuUs - s0) / n;
      rows.push({ clientUs: client / n, serverUs, ratio: client / n / serverUs });
    }
    return {
      clientUs: median(rows.map((r) => r.clientUs)),
      serverUs: median(rows.map((r) => r.serverUs)),
      ratio: median(rows.map((r) => r.ratio)),
    };
  } finally {
    await Promise.all(informers.map((i) => i.stop()));
    await Promise.all(kubes.map((k) => k.close()));
    child.kill();
    await server.close();
  }
}

async function relists(wm: Wm): Promise<{ libraryUs: number; bareUs: number; ratio: number }> {
  // A history window of 1 ms: by the time the cycles run, resourceVersion 1 has left the watch cache.
  const server = await spawnStudyServer({ insecureHttp: true, insecureNoAuth: true, historyWindow: 1 });
  const kube = new wm.KubeClient(connection(server.url), { qps: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, scheduling: 'lifo' });
  try {
    const pods = kube.resource('pods', 'default');
    for (let i = 0; i < 10; i++) {
      await pods.create(buildPod(`pod-${i}`, { nodeName: NODE, container: 'a', image: 'x' }));
    }
    const io = await import(`${DIST}client/watch/watch-io.js`);
    const { newWatcherMetrics } = await import(`${DIST}client/watch/metrics.js`);
    const { systemClock } = await import(`${DIST}protocol/clock.js`);
    const stopped = new AbortController().signal;
    const selector = `spec.nodeName=${NODE}`;
    const path = `/api/v1/namespaces/default/pods?fieldSelector=${encodeURIComponent(selector)}`;
    // resourceVersion 1 is older than the watch cache's history: the watch answers with a 410 ERROR event.
    const library = async () => {
      const ctx = {
        source: pods.listWatch({ fieldSelector: selector }),
        clock: systemClock,
        metrics: newWatcherMetrics(),
        stopped,
        requestTimeoutMs: 60_000,
        lazyDecode: false,
      };
      const listed = await io.listAll(ctx, { resourceVersion: '' }, 500);
      if (listed.kind !== 'listed') throw new Error(`list: ${listed.kind}`);
      const opened = await io.openWatch(ctx, {
        resourceVersion: '1',
        initial: false,
        bookmarks: false,
        timeoutMs: 60_000,
      });
      if (opened.kind !== 'opened') throw new Error(`watch: ${opened.kind}`);
      let last: { type: string; object: { code?: number } } | undefined;
      for (let e = await opened.stream.next(); e; e = await opened.stream.next()) last = e;
      return last;
    };
    const get = (p: string) =>
      new Promise<Buffer>((resolve, reject) => {
        const r = request(`${server.url}${p}`, { agent, headers: { accept: 'application/json' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
          res.on('error', reject);
        });
        r.on('error', reject);
        r.end();
      });
    const bare = async () => {
      JSON.parse((await get(path)).toString());
      const lines = (await get(`${path}&watch=true&resourceVersion=1&timeoutSeconds=60`))
        .toString()
        .split('\n');
      return lines
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; object: { code?: number } })
        .at(-1);
    };
    for (const [name, cycle] of [
      ['library', library],
      ['bare', bare],
    ] as const) {
      const last = await cycle();
      if (last?.type !== 'ERROR' || last.object.code !== 410)
        throw new Error(`${name}: the watch did not end in a 410: ${JSON.stringify(last)?.slice(0, 300)}`);
    }
    const perCycle = async (cycle: () => Promise<unknown>) => {
      let started = 0;
      const c0 = process.cpuUsage();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (started++ < CYCLES) await cycle();
        }),
      );
      return cpuUs(c0) / CYCLES;
    };
    const rows: Array<{ libraryUs: number; bareUs: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const [first, second] = r % 2 ? [bare, library] : [library, bare];
      const a = await perCycle(first);
      const b = await perCycle(second);
      rows.push(r % 2 ? { libraryUs: b, bareUs: a } : { libraryUs: a, bareUs: b });
    }
    const measured = rows.slice(1); // round 1 warms up
    return {
      libraryUs: median(measured.map((r) => r.libraryUs)),
      bareUs: median(measured.map((r) => r.bareUs)),
      ratio: median(measured.map((r) => r.libraryUs / r.bareUs)),
    };
  } finally {
    agent.destroy();
    await kube.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const wm = (await import(`${DIST}index.js`).catch(() => {
    throw new Error('dist/ is missing: run npm run build first');
  })) as Wm;
  console.log(
    `client cost against the server, each in its own process; load average ${loadavg()[0].toFixed(2)}`,
  );
  const b = await bookmarks(wm);
  console.log(
    `  bookmark: client ${b.clientUs.toFixed(1)} µs CPU to receive, server ${b.serverUs.toFixed(1)} µs to send: ${b.ratio.toFixed(2)}x (median of ${WINDOWS} windows)`,
  );
  const r = await relists(wm);
  console.log(
    `  list + watch ending in a 410: library ${r.libraryUs.toFixed(0)} µs CPU, bare node:http ${r.bareUs.toFixed(0)} µs: ${r.ratio.toFixed(2)}x (paired median of ${ROUNDS - 1} rounds)`,
  );
}

const at = process.argv.indexOf('--writer');
if (at >= 0) await writer(process.argv[at + 1]);
else await main();
