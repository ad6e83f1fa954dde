/**
 * An experiment behind issue #11's steady-stream target (bench/client/notes.md,
 * "Fourth pass"): can a decoder beat the floor (one JSON.parse per event line
 * into a Map) while handing out whole objects, by reusing the previous
 * version's decoded value of every top-level member whose text did not
 * change? In the bench's churn (and in most real pod updates) `spec` does
 * not change between versions.
 *
 * Decode and cache only, no HTTP: 60,000 MODIFIED lines of bench:client's
 * churn (10,000 pods, six versions each), decoded in one process by three
 * decoders in alternating rounds, CPU per event compared with the floor's
 * in the same round:
 *
 * - floor: JSON.parse of the line, Map.set, the key onto a work queue;
 * - shared, scanned: a JSON scan finds the object's members; metadata is
 *   parsed, every other member is parsed only when its text differs from
 *   the previous version's (kept per key), else the previous value is reused;
 * - shared, best case: the same reuse with the members found by indexOf of
 *   `"metadata":`, `,"spec":` and `,"status":`, no scan at all (wrong for
 *   text that holds those strings; a bound on what reuse could give).
 *
 *     npx tsx bench/experiments/shared-subtrees.ts     # ~1 min; bench/results/shared-subtrees.json
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { KubeObject } from '../../src/index.js';
import { churnPod, makePod } from '../lib/pods.js';

const PODS = 10_000;
const EVENTS = 60_000;
const ROUNDS = 7;
const PREFIX = '{"type":"MODIFIED","object":';

type Obj = Record<string, unknown> & { metadata: { namespace: string; name: string } };
type Decoder = (
  cache: Map<string, Obj>,
  queue: Set<string>,
  texts: Map<string, Record<string, string>>,
) => void;

function churnLines(): string[] {
  const pods = Array.from({ length: PODS }, (_, i) => makePod('churn', i));
  const lines: string[] = [];
  for (let e = 0; e < EVENTS; e++) {
    const pod = churnPod(pods[e % PODS], 1 + Math.floor(e / PODS)) as KubeObject;
    pod.metadata = { ...pod.metadata, resourceVersion: String(100_000 + e) };
    lines.push(JSON.stringify({ type: 'MODIFIED', object: pod }));
  }
  return lines;
}

/** The end of the JSON value that starts at `i` of `s` (server output: no whitespace). */
function skipValue(s: string, i: number): number {
  let c = s.charCodeAt(i);
  if (c === 0x22) {
    for (i++; ; ) {
      c = s.charCodeAt(i++);
      if (c === 0x22) return i;
      if (c === 0x5c) i++;
    }
  }
  if (c === 0x7b || c === 0x5b) {
    for (let depth = 0; ; ) {
      c = s.charCodeAt(i++);
      if (c === 0x22) {
        for (;;) {
          c = s.charCodeAt(i++);
          if (c === 0x22) break;
          if (c === 0x5c) i++;
        }
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i;
    }
  }
  for (; i < s.length; i++) {
    c = s.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d) break;
  }
  return i;
}

const keyOf = (meta: Obj['metadata']) => `${meta.namespace}/${meta.name}`;

/** A member's value: the previous version's when its text is unchanged. */
function reuse(
  key: string,
  text: string,
  prevText: Record<string, string> | undefined,
  prev: Obj | undefined,
) {
  return prev && prevText?.[key] === text ? prev[key] : JSON.parse(text);
}

