/**
 * bench:checkpoint: what one informer checkpoint costs at 10,000 and 50,000
 * pods (about 1.6 KB each), against a baseline in the same run: a plain
 * `JSON.stringify` of the objects + `writeFile` (no fsync, no rename, one
 * blocking stringify). Measured per checkpoint:
 *
 * - wall time of a full checkpoint write (chunked, hashed, fsynced, renamed);
 * - the longest the event loop was held meanwhile (what event delivery waits);
 * - the synchronous snapshot (a copy of the Map's values) the informer takes;
 * - the same for lazily decoded objects (written as their own text);
 * - loading it back (read, verify the hash, parse) against `JSON.parse`.
 *
 *   npm run bench:checkpoint [-- --repeats 5 --out bench/results/checkpoint.json]
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type KubeObject, readCheckpointFile, writeCheckpointFile } from '../src/index.js';
import { makePod } from './lib/pods.js';

const { values: args } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    sizes: { type: 'string', default: '10000,50000' },
    out: { type: 'string', default: fileURLToPath(new URL('./results/checkpoint.json', import.meta.url)) },
  },
});
const repeats = Number(args.repeats);
const sizes = (args.sizes ?? '').split(',').map(Number);

const identity = {
  servers: ['https://127.0.0.1:6443'],
  clusterUid: '00000000-0000-0000-0000-000000000000',
  resource: '/v1/pods',
  namespace: '',
  labelSelector: '',
  fieldSelector: '',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Runs `fn` while a ticker measures the longest gap between event-loop turns (ms). */
async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; maxBlockMs: number; cpuMs: number }> {
  let maxGap = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const t = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  ticking = false;
  tick();
  return { ms, maxBlockMs: maxGap, cpuMs: (used.user + used.system) / 1000 };
}

interface Case {
  objects: number;
  fileMB: number;
  baseline: { writeMs: number; maxBlockMs: number; loadMs: number };
  checkpoint: { writeMs: number; cpuMs: number; maxBlockMs: number; snapshotMs: number; loadMs: number };
  lazy: { writeMs: number; maxBlockMs: number; loadMs: number };
  ratios: {
    writeVsBaseline: number;
    maxBlockVsBaseline: number;
    lazyWriteVsBaseline: number;
    loadVsBaseline: number;
  };
}

async function measure(count: number, dir: string): Promise<Case> {
  const pods: KubeObject[] = [];
  for (let i = 0; i < count; i++) {
    const p = makePod('bench', i);
    (p.metadata as Record<string, unknown>).resourceVersion = String(1000 + i);
    pods.push(p);
  }
  const map = new Map(pods.map((p) => [`bench/${p.metadata?.name}`, p]));
  const base = join(dir, 'baseline.json');
  const file = join(dir, 'pods.checkpoint');
  const lazyFile = join(dir, 'lazy.checkpoint');
  // Lazily decoded pods, each holding its JSON text, as an informer with `lazyDecode` holds them.
  await writeCheckpointFile(file, { savedAt: Date.now(), identity, resourceVersion: '99999' }, pods);
  const lazyPods = (await readCheckpointFile(file, true)).objects;
  const samples = {
    baseWrite: [] as number[],
    baseBlock: [] as number[],
    baseLoad: [] as number[],
    write: [] as number[],
    cpu: [] as number[],
    block: [] as number[],
    snapshot: [] as number[],
    load: [] as number[],
    lazyWrite: [] as number[],
    lazyBlock: [] as number[],
    lazyLoad: [] as number[],
  };
  for (let r = 0; r < repeats; r++) {
    const b = await timed(() => writeFile(base, JSON.stringify(pods)));
    samples.baseWrite.push(b.ms);
    samples.baseBlock.push(b.maxBlockMs);
    let t = performance.now();
    JSON.parse(await readFile(base, 'utf8'));
    samples.baseLoad.push(performance.now() - t);

    t = performance.now();
    const snapshot = [...map.values()];
    samples.snapshot.push(performance.now() - t);
    const c = await timed(() =>
      writeCheckpointFile(file, { savedAt: Date.now(), identity, resourceVersion: '99999' }, snapshot),
    );
    samples.write.push(c.ms);
    samples.cpu.push(c.cpuMs);
    samples.block.push(c.maxBlockMs);
    t = performance.now();
    await readCheckpointFile(file);
    samples.load.push(performance.now() - t);

    const l = await timed(() =>
      writeCheckpointFile(lazyFile, { savedAt: Date.now(), identity, resourceVersion: '99999' }, lazyPods),
    );
    samples.lazyWrite.push(l.ms);
    samples.lazyBlock.push(l.maxBlockMs);
    t = performance.now();
    await readCheckpointFile(lazyFile, true);
    samples.lazyLoad.push(performance.now() - t);
  }
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<
    keyof typeof samples,
    number
  >;
  return {
    objects: count,
    fileMB: round((await stat(file)).size / 2 ** 20, 1),
    baseline: { writeMs: round(m.baseWrite), maxBlockMs: round(m.baseBlock), loadMs: round(m.baseLoad) },
    checkpoint: {
      writeMs: round(m.write),
      cpuMs: round(m.cpu),
      maxBlockMs: round(m.block),
      snapshotMs: round(m.snapshot, 2),
      loadMs: round(m.load),
    },
    lazy: { writeMs: round(m.lazyWrite), maxBlockMs: round(m.lazyBlock), loadMs: round(m.lazyLoad) },
    ratios: {
      writeVsBaseline: round(m.write / m.baseWrite, 2),
      maxBlockVsBaseline: round(m.block / m.baseBlock, 3),
      lazyWriteVsBaseline: round(m.lazyWrite / m.baseWrite, 2),
      loadVsBaseline: round(m.load / m.baseLoad, 2),
    },
  };
}

const dir = await mkdtemp(join(tmpdir(), 'watchmark-bench-checkpoint-'));
try {
  const cases: Case[] = [];
  for (const size of sizes) {
    const c = await measure(size, dir);
    cases.push(c);
    console.log(
      `${size} pods (${c.fileMB} MB): checkpoint ${c.checkpoint.writeMs} ms (CPU ${c.checkpoint.cpuMs} ms, longest event-loop hold ${c.checkpoint.maxBlockMs} ms, ` +
        `snapshot ${c.checkpoint.snapshotMs} ms), lazy objects ${c.lazy.writeMs} ms; ` +
        `baseline stringify+writeFile ${c.baseline.writeMs} ms (holds the loop ${c.baseline.maxBlockMs} ms); ` +
        `ratio ${c.ratios.writeVsBaseline}x time, ${c.ratios.maxBlockVsBaseline}x longest hold; ` +
        `load ${c.checkpoint.loadMs} ms vs JSON.parse ${c.baseline.loadMs} ms`,
    );
  }
  const doc = {
    benchmark: 'checkpoint',
    date: new Date().toISOString(),
    node: process.version,
    repeats,
    note: 'medians; baseline = JSON.stringify(objects) + fs.writeFile, no fsync/rename; checkpoint = writeCheckpointFile (1 MiB chunks, sha256, fsync, rename, directory fsync)',
    cases,
  };
  await writeFile(args.out!, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${relative(process.cwd(), args.out!)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
