/**
 * Machine-wide CPU time from /proc/stat: how busy the machine was over a
 * window, and how much of it the hypervisor gave to someone else (steal).
 * On a shared VM a stall of every process at once, the study's and the
 * server's alike, comes with steal; the study records it beside each run,
 * and the benchmarks wait for a quiet machine by it.
 * Linux only; elsewhere every reading is undefined.
 */
import { readFileSync } from 'node:fs';

/** Cumulative machine CPU time (ms, all CPUs) at one instant. */
export interface MachineCpu {
  /** user + nice + system + irq + softirq. */
  busyMs: number;
  /** Time the hypervisor ran someone else on our vCPUs. */
  stealMs: number;
  /** Every state, idle and iowait included. */
  totalMs: number;
}

/** /proc counts CPU time in USER_HZ, 100 per second on every Linux that Node supports. */
export const MS_PER_TICK = 10;

/** Reads /proc/stat, or undefined where there is none. */
export function readMachineCpu(): MachineCpu | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  const fields = text.slice(0, text.indexOf('\n')).trim().split(/\s+/).slice(1, 9).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return {
    busyMs: (user + nice + system + irq + softirq) * MS_PER_TICK,
    stealMs: (steal ?? 0) * MS_PER_TICK,
    totalMs: fields.reduce((sum, f) => sum + f, 0) * MS_PER_TICK,
  };
}

/** The share (%) of all CPUs' time the hypervisor stole between two readings, one decimal. */
export function stealPercent(a: MachineCpu | undefined, b: MachineCpu | undefined): number | undefined {
  if (!a || !b || b.totalMs <= a.totalMs) return undefined;
  return Math.round((1000 * (b.stealMs - a.stealMs)) / (b.totalMs - a.totalMs)) / 10;
}
