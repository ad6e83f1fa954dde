/**
 * Machine-wide CPU time from /proc/stat, so a phase can say how much CPU
 * went to processes other than the server and the clients: on a shared
 * 2-core machine a neighbour's test run halves the throughput, and the
 * report should show that rather than blame the server. Linux only;
 * elsewhere every reading is undefined.
 */
import { readFileSync } from 'node:fs';
import { type MachineCpu, MS_PER_TICK, readMachineCpu } from '../../src/process/index.js';

export { type MachineCpu, readMachineCpu };

/**
 * CPU (% of one core) used between two readings by everything except
 * `ownMs` (the server's and the clients' CPU in the same window), and the
 * steal time. Clamped at 0: the two clocks' granularities differ.
 */
export function otherLoad(
  a: MachineCpu | undefined,
  b: MachineCpu | undefined,
  ownMs: number,
  windowMs: number,
): { otherCpuPercent: number; stealPercent: number } | undefined {
  if (!a || !b || windowMs <= 0) return undefined;
  const other = Math.max(0, b.busyMs - a.busyMs - ownMs);
  return {
    otherCpuPercent: Math.round((1000 * other) / windowMs) / 10,
    stealPercent: Math.round((1000 * (b.stealMs - a.stealMs)) / windowMs) / 10,
  };
}

/**
 * Waits (up to `maxWaitMs`) for other processes to use less than
 * `thresholdPercent` of one core over a `windowMs` window, so measured
 * phases start on a quiet machine when one can be had. `ownCpuMs` returns
 * the cumulative CPU (ms) of the processes being measured. Returns the
 * last window's figure and how long it waited; never fails.
 */
export async function waitForQuiet(
  ownCpuMs: () => Promise<number>,
  maxWaitMs: number,
  thresholdPercent: number,
  onBusy: (otherCpuPercent: number) => void,
  windowMs = 1000,
): Promise<{ otherCpuPercent: number | undefined; waitedMs: number }> {
  const start = Date.now();
  for (;;) {
    const ownBefore = await ownCpuMs();
    const before = readMachineCpu();
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, windowMs));
    const load = otherLoad(before, readMachineCpu(), (await ownCpuMs()) - ownBefore, Date.now() - t0);
    const waitedMs = Date.now() - start;
    if (!load || load.otherCpuPercent < thresholdPercent || waitedMs >= maxWaitMs) {
      return { otherCpuPercent: load?.otherCpuPercent, waitedMs };
    }
    onBusy(load.otherCpuPercent);
  }
}

/** CPU time (ms) of process `pid` so far, from /proc; undefined off Linux or once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in USER_HZ (100/s).
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return undefined;
  }
}
