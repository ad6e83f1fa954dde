/**
 * One client under test, alone in a fresh process (started by the client
 * benchmark with `node --import tsx --expose-gc`) so that its memory peaks
 * are its own. Reads a {@link ClientJob} from WATCHMARK_BENCH_CLIENT_JOB,
 * runs it `repeats` times and sends a {@link ClientResult} over IPC.
 *
 * Memory is measured on the first run only: a full GC, a baseline, the
 * kernel's peak-RSS counter reset (`/proc/self/clear_refs`), then heap
 * sampled every `sampleMs` while the run goes; the peak RSS is VmHWM.
 *
 * To profile one client, run it by hand against a running server:
 *   WATCHMARK_BENCH_CLIENT_JOB='{"client":"watchmark","phase":"steady",...}' \
 *     node --import tsx --expose-gc --cpu-prof bench/lib/client-child.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ClientJob, ClientResult } from './client-plan.js';
import { clientRunner, type Runner } from './client-runners.js';

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

/** One run: a full GC, a baseline, the run with memory sampled, then a GC to see what the cache retains. */
async function measure(job: ClientJob, runner: Runner): Promise<Omit<ClientResult, 'processCpuMs'>> {
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

async function main(): Promise<void> {
  const job = JSON.parse(process.env.WATCHMARK_BENCH_CLIENT_JOB ?? '{}') as ClientJob;
  // A parent that goes away takes its children with it.
  process.on('disconnect', () => {
    if (!finished) process.exit(1);
  });
  const runner = await clientRunner(job);
  const result = await measure(job, runner);
  const cpu = process.cpuUsage();
  send({ type: 'result', result: { ...result, processCpuMs: (cpu.user + cpu.system) / 1000 } });
  finished = true;
  process.disconnect?.();
}

main().catch((err: Error) => {
  send({ type: 'failed', error: err.stack ?? err.message });
  finished = true;
  process.exitCode = 1;
  process.disconnect?.();
});
