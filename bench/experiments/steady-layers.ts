/**
 * Issue 26, item 3: where watchmark's steady stream loses time to the floor,
 * layer by layer, over a real socket. The client benchmark's server child
 * (bench/client/server-child.ts: 10,000 churn pods, EVENTS updates in its
 * history) serves every run; each run is a fresh process (pinned to CPU 1,
 * the server to CPU 0, where taskset is found) that lists at the history's
 * start, watches from there and applies every update:
 *
 * - `floor`: node:http, setEncoding, split lines, JSON.parse, a Map and a Set
 *   (bench/client/runners.ts floorRunner);
 * - `stream`: watchmark's ResponseWatchStream (its decoder and reader), the
 *   floor's Map and Set;
 * - `watcher`: watchmark's Watcher (state machine, restarts, metrics), the
 *   floor's Map and Set in its batch callback;
 * - `informer`: watchmark's Informer, a handler putting the key on a Set.
 *
 * It prints each round's times (first to last update), the other processes'
 * CPU over each run, the median paired ratio against the first variant, and
 * the median time per twentieth of the stream: a cost that sits in the first
 * twentieth is a start (JIT warm-up), one spread over all is per event.
 *
 *   npm run build   # it runs watchmark from dist/, as users do
 *   [EVENTS=300000] [ROUNDS=5] npx tsx bench/experiments/steady-layers.ts floor stream watcher informer
 *
 * Results (2026-12-04, in bench/client/notes.md): at 60,000 events stream
 * 1.07, watcher 1.07, informer 1.15 times the floor; at 300,000, watcher 0.95
 * and informer 1.02.
 */
import { spawnSync } from 'node:child_process';
import { Agent, type IncomingMessage, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { KubeObject, ListWatchSource } from '../../src/index.js';
import { canPin, killAllChildren, placeServer, startServerChild } from '../client/children.js';
import { CHURN_NAMESPACE } from '../client/plan.js';
import { otherLoad, processCpuMs, readMachineCpu } from '../lib/machine-load.js';
import { median } from '../lib/report.js';

const VARIANTS = ['floor', 'stream', 'watcher', 'informer'] as const;
type Variant = (typeof VARIANTS)[number];
/** Times taken per run: one per twentieth of the stream. */
const SEGMENTS = 20;

/** What a child prints: its run's time, CPU, and ms since the first update at each twentieth. */
interface ChildResult {
  ms: number;
  cpuMs: number;
  processCpuMs: number;
  marks: number[];
}

const cpuMsNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One run in this process: list, watch, apply `events` updates; prints a {@link ChildResult}. */
async function child(variant: Variant, url: string, baseRevision: string, events: number): Promise<void> {
  const dist = new URL('../../dist/', import.meta.url);
  const wm = (await import(new URL('index.js', dist).href)) as typeof import('../../src/index.js');
  const keyOf = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
  const podsPath = `/api/v1/namespaces/${CHURN_NAMESPACE}/pods`;
  const agent = new Agent({ keepAlive: true });
  const get = (path: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(new URL(path, url), { agent, headers: { accept: 'application/json' } }, resolve);
      req.on('error', reject);
      req.end();
    });
  const cache = new Map<string, KubeObject>();
  const queue = new Set<string>();
  const listInto = async () => {
    const res = await get(`${podsPath}?resourceVersion=${baseRevision}&resourceVersionMatch=Exact`);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    for (const item of JSON.parse(Buffer.concat(chunks).toString('utf8')).items) cache.set(keyOf(item), item);
  };

  let n = 0;
  let t0 = 0;
  let c0 = 0;
  const marks: number[] = [];
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const tick = () => {
    if (n % (events / SEGMENTS) === 0) marks.push(performance.now());
    if (++n === 1) {
      t0 = performance.now();
      c0 = cpuMsNow();
    }
    if (n === events) {
      marks.push(performance.now());
      finish();
    }
  };
  const take = (type: string, object: KubeObject) => {
    if (type !== 'MODIFIED') return;
    const key = keyOf(object);
    cache.set(key, object);
    queue.add(key);
    tick();
  };
  const connection = {
    server: url,
    insecureSkipTlsVerify: false,
    namespace: CHURN_NAMESPACE,
    credentials: {
      authorization: async () => undefined,
      clientCertificate: async () => undefined,
      invalidate() {},
    },
  };
  const kube = new wm.KubeClient(connection);
  const http = kube.resource('pods', CHURN_NAMESPACE).listWatch();
  // Lists exactly where the churn history starts; the watch resumes from there.
  const source: ListWatchSource = {
    get bytesRead() {
      return http.bytesRead;
    },
    list: (p) => http.list({ ...p, resourceVersion: baseRevision, resourceVersionMatch: 'Exact' }),
    watch: (p) => http.watch(p),
  };

  let stop: () => unknown;
  if (variant === 'floor') {
    await listInto();
    const res = await get(
      `${podsPath}?watch=true&allowWatchBookmarks=true&resourceVersion=${baseRevision}&timeoutSeconds=600`,
    );
    res.setEncoding('utf8');
    let rest = '';
    res.on('data', (text: string) => {
      const buf = rest + text;
      let start = 0;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
        const line = buf.slice(start, nl);
        start = nl + 1;
        if (line.length === 0) continue;
        const e = JSON.parse(line) as { type: string; object: KubeObject };
        take(e.type, e.object);
      }
      rest = buf.slice(start);
    });
    stop = () => res.destroy();
  } else if (variant === 'stream') {
    await listInto();
    const s = await http.watch({
      resourceVersion: baseRevision,
      allowWatchBookmarks: true,
      timeoutSeconds: 600,
    });
    void (async () => {
      for (let e = await s.next(); e; e = await s.next()) {
        take(e.type, e.object);
        for (let p = s.poll?.(); p; p = s.poll?.()) take(p.type, p.object);
      }
    })();
    stop = () => s.close();
  } else if (variant === 'watcher') {
    const w = new wm.Watcher(source, { pageSize: 0 });
    void w.consume((batch) => {
      for (const e of batch) {
        if (e.type === 'initApply') cache.set(keyOf(e.object), e.object);
        else if (e.type === 'apply') take('MODIFIED', e.object);
      }
    });
    stop = () => w.stop();
  } else {
    const informer = new wm.Informer(source, { pageSize: 0 });
    informer.on({
      update: (_old, object) => {
        queue.add(wm.objectKey(object));
        tick();
      },
    });
    informer.start();
    stop = () => informer.stop();
  }
  await finished;
  const result: ChildResult = {
    ms: performance.now() - t0,
    cpuMs: cpuMsNow() - c0,
    processCpuMs: cpuMsNow(),
    marks: marks.map((m) => m - marks[0]),
  };
  console.log(JSON.stringify(result));
  await stop();
  agent.destroy();
  process.exit(0);
}

