/**
 * Issue 26, item 1: the steady stream's per-event work of the floor and of
 * client-node, without the network, on the same bytes: 10,000 MODIFIED
 * events of the client benchmark's 2,000 churn pods (bench/lib/pods.ts,
 * with a resourceVersion as the server adds it) cut in 64 KiB chunks, as
 * the sockets of both clients deliver them. Each pipeline is split in its
 * two halves so they can be swapped:
 *
 * - split "floor": StringDecoder per chunk, `rest + text`, indexOf('\n') /
 *   slice, JSON.parse (bench/client/runners.ts floorRunner);
 * - split "readline": the chunks written to a PassThrough (node-fetch's
 *   body) read by node:readline's createInterface, JSON.parse of each
 *   'line' (client-node 1.4 dist/watch.js);
 * - cache "floor": `${ns}/${name}` key, Map.set, the key onto a Set;
 * - cache "client-node": client-node's own `addOrUpdateObject` (dist/cache.js:
 *   namespace Map -> name Map, isSameVersion, the callback arrays sliced
 *   per event as ListWatch#watchHandler does), the handler building the
 *   same key onto a Set, and ListWatch's resourceVersion bookkeeping.
 *
 * Both caches start with the 2,000 pods (the list). A full GC (gc()) before
 * every timed pass. Rounds rotate the order; median ns/event; the other
 * processes' CPU per round (otherLoad).
 *
 *   node --expose-gc --import tsx bench/experiments/replay-ablation.ts [rounds]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
// client-node's own cache update, exported "for testing" from its dist/cache.js.
import { addOrUpdateObject as cnAddOrUpdate } from '@kubernetes/client-node/dist/cache.js';
import type { KubeObject } from '../../src/index.js';
import { otherLoad, readMachineCpu } from '../lib/machine-load.js';
import { median, ownCpuMs } from '../lib/report.js';
import { churnStream } from './event-sizes.js';

const ROUNDS = Number(process.argv[2] ?? 9);
const PODS = 2_000;
const EVENTS = 10_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const { pods, bytes: stream, chunks } = churnStream(PODS, EVENTS);

type Event = { type: string; object: KubeObject };
/** The same function, typed over our KubeObject (client-node's KubernetesObject differs only in optionality). */
const addOrUpdateObject = cnAddOrUpdate as unknown as (
  objects: Map<string, Map<string, KubeObject>>,
  obj: KubeObject,
  adds: Array<(o: KubeObject) => void>,
  updates: Array<(o: KubeObject) => void>,
) => void;
type Apply = (e: Event) => void;

interface Cache {
  apply: Apply;
  count(): number;
}

const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

function floorCache(): Cache {
  const cache = new Map<string, KubeObject>();
  const queue = new Set<string>();
  for (const p of pods) cache.set(key(p), p);
  let n = 0;
  return {
    apply(e) {
      if (e.type === 'MODIFIED') {
        const k = key(e.object);
        cache.set(k, e.object);
        queue.add(k);
        n++;
      }
    },
    count: () => n,
  };
}

function clientNodeCache(): Cache {
  const objects = new Map<string, Map<string, KubeObject>>();
  const queue = new Set<string>();
  let n = 0;
  const adds: Array<(o: KubeObject) => void> = [() => {}];
  const updates: Array<(o: KubeObject) => void> = [
    (o) => {
      queue.add(`${o.metadata?.namespace}/${o.metadata?.name}`);
      n++;
    },
  ];
  for (const p of pods) addOrUpdateObject(objects, p, adds.slice(), updates.slice());
  let resourceVersion = '';
  return {
    // ListWatch#watchHandler: the 'MODIFIED' case, then the resourceVersion kept.
    apply(e) {
      const obj = e.object;
      switch (e.type) {
        case 'ADDED':
        case 'MODIFIED':
          addOrUpdateObject(objects, obj, adds.slice(), updates.slice());
          break;
      }
      resourceVersion = obj.metadata ? obj.metadata.resourceVersion || '' : '';
    },
    count: () => n + (resourceVersion ? 0 : 0),
  };
}

function floorSplit(apply: Apply): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for (const chunk of chunks) {
    const buf = rest + decoder.write(chunk);
    let start = 0;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
      const line = buf.slice(start, nl);
      start = nl + 1;
      if (line.length === 0) continue;
      apply(JSON.parse(line));
    }
    rest = buf.slice(start);
  }
  return Promise.resolve();
}

function readlineSplit(apply: Apply): Promise<void> {
  return new Promise((resolve) => {
    const body = new PassThrough();
    const rl = createInterface(body);
    rl.on('line', (line: string) => {
      try {
        apply(JSON.parse(line.toString()));
      } catch {}
    });
    rl.on('close', () => resolve());
    // As the socket would: one write per chunk, waiting for 'drain' when the PassThrough is full.
    let i = 0;
    const pump = () => {
      while (i < chunks.length) if (!body.write(chunks[i++])) return void body.once('drain', pump);
      body.end();
    };
    pump();
  });
}

const SPLITS = { floor: floorSplit, readline: readlineSplit };
const CACHES = { floor: floorCache, 'client-node': clientNodeCache };
const variants = (Object.keys(SPLITS) as Array<keyof typeof SPLITS>).flatMap((s) =>
  (Object.keys(CACHES) as Array<keyof typeof CACHES>).map((c) => [s, c] as const),
);

console.log(
  `${EVENTS} events, ${(stream.length / EVENTS).toFixed(0)} B/event, ${chunks.length} chunks; load ${loadavg()[0].toFixed(2)}`,
);
const rounds: Array<{ other: number | undefined; ns: Record<string, number> }> = [];
for (let r = 0; r <= ROUNDS; r++) {
  const before = readMachineCpu();
  const c0 = ownCpuMs();
  const t0 = performance.now();
  const ns: Record<string, number> = {};
  for (let v = 0; v < variants.length; v++) {
    const [s, c] = variants[(v + r) % variants.length];
    const cache = CACHES[c]();
    gc();
    const t = performance.now();
    await SPLITS[s](cache.apply);
    ns[`${s} split + ${c} cache`] = ((performance.now() - t) * 1e6) / EVENTS;
    if (cache.count() !== EVENTS && c === 'floor') throw new Error(`${s}/${c}: ${cache.count()} events`);
  }
  const other = otherLoad(before, readMachineCpu(), ownCpuMs() - c0, performance.now() - t0)?.otherCpuPercent;
  if (r > 0) rounds.push({ other, ns });
  console.log(
    `round ${r}${r === 0 ? ' (warm-up)' : ''}: ${Object.entries(ns)
      .map(([k, x]) => `${k} ${(x / 1000).toFixed(2)} µs`)
      .join(', ')}; others ${other ?? '-'}%${other !== undefined && other > 10 ? ' BUSY' : ''}`,
  );
}
const quiet = rounds.filter((r) => r.other === undefined || r.other <= 10);
const used = quiet.length >= 5 ? quiet : rounds;
console.log(
  `\nmedians over ${used.length} rounds${used === quiet ? ' (others <= 10 %)' : ' (ALL: fewer than 5 quiet)'}`,
);
const base = 'floor split + floor cache';
for (const [s, c] of variants) {
  const k = `${s} split + ${c} cache`;
  console.log(
    `${k} | ${(median(used.map((r) => r.ns[k])) / 1000).toFixed(2)} µs/event | ratio to floor ${median(used.map((r) => r.ns[k] / r.ns[base])).toFixed(3)}`,
  );
}
