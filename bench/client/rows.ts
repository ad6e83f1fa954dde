import { median, round } from '../lib/report.js';
import { CLIENTS, type ClientId, type ClientResult } from './plan.js';

/** One client's runs in one phase (and size). */
export interface Runs {
  client: ClientId;
  results: ClientResult[];
  /** Other processes' CPU (% of one core) during each run. */
  otherCpuPercent: Array<number | undefined>;
}

export interface SyncRow {
  size: number;
  client: ClientId;
  label: string;
  /** Medians over the rounds (every run is a cold, fresh process). */
  ms: number;
  cpuMs: number;
  runsMs: number[];
  runsCpuMs: number[];
  cached: number;
  /** Whole process: node, the library, the run. */
  peakRssMB: number;
  peakHeapMB: number;
  /** Over the post-GC baseline taken just before the run (library loaded). */
  peakRssDeltaMB: number;
  peakHeapDeltaMB: number;
  retainedHeapMB: number;
  baselineRssMB: number;
  otherCpuPercent: number | undefined;
  timeVsFloor?: number;
  cpuVsFloor?: number;
  peakRssVsClientNode?: number;
  peakHeapVsClientNode?: number;
  peakRssDeltaVsClientNode?: number;
  peakHeapDeltaVsClientNode?: number;
}

export interface SteadyRow {
  client: ClientId;
  label: string;
  eventsPerSec: number;
  /** Events per second of client CPU: the figure least bent by a busy machine. */
  eventsPerCpuSec: number;
  runsEventsPerSec: number[];
  runsEventsPerCpuSec: number[];
  ms: number;
  /** The client's CPU over the stream: its main thread, and its helper threads (GC, JIT, libuv). */
  mainCpuMs: number | undefined;
  helperCpuMs: number | undefined;
  /** The first tenth of the stream's time over the median of the other nine: above 1, a slow (JIT) start. */
  firstTenthVsRest: number | undefined;
  /** Split streams (the full run): events/s of the start (the first `warmupEvents`) and of the warm rest. */
  startEventsPerSec: number | undefined;
  warmEventsPerSec: number | undefined;
  peakRssDeltaMB: number;
  otherCpuPercent: number | undefined;
  timeVsFloor?: number;
  cpuVsFloor?: number;
  speedVsClientNode?: number;
  cpuSpeedVsClientNode?: number;
}

export const medianOf = (rs: ClientResult[], f: (r: ClientResult) => number) => median(rs.map(f));
export const maybeMedian = (xs: Array<number | undefined>) => {
  const known = xs.filter((x): x is number => x !== undefined);
  return known.length ? round(median(known), 1) : undefined;
};

export function syncRow(size: number, runs: Runs): SyncRow {
  const rs = runs.results;
  return {
    size,
    client: runs.client,
    label: CLIENTS[runs.client],
    ms: round(
      medianOf(rs, (r) => r.ms),
      1,
    ),
    cpuMs: round(
      medianOf(rs, (r) => r.cpuMs),
      1,
    ),
    runsMs: rs.map((r) => round(r.ms, 1)),
    runsCpuMs: rs.map((r) => round(r.cpuMs, 1)),
    cached: rs[rs.length - 1].cached,
    peakRssMB: round(
      medianOf(rs, (r) => r.memory.peakRssMB),
      1,
    ),
    peakHeapMB: round(
      medianOf(rs, (r) => r.memory.peakHeapMB),
      1,
    ),
    peakRssDeltaMB: round(
      medianOf(rs, (r) => r.memory.peakRssMB - r.memory.baselineRssMB),
      1,
    ),
    peakHeapDeltaMB: round(
      medianOf(rs, (r) => r.memory.peakHeapMB - r.memory.baselineHeapMB),
      1,
    ),
    retainedHeapMB: round(
      medianOf(rs, (r) => r.memory.retainedHeapMB),
      1,
    ),
    baselineRssMB: round(
      medianOf(rs, (r) => r.memory.baselineRssMB),
      1,
    ),
    otherCpuPercent: maybeMedian(runs.otherCpuPercent),
  };
}