async function parent(variants: Variant[], events: number, rounds: number): Promise<void> {
  const pin = canPin();
  const server = await startServerChild({ syncSizes: [], churnPods: 10_000, churnEvents: events }, 600_000);
  placeServer(server.info.pid, pin ? 'pinned' : 'unpinned');
  console.log(`${events} events per run, ${rounds} rounds, ${pin ? 'pinned' : 'unpinned (no taskset)'}`);
  const self = fileURLToPath(import.meta.url);
  const ratios = new Map<Variant, number[]>();
  const segments = new Map<Variant, number[][]>();
  try {
    for (let r = 0; r < rounds; r++) {
      const times = new Map<Variant, number>();
      const cells: string[] = [];
      for (let i = 0; i < variants.length; i++) {
        const v = variants[(i + r) % variants.length];
        const m0 = readMachineCpu();
        const s0 = processCpuMs(server.info.pid) ?? 0;
        const w0 = performance.now();
        const node = [process.execPath, '--import', 'tsx', self, '--child', v, server.info.url];
        const args = [...node, String(server.info.baseRevision), String(events)];
        const out = pin
          ? spawnSync('taskset', ['-c', '1', ...args], { encoding: 'utf8' })
          : spawnSync(args[0], args.slice(1), { encoding: 'utf8' });
        const line = out.stdout.trim().split('\n').pop() ?? '';
        if (out.status !== 0 || !line.startsWith('{')) {
          // The child's own error line (the last that names one), not its stack.
          const why = (out.stderr ?? '')
            .split('\n')
            .filter((l) => /Error\b/.test(l))
            .pop();
          throw new Error(`the ${v} run failed: ${why?.trim() ?? `exit ${out.status}`}`);
        }
        const res = JSON.parse(line) as ChildResult;
        const own = (processCpuMs(server.info.pid) ?? 0) - s0 + res.processCpuMs;
        const load = otherLoad(m0, readMachineCpu(), own, performance.now() - w0);
        times.set(v, res.ms);
        const marks = res.marks;
        segments.set(v, [...(segments.get(v) ?? []), marks.slice(1).map((m, j) => m - marks[j])]);
        cells.push(`${v} ${res.ms.toFixed(0)} ms [others ${load?.otherCpuPercent ?? '-'} %]`);
      }
      const base = times.get(variants[0]) as number;
      for (const v of variants) ratios.set(v, [...(ratios.get(v) ?? []), (times.get(v) as number) / base]);
      console.log(`round ${r + 1}: ${cells.join('  ')}`);
    }
    console.log(
      `median paired ratio to ${variants[0]}: ${variants.map((v) => `${v} ${median(ratios.get(v) ?? []).toFixed(3)}`).join('  ')}`,
    );
    for (const v of variants) {
      const runs = segments.get(v) ?? [];
      const perSegment = (runs[0] ?? []).map((_, j) => Math.round(median(runs.map((s) => s[j]))));
      console.log(`${v}: median ms per twentieth of the stream: ${perSegment.join(' ')}`);
    }
  } finally {
    await server.close();
    killAllChildren();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1] as Variant, args[2], args[3], Number(args[4]));
} else {
  const chosen = (args.length ? args : ['floor', 'informer']) as Variant[];
  const unknown = chosen.filter((v) => !VARIANTS.includes(v));
  const events = Number(process.env.EVENTS ?? 60_000);
  const rounds = Number(process.env.ROUNDS ?? 5);
  const usage = unknown.length
    ? `unknown variant ${unknown.join(', ')}: one of ${VARIANTS.join(', ')}`
    : !(Number.isInteger(events) && events > 0 && events % SEGMENTS === 0)
      ? `EVENTS=${process.env.EVENTS}: a positive multiple of ${SEGMENTS} wanted`
      : !(Number.isInteger(rounds) && rounds > 0)
        ? `ROUNDS=${process.env.ROUNDS}: a positive whole number wanted`
        : undefined;
  if (usage) {
    console.error(`steady-layers: ${usage}`);
    process.exit(2);
  }
  try {
    await parent(chosen, events, rounds);
  } catch (err) {
    console.error(`steady-layers: ${(err as Error).message}`);
    process.exit(1);
  }
}
