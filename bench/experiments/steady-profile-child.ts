/**
 * One client of the client benchmark's steady phase, run `WARMUP + RUNS`
 * times in this process against a running benchmark server child (see
 * steady-profile.ts, which starts both), with the runners of
 * bench/client/runners.ts: the same work as `npm run bench:client`.
 *
 * Per measured run it records, from the first chunk of the watch response
 * to the last update applied:
 * - the CPU profile (inspector's Profiler, 200 µs sampling), written to
 *   `$OUT/<client>-<n>.cpuprofile` when PROFILE=1;
 * - the chunks node:http pushes into the watch response (count, bytes);
 * - the GC entries (perf_hooks 'gc': count and pause by kind);
 * - the wall and CPU time of the runner's own clock.
 * It prints one JSON line per run (`{"run":...}`) on stdout; with
 * `--trace-gc-nvp` V8's GC lines land between `@@start n` / `@@end n` marks.
 *
 * Env: JOB (a ClientJob), RUNS, WARMUP, OUT, PROFILE; and, to run as the
 * quick mode's worker does (bench/client/child.ts `measure`): PRE_GC=1
 * (two full GCs before each run, needs --expose-gc), SAMPLE_MS=n (sample
 * process.memoryUsage() every n ms and at every checkpoint), SYNC=<size>
 * (a sync run of namespace sync-<size> before each steady run), IDLE_MS=n
 * (the process left idle n ms before each run, as a quick-mode worker is
 * while the other clients run), FRESH_RUNNER=1 (a new `clientRunner` per
 * run, as the worker makes one per job), CLEAR_REFS=1 (write `5` to
 * /proc/self/clear_refs before each run, as the worker's peak-RSS reset does),
 * VARIANT=floor-split (floor-split.ts's runner instead of the job's client). Each run line also gives the heap
 * used after the run, its stop and two full GCs (`heapAfterMB`).
 */
import { writeFileSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import type { ClientJob } from '../client/plan.js';
import { clientRunner } from '../client/runners.js';
import type { Runner } from '../client/timing.js';
import { floorSplitRunner } from './floor-split.js';

const job = JSON.parse(process.env.JOB ?? '{}') as ClientJob;
const runs = Number(process.env.RUNS ?? 3);
const warmup = Number(process.env.WARMUP ?? 2);
const out = process.env.OUT ?? '/tmp';
const profile = process.env.PROFILE === '1';

const session = new Session();
session.connect();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))),
  );

/** State of the current run's watch window. */
let window: {
  n: number;
  measured: boolean;
  started: boolean;
  chunks: number;
  bytes: number;
  sizes: number[];
  gc: Record<string, { count: number; ms: number }>;
} = { n: 0, measured: false, started: false, chunks: 0, bytes: 0, sizes: [], gc: {} };

const GC_KIND: Record<number, string> = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental', 8: 'weakcb' };

new PerformanceObserver((list) => {
  if (!window.started) return;
  for (const e of list.getEntries()) {
    const kind = GC_KIND[(e as unknown as { detail?: { kind: number } }).detail?.kind ?? 0] ?? 'other';
    window.gc[kind] ??= { count: 0, ms: 0 };
    const g = window.gc[kind];
    g.count++;
    g.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

// Every chunk node:http's parser hands to a response goes through Readable#push.
const push = IncomingMessage.prototype.push;
IncomingMessage.prototype.push = function (this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
  const path = (this as unknown as { req?: { path?: string } }).req?.path ?? '';
  if (chunk && path.includes('watch=true')) {
    if (!window.started) {
      window.started = true;
      console.log(`@@start ${window.n}`);
      if (profile && window.measured) void post('Profiler.start');
    }
    const len = (chunk as Buffer).length;
    window.chunks++;
    window.bytes += len;
    window.sizes.push(len);
  }
  return push.call(this, chunk as Buffer, encoding);
};

const variant = process.env.VARIANT;
const makeRunner = async (): Promise<Runner> =>
  variant === 'floor-split' ? floorSplitRunner(job) : clientRunner(job);
let runner = await makeRunner();
const preGc = process.env.PRE_GC === '1';
const sampleMs = Number(process.env.SAMPLE_MS ?? 0);
const syncSize = Number(process.env.SYNC ?? 0);
const syncRunner = syncSize
  ? await clientRunner({ ...job, phase: 'sync', namespace: `sync-${syncSize}`, objects: syncSize })
  : undefined;
const sample = () => process.memoryUsage();
const collect = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('PRE_GC=1 needs --expose-gc');
  gc();
  gc();
};
if (profile) {
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
}
for (let n = 0; n < warmup + runs; n++) {
  const measured = n >= warmup;
  window = { n, measured, started: false, chunks: 0, bytes: 0, sizes: [], gc: {} };
  if (process.env.FRESH_RUNNER === '1') runner = await makeRunner();
  if (syncRunner) {
    if (preGc) collect();
    const sync = syncRunner.start();
    await sync.done;
    await sync.stop();
  }
  const idleMs = Number(process.env.IDLE_MS ?? 0);
  if (idleMs) await new Promise((r) => setTimeout(r, idleMs));
  if (preGc) collect();
  if (process.env.CLEAR_REFS === '1') writeFileSync('/proc/self/clear_refs', '5');
  const timer = sampleMs ? setInterval(sample, sampleMs) : undefined;
  const run = runner.start(sampleMs ? sample : undefined);
  const timing = await run.done;
  clearInterval(timer);
  let profileFile: string | undefined;
  if (profile && measured) {
    const { profile: p } = (await post('Profiler.stop')) as { profile: unknown };
    profileFile = `${out}/${job.client}-${n - warmup + 1}.cpuprofile`;
    writeFileSync(profileFile, JSON.stringify(p));
  }
  console.log(`@@end ${n}`);
  window.started = false;
  await run.stop();
  let heapAfterMB: number | undefined;
  if (preGc) {
    await new Promise((r) => setTimeout(r, 50));
    collect();
    heapAfterMB = Math.round(process.memoryUsage().heapUsed / 1e5) / 10;
  }
  const sizes = window.sizes.sort((a, b) => a - b);
  const q = (p: number) => sizes[Math.min(sizes.length - 1, Math.floor(p * sizes.length))] ?? 0;
  console.log(
    JSON.stringify({
      run: {
        client: job.client,
        n,
        measured,
        ms: timing.ms,
        cpuMs: timing.cpuMs,
        chunks: window.chunks,
        bytes: window.bytes,
        chunkBytes: { p10: q(0.1), p50: q(0.5), p90: q(0.9), max: sizes.at(-1) ?? 0 },
        gc: window.gc,
        heapAfterMB,
        profileFile,
      },
    }),
  );
}
session.disconnect();
const cpu = process.cpuUsage();
console.log(JSON.stringify({ processCpuMs: (cpu.user + cpu.system) / 1000 }));
process.exit(0);