function run(lines: string[]): Record<string, Decoder> {
  return {
    floor(cache, queue) {
      for (const line of lines) {
        const object = (JSON.parse(line) as { object: Obj }).object;
        const key = keyOf(object.metadata);
        cache.set(key, object);
        queue.add(key);
      }
    },
    scanned(cache, queue, texts) {
      for (const line of lines) {
        const members: Array<[string, string]> = [];
        let i = PREFIX.length + 1;
        while (line.charCodeAt(i) === 0x22) {
          const keyEnd = line.indexOf('"', i + 1);
          const end = skipValue(line, keyEnd + 2);
          members.push([line.slice(i + 1, keyEnd), line.slice(keyEnd + 2, end)]);
          i = line.charCodeAt(end) === 0x2c ? end + 1 : end;
        }
        const meta = JSON.parse(members.find(([k]) => k === 'metadata')?.[1] ?? '{}') as Obj['metadata'];
        const key = keyOf(meta);
        const prev = cache.get(key);
        const prevText = texts.get(key);
        const object = {} as Obj;
        const text: Record<string, string> = {};
        for (const [k, t] of members) {
          if (k === 'metadata') object.metadata = meta;
          else {
            text[k] = t;
            object[k] = reuse(k, t, prevText, prev);
          }
        }
        texts.set(key, text);
        cache.set(key, object);
        queue.add(key);
      }
    },
    bestCase(cache, queue, texts) {
      for (const line of lines) {
        const m = line.indexOf('"metadata":') + 11;
        const sp = line.indexOf(',"spec":', m);
        const st = line.indexOf(',"status":', sp);
        const object = JSON.parse(`${line.slice(PREFIX.length, m - 12)}}`) as Obj;
        const meta = JSON.parse(line.slice(m, sp)) as Obj['metadata'];
        const key = keyOf(meta);
        const prev = cache.get(key);
        const prevText = texts.get(key);
        const text = { spec: line.slice(sp + 8, st), status: line.slice(st + 10, line.length - 2) };
        object.metadata = meta;
        object.spec = reuse('spec', text.spec, prevText, prev);
        object.status = reuse('status', text.status, prevText, prev);
        texts.set(key, text);
        cache.set(key, object);
        queue.add(key);
      }
    },
  };
}

const lines = churnLines();
const decoders = run(lines);
// Every decoder must hand out the same objects as the floor.
const reference = new Map<string, Obj>();
decoders.floor(reference, new Set(), new Map());
for (const name of ['scanned', 'bestCase']) {
  const cache = new Map<string, Obj>();
  decoders[name](cache, new Set(), new Map());
  for (const [key, object] of reference) {
    if (JSON.stringify(object) !== JSON.stringify(cache.get(key))) throw new Error(`${name}: ${key} differs`);
  }
}
const usPerEvent: Record<string, number[]> = { floor: [], scanned: [], bestCase: [] };
const ratios: Record<string, number[]> = { scanned: [], bestCase: [] };
const load = loadavg()[0];
for (let r = 0; r < ROUNDS; r++) {
  const round: Record<string, number> = {};
  for (const name of Object.keys(usPerEvent)) {
    const before = process.cpuUsage();
    decoders[name](new Map(), new Set(), new Map());
    const used = process.cpuUsage(before);
    round[name] = (used.user + used.system) / EVENTS;
    usPerEvent[name].push(round[name]);
  }
  for (const name of Object.keys(ratios)) ratios[name].push(round[name] / round.floor);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fixed = (x: number) => Number(x.toFixed(2));
console.log(
  `decode + cache, ${EVENTS} events of ${PODS} pods, ${ROUNDS} rounds, load average ${load.toFixed(2)}`,
);
for (const name of Object.keys(usPerEvent)) {
  const ratio = ratios[name] ? `, ${fixed(median(ratios[name]))}x the floor (paired median)` : '';
  console.log(`  ${name.padEnd(9)} ${fixed(median(usPerEvent[name]))} µs CPU per event${ratio}`);
}
const out = new URL('../results/shared-subtrees.json', import.meta.url);
writeFileSync(
  out,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      loadAverage: fixed(load),
      events: EVENTS,
      pods: PODS,
      usPerEvent: Object.fromEntries(Object.entries(usPerEvent).map(([k, v]) => [k, v.map(fixed)])),
      ratioToFloor: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, fixed(median(v))])),
    },
    null,
    2,
  )}\n`,
);
console.log(`  written: bench/results/shared-subtrees.json`);
