/**
 * One client under test, alone in a fresh process (started by the client
 * benchmark with `node --import tsx --expose-gc`) so that its memory peaks
 * are its own. Reads a {@link ClientJob} from WATCHMARK_BENCH_CLIENT_JOB,
 * runs it once and sends a {@link ClientResult} over IPC; or, as a worker
 * (see `worker()`), runs every job the parent sends until told to exit.
 *
 * Memory, per run: a full GC, a baseline, the
 * kernel's peak-RSS counter reset (`/proc/self/clear_refs`), then heap
 * sampled every `sampleMs` while the run goes; the peak RSS is VmHWM.
 *
 * To profile one client, run it by hand against a running server:
 *   WATCHMARK_BENCH_CLIENT_JOB='{"client":"watchmark","phase":"steady",...}' \
 *     node --import tsx --expose-gc --cpu-prof bench/client/child.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ClientJob, ClientResult } from './plan.js';
import { clientRunner } from './runners.js';
import type { Run, Runner } from './timing.js';

const MB = 1024 * 1024;

/** Over IPC to the benchmark; to stdout when run by hand (e.g. under `--cpu-prof`). */
function send(message: unknown): void {
  if (process.send) {
    if (process.connected) process.send(message);
  } else console.log(JSON.stringify(message));
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc');
  collect();
  collect();
}

/** Off-V8-heap memory counts too: Buffers are where a byte-keeping client keeps its bytes. */
function heapBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** The kernel's peak RSS of this process (VmHWM), or undefined off Linux. */
function kernelPeakRss(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets VmHWM to the current RSS; false where that is not possible. */
function resetKernelPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples memory until stopped; `check()` adds a sample from a checkpoint (a handler, the end). */
class MemorySampler {
  peakRss = 0;
  peakHeap = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(periodMs: number) {
    this.check();
    this.timer = setInterval(() => this.check(), periodMs);
  }

  check(): void {
    const m = process.memoryUsage();
    this.peakRss = Math.max(this.peakRss, m.rss);
    this.peakHeap = Math.max(this.peakHeap, m.heapUsed + m.external);
  }

  stop(): void {
    clearInterval(this.timer);
    this.check();
  }
}

/**
 * One run: a full GC, a baseline, the run with memory sampled, then a GC to see what the cache retains.
 * `keep` gets the finished run (stopped, its cache still held) when the caller wants it kept alive.
 */
async function measure(
  job: ClientJob,
  runner: Runner,
  keep?: (run: Run) => void,
): Promise<Omit<ClientResult, 'processCpuMs'>> {
  gc();
  const baseRss = process.memoryUsage.rss();
  const baseHeap = heapBytes();
  const kernelPeak = resetKernelPeak();
  const sampler = new MemorySampler(job.sampleMs);
  const run = runner.start(() => sampler.check());
  try {
    const timing = await run.done;
    sampler.stop();
    const peakRss = (kernelPeak ? kernelPeakRss() : undefined) ?? sampler.peakRss;
    // Retained: what the cache holds, once the connections (and the list's socket buffers) are gone.
    await run.stop();
    await new Promise((r) => setTimeout(r, 50));
    gc();
    keep?.(run);
    return {
      client: job.client,
      phase: job.phase,
      ...timing,
      cached: run.size(),
      memory: {
        baselineRssMB: baseRss / MB,
        baselineHeapMB: baseHeap / MB,
        peakRssMB: peakRss / MB,
        peakHeapMB: sampler.peakHeap / MB,
        retainedHeapMB: (heapBytes() - baseHeap) / MB,
      },
    };
  } finally {
    sampler.stop();
    await run.stop();
  }
}

let finished = false;

const processCpuMs = () => {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1000;
};

/** One job in this fresh process, then exit: a cold run whose memory peaks are its own. */
async function once(): Promise<void> {
  const job = JSON.parse(process.env.WATCHMARK_BENCH_CLIENT_JOB ?? '{}') as ClientJob;
  const runner = await clientRunner(job);
  const result = await measure(job, runner);
  send({ type: 'result', result: { ...result, processCpuMs: processCpuMs() } });
  finished = true;
  process.disconnect?.();
}

/**
 * Worker mode (WATCHMARK_BENCH_CLIENT_WORKER=1, the quick benchmark): stays up
 * and runs each job sent as `{type:'run', job}`, one at a time, so that the
 * parent can interleave many short paired rounds without paying a process
 * start per run. Runs after the first are warm (JIT, library loaded), as a
 * long-running informer is. `processCpuMs` is then the CPU of the run alone.
 */
function worker(): void {
  let queue = Promise.resolve();
  /**
   * The last run of each phase, kept (stopped) until the next one ends, as a long-running
   * process keeps its cache. Without it every run's objects die at the GC before the next
   * run, and with them the hidden classes (maps) JSON.parse built for them: the next run's
   * objects get new maps, the inline caches that read them (a key from
   * metadata.namespace and name) go polymorphic and then megamorphic round by round, and
   * the client with the most such reads slows the most (the floor's runs grew 177 -> 242 ms
   * over five rounds in the quick mode; bench/client/notes.md, issue 26).
   */
  const kept = new Map<string, Run>();
  process.on('message', (m: { type: string; job?: ClientJob }) => {
    if (m.type === 'exit') {
      finished = true;
      process.disconnect?.();
      return;
    }
    if (m.type !== 'run' || !m.job) return;
    const job = m.job;
    queue = queue.then(async () => {
      const cpu0 = processCpuMs();
      try {
        const result = await measure(job, await clientRunner(job), (run) => kept.set(job.phase, run));
        send({ type: 'result', result: { ...result, processCpuMs: processCpuMs() - cpu0 } });
      } catch (err) {
        send({ type: 'failed', error: (err as Error).stack ?? String(err) });
      }
    });
  });
  send({ type: 'ready' });
}

// A parent that goes away takes its children with it.
process.on('disconnect', () => {
  if (!finished) process.exit(1);
});

if (process.env.WATCHMARK_BENCH_CLIENT_WORKER) worker();
else
  once().catch((err: Error) => {
    send({ type: 'failed', error: err.stack ?? err.message });
    finished = true;
    process.exitCode = 1;
    process.disconnect?.();
  });