export function addSyncRatios(rows: SyncRow[]): void {
  for (const size of new Set(rows.map((r) => r.size))) {
    const at = rows.filter((r) => r.size === size);
    const floor = at.find((r) => r.client === 'floor');
    const cn = at.find((r) => r.client === 'client-node');
    for (const r of at) {
      if (floor) {
        r.timeVsFloor = round(r.ms / floor.ms, 2);
        r.cpuVsFloor = round(r.cpuMs / floor.cpuMs, 2);
      }
      if (cn) {
        r.peakRssVsClientNode = round(r.peakRssMB / cn.peakRssMB, 2);
        r.peakHeapVsClientNode = round(r.peakHeapMB / cn.peakHeapMB, 2);
        r.peakRssDeltaVsClientNode = round(r.peakRssDeltaMB / cn.peakRssDeltaMB, 2);
        r.peakHeapDeltaVsClientNode = round(r.peakHeapDeltaMB / cn.peakHeapDeltaMB, 2);
      }
    }
  }
}

/** A run's first tenth of the stream over the median of its other nine tenths. */
export function firstTenthVsRest(r: ClientResult): number | undefined {
  const t = r.tenthsMs;
  if (!t || t.length < 10) return undefined;
  const spans = t.map((v, i) => v - (i > 0 ? t[i - 1] : 0));
  return spans[0] / median(spans.slice(1));
}

export function steadyRow(runs: Runs, events: number, warmupEvents: number): SteadyRow {
  const rs = runs.results;
  const perSec = (n: number, ms: number | undefined) => (ms ? (n * 1000) / ms : undefined);
  const perCpu = rs.map((r) => ((events - 1) * 1000) / r.cpuMs);
  const known = (xs: Array<number | undefined>) => xs.filter((x): x is number => x !== undefined);
  const medianKnown = (xs: Array<number | undefined>, digits: number) => {
    const k = known(xs);
    return k.length ? round(median(k), digits) : undefined;
  };
  return {
    client: runs.client,
    label: CLIENTS[runs.client],
    eventsPerSec: Math.round(medianOf(rs, (r) => r.eventsPerSec ?? 0)),
    eventsPerCpuSec: Math.round(median(perCpu)),
    runsEventsPerSec: rs.map((r) => Math.round(r.eventsPerSec ?? 0)),
    runsEventsPerCpuSec: perCpu.map(Math.round),
    ms: round(
      medianOf(rs, (r) => r.ms),
      1,
    ),
    mainCpuMs: medianKnown(
      rs.map((r) => r.threadsCpuMs?.main),
      0,
    ),
    helperCpuMs: medianKnown(
      rs.map((r) => r.threadsCpuMs?.helpers),
      0,
    ),
    firstTenthVsRest: medianKnown(rs.map(firstTenthVsRest), 2),
    startEventsPerSec: medianKnown(
      rs.map((r) => perSec(warmupEvents - 1, r.split?.startMs)),
      0,
    ),
    warmEventsPerSec: medianKnown(
      rs.map((r) => perSec(events - warmupEvents, r.split?.warmMs)),
      0,
    ),
    peakRssDeltaMB: round(
      medianOf(rs, (r) => r.memory.peakRssMB - r.memory.baselineRssMB),
      1,
    ),
    otherCpuPercent: maybeMedian(runs.otherCpuPercent),
  };
}

export function addSteadyRatios(rows: SteadyRow[]): void {
  const floor = rows.find((r) => r.client === 'floor');
  const cn = rows.find((r) => r.client === 'client-node');
  for (const r of rows) {
    if (floor) {
      r.timeVsFloor = round(floor.eventsPerSec / r.eventsPerSec, 2);
      r.cpuVsFloor = round(floor.eventsPerCpuSec / r.eventsPerCpuSec, 2);
    }
    if (cn) {
      r.speedVsClientNode = round(r.eventsPerSec / cn.eventsPerSec, 2);
      r.cpuSpeedVsClientNode = round(r.eventsPerCpuSec / cn.eventsPerCpuSec, 2);
    }
  }
}
