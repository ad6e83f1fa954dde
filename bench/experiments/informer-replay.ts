/**
 * Issue 26, item 3: watchmark's whole steady path (ResponseWatchStream ->
 * JsonLinesDecoder -> Watcher -> Informer -> handler) against the floor's
 * (split, JSON.parse, Map, Set), in one process, without the network, on
 * the same bytes: 10,000 MODIFIED events of the client benchmark's 2,000
 * churn pods (bench/lib/pods.ts) in 64 KiB chunks, one chunk per macrotask
 * (setImmediate) as a socket delivers them. Both caches start with the 2,000
 * pods. A full GC before every pass, the order rotated per round, median
 * µs/event (wall; one thread does all the work, GC helpers aside) and the
 * other processes' CPU per round.
 *
 *   node --expose-gc --import tsx bench/experiments/informer-replay.ts [rounds] [variants...]
 *
 * It imports watchmark from dist/ (build first: `npm run build`),
 * as the client benchmark does; SRC=1 imports src/ through tsx instead, DIST=<url
 * relative to this file> another build (e.g. an ablation's copy).
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import type { KubeObject } from '../../src/index.js';
import { otherLoad, readMachineCpu } from '../lib/machine-load.js';
import { median, ownCpuMs } from '../lib/report.js';
import { churnStream } from './event-sizes.js';

type Wm = typeof import('../../src/index.js');
type Lw = typeof import('../../src/client/watch/listwatch.js');
const base = process.env.SRC === '1' ? '../../src/' : (process.env.DIST ?? '../../dist/');
const wm = (await import(new URL(`${base}index.js`, import.meta.url).href)) as Wm;
const lw = (await import(new URL(`${base}client/watch/listwatch.js`, import.meta.url).href)) as Lw;

const args = process.argv.slice(2);
const ROUNDS = Number(args[0] ?? 9);
const PODS = 2_000;
const EVENTS = Number(process.env.EVENTS ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const { pods, bytes, chunks } = churnStream(PODS, EVENTS);
for (const p of pods) p.metadata = { ...p.metadata, resourceVersion: '1000000' };
const listJson = JSON.stringify({
  apiVersion: 'v1',
  kind: 'PodList',
  metadata: { resourceVersion: '1000000' },
  items: pods,
});

/** Emits the chunks one per macrotask, as an IncomingMessage would; then 'end'. */
class FakeResponse extends EventEmitter {
  complete = false;
  private i = 0;
  private paused = false;
  start(): void {
    setImmediate(() => this.pump());
  }
  private pump(): void {
    if (this.paused) return;
    if (this.i < chunks.length) {
      this.emit('data', chunks[this.i++]);
      setImmediate(() => this.pump());
    } else {
      this.complete = true;
      this.emit('end');
      this.emit('close');
    }
  }
  pause(): this {
    this.paused = true;
    return this;
  }
  resume(): this {
    if (this.paused) {
      this.paused = false;
      setImmediate(() => this.pump());
    }
    return this;
  }
  destroy(): this {
    this.paused = true;
    return this;
  }
}

/** Stops run after the timed span (an informer's stop waits for its loop). */
const stopLater: Array<() => Promise<void>> = [];
/**
 * Each variant's last cache, kept until its next run ends, as a long-running process keeps
 * its cache (and with it the hidden classes JSON.parse made for its objects: when they die,
 * the next run's objects get new ones and the readers' inline caches go megamorphic).
 * KEEP=0 drops them.
 */
const kept = new Map<string, unknown>();
const keep = process.env.KEEP !== '0';

/** A list of the pods, then a watch that replays the chunks through watchmark's own stream. */
function replaySource() {
  return {
    bytesRead: 0,
    list: async () => JSON.parse(listJson),
    watch: async () => {
      const res = new FakeResponse();
      const s = new lw.ResponseWatchStream(res as unknown as IncomingMessage, () => {});
      res.start();
      return s;
    },
  };
}

const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

/** The floor (bench/client/runners.ts floorRunner) on the same chunks. */
function floor(): Promise<void> {
  const cache = new Map<string, KubeObject>();
  for (const item of (JSON.parse(listJson) as { items: KubeObject[] }).items) cache.set(key(item), item);
  const queue = new Set<string>();
  if (keep) stopLater.push(async () => void kept.set('floor', cache));
  let n = 0;
  return new Promise((resolve) => {
    const res = new FakeResponse();
    const decoder = new StringDecoder('utf8');
    let rest = '';
    res.on('data', (chunk: Buffer) => {
      const buf = rest + decoder.write(chunk);
      let start = 0;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
        const line = buf.slice(start, nl);
        start = nl + 1;
        if (line.length === 0) continue;
        const event = JSON.parse(line) as { type: string; object: KubeObject };
        if (event.type === 'MODIFIED') {
          const k = key(event.object);
          cache.set(k, event.object);
          queue.add(k);
          if (++n === EVENTS) resolve();
        }
      }
      rest = buf.slice(start);
    });
    res.start();
  });
}

