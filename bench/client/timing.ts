/**
 * How a client run is timed: wall and CPU time (split by thread on Linux),
 * and for the steady stream the clock that counts updates, its tenths and
 * the split between the stream's start and its warm rest. The shapes every
 * runner (runners.ts) returns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { StreamSplit } from './plan.js';

/** What a run measured: wall time, and this process's CPU time (user + system) over the same span. */
export interface Timing {
  ms: number;
  cpuMs: number;
  eventsPerSec?: number;
  /**
   * Steady: the same span's CPU split (Linux) into the main thread and the
   * helper threads (V8's workers, which run the parallel and concurrent GC and
   * the JIT's compiles, and libuv's), so a client whose extra time is in
   * helper threads shows it. Node names every thread "node": only the main
   * thread can be told apart.
   */
  threadsCpuMs?: ThreadsCpu;
  /** Steady: ms from the first update to each tenth of the updates: a slow start (JIT warm-up) shows in the first. */
  tenthsMs?: number[];
  /** Steady, split at the job's `warmupEvents`: the start and the warm rest, timed apart. */
  split?: StreamSplit;
}

/** CPU (ms) of this process's main thread and of all its other threads. */
export interface ThreadsCpu {
  main: number;
  helpers: number;
}

/** This process's CPU by thread kind so far, from /proc/self/task (undefined elsewhere). */
export function threadsCpuNow(): ThreadsCpu | undefined {
  try {
    const out: ThreadsCpu = { main: 0, helpers: 0 };
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime + stime, fields 14 and 15 of the line, in USER_HZ (100/s).
      const ms = (Number(f[11]) + Number(f[12])) * 10;
      if (tid === String(process.pid)) out.main += ms;
      else out.helpers += ms;
    }
    return out;
  } catch {
    return undefined;
  }
}

/** One run of a client. */
export interface Run {
  done: Promise<Timing>;
  /** Objects cached now. */
  size(): number;
  /** Stops the run and closes its connections (idempotent). */
  stop(): Promise<void>;
}

/** Starts runs of one client; `checkpoint` is called every few thousand objects (memory samples). */
export interface Runner {
  start(checkpoint?: () => void): Run;
}

/** Objects between two `checkpoint` calls (memory samples). */
export const CHECKPOINT_EVERY = 2000;

export const cpuMsNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Times a sync from now; `done()` gives the figures. */
export function stopwatch(): () => Timing {
  const t0 = performance.now();
  const c0 = cpuMsNow();
  return () => ({ ms: performance.now() - t0, cpuMs: cpuMsNow() - c0 });
}

/** Counts steady-state updates; resolves once `total` are applied. */
export class UpdateClock {
  count = 0;
  private first = 0;
  private firstCpu = 0;
  private firstThreads: ThreadsCpu | undefined;
  private readonly tenths: number[] = [];
  /** The count at which the next tenth of the updates is reached. */
  private nextTenth: number;
  readonly done: Promise<Timing>;
  private resolve!: (v: Timing) => void;
  private readonly total: number;
  private readonly checkpoint: (() => void) | undefined;
  /** The update that ends the stream's start (0: not split), and the time and CPU when it was applied. */
  private readonly warmupAt: number;
  private warmupMs = 0;
  private warmupCpu = 0;

  constructor(total: number, checkpoint: (() => void) | undefined, warmupEvents = 0) {
    this.total = total;
    this.warmupAt = warmupEvents > 0 && warmupEvents < total ? warmupEvents : 0;
    this.nextTenth = Math.ceil(total / 10);
    this.checkpoint = checkpoint;
    this.done = new Promise((r) => {
      this.resolve = r;
    });
  }

  tick(): void {
    const n = ++this.count;
    if (n === 1) {
      this.first = performance.now();
      this.firstCpu = cpuMsNow();
      this.firstThreads = threadsCpuNow();
    }
    if (n % CHECKPOINT_EVERY === 0) this.checkpoint?.();
    if (n === this.warmupAt) {
      this.warmupMs = performance.now();
      this.warmupCpu = cpuMsNow();
    }
    if (n >= this.nextTenth) {
      this.tenths.push(Math.round(performance.now() - this.first));
      this.nextTenth = Math.ceil(((this.tenths.length + 1) * this.total) / 10);
    }
    if (n === this.total) {
      const now = performance.now();
      const cpuNow = cpuMsNow();
      const ms = now - this.first;
      const cpuMs = cpuNow - this.firstCpu;
      const split: StreamSplit | undefined = this.warmupAt
        ? {
            startMs: this.warmupMs - this.first,
            startCpuMs: this.warmupCpu - this.firstCpu,
            warmMs: now - this.warmupMs,
            warmCpuMs: cpuNow - this.warmupCpu,
          }
        : undefined;
      const t0 = this.firstThreads;
      const t1 = t0 && threadsCpuNow();
      const threadsCpuMs =
        t0 && t1 ? { main: t1.main - t0.main, helpers: t1.helpers - t0.helpers } : undefined;
      this.resolve({
        ms,
        cpuMs,
        eventsPerSec: ((this.total - 1) * 1000) / ms,
        threadsCpuMs,
        tenthsMs: this.tenths,
        split,
      });
    }
  }
}