/** watchmark's Informer over a source whose watch is a ResponseWatchStream on the fake response. */
function watchmark(): Promise<void> {
  let n = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const source = replaySource();
  const informer = new wm.Informer(source as never, { pageSize: 0 } as never);
  const queue = new Set<string>();
  informer.on({
    update: (_old: unknown, object: KubeObject) => {
      queue.add(wm.objectKey(object));
      if (++n === EVENTS) done();
    },
  });
  informer.start();
  // Timed to the last update handled, as the client benchmark's clock; stopped after.
  return finished.then(() => {
    stopLater.push(() => informer.stop());
    if (keep) stopLater.push(async () => void kept.set('watchmark', informer));
  });
}

/** The stages under the informer, each with the floor's cache: the stream alone, then the Watcher. */
function stream(): Promise<void> {
  const cache = new Map<string, KubeObject>();
  for (const item of (JSON.parse(listJson) as { items: KubeObject[] }).items) cache.set(key(item), item);
  const queue = new Set<string>();
  const res = new FakeResponse();
  const s = new lw.ResponseWatchStream(res as unknown as IncomingMessage, () => {});
  res.start();
  return (async () => {
    for (let e = await s.next(); e; e = await s.next()) {
      const k = key(e.object);
      cache.set(k, e.object);
      queue.add(k);
      for (let p = s.poll(); p; p = s.poll()) {
        const k2 = key(p.object);
        cache.set(k2, p.object);
        queue.add(k2);
      }
    }
  })();
}

function watcher(): Promise<void> {
  const cache = new Map<string, KubeObject>();
  const queue = new Set<string>();
  const source = replaySource();
  const w = new wm.Watcher(source as never, { pageSize: 0 } as never);
  let n = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  void w.consume((batch) => {
    for (const e of batch) {
      if (e.type !== 'apply' && e.type !== 'initApply') continue;
      const k = key(e.object);
      cache.set(k, e.object);
      if (e.type === 'apply') {
        queue.add(k);
        if (++n === EVENTS) done();
      }
    }
  });
  return finished.then(() => {
    stopLater.push(async () => w.stop());
    if (keep) stopLater.push(async () => void kept.set('watcher', cache));
  });
}

const VARIANTS: Record<string, () => Promise<void>> = { floor, watchmark, stream, watcher };
const chosen = args.slice(1).length ? args.slice(1) : ['floor', 'watchmark'];

console.log(
  `${EVENTS} events, ${(bytes.length / EVENTS).toFixed(0)} B/event, ${chunks.length} chunks; watchmark from ${base}; load ${loadavg()[0].toFixed(2)}`,
);
const rounds: Array<{ other: number | undefined; us: Record<string, number>; ratio: number }> = [];
for (let r = 0; r <= ROUNDS; r++) {
  const before = readMachineCpu();
  const c0 = ownCpuMs();
  const t0 = performance.now();
  const us: Record<string, number> = {};
  for (let v = 0; v < chosen.length; v++) {
    const name = chosen[(v + r) % chosen.length];
    gc();
    const t = performance.now();
    await VARIANTS[name]();
    us[name] = ((performance.now() - t) * 1e3) / EVENTS;
    for (const stop of stopLater.splice(0)) await stop();
  }
  const other = otherLoad(before, readMachineCpu(), ownCpuMs() - c0, performance.now() - t0)?.otherCpuPercent;
  const ratio = us.watchmark / us.floor;
  if (r > 0) rounds.push({ other, us, ratio });
  console.log(
    `round ${r}${r === 0 ? ' (warm-up)' : ''}: ${Object.entries(us)
      .map(([k, x]) => `${k} ${x.toFixed(2)} µs`)
      .join(
        ', ',
      )}; watchmark/floor ${ratio.toFixed(3)}; others ${other ?? '-'}%${other !== undefined && other > 10 ? ' BUSY' : ''}`,
  );
}
const quiet = rounds.filter((r) => r.other === undefined || r.other <= 10);
const used = quiet.length >= 5 ? quiet : rounds;
console.log(
  `\nmedians over ${used.length} rounds${used === quiet ? ' (others <= 10 %)' : ' (ALL: fewer than 5 quiet)'}`,
);
for (const name of chosen) console.log(`${name}: ${median(used.map((r) => r.us[name])).toFixed(2)} µs/event`);
if (chosen.includes('watchmark') && chosen.includes('floor'))
  console.log(`watchmark / floor, paired: ${median(used.map((r) => r.ratio)).toFixed(3)}`);
