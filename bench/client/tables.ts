import { table } from '../lib/report.js';
import type { ImportCost } from './imports.js';
import { TARGETS } from './params.js';
import type { PlacementResult } from './placement.js';
import { BUSY_PERCENT, PAIRED_HEADER, pairedRow } from './ratios.js';
import type { SyncRow } from './rows.js';

export interface Target {
  target: string;
  value: number | null;
  held: boolean | null;
}

export const check = (value: number | undefined, target: string, ok: (v: number) => boolean): Target => ({
  target,
  value: value ?? null,
  held: value === undefined ? null : ok(value),
});

export const atMost = (limit: number) => (v: number) => v <= limit;
export const below = (limit: number) => (v: number) => v < limit;

/**
 * The targets the paired ratios do not carry: memory against client-node (ratios of
 * medians: peaks are per process, not per round) and the import cost. The speed
 * targets are paired ratios (ratios.ts).
 */
export function targets(sync: SyncRow[], imports: ImportCost[]) {
  const out: Record<string, Target> = {};
  for (const size of new Set(sync.map((r) => r.size))) {
    const wm = sync.find((r) => r.size === size && r.client === 'watchmark');
    out[`sync${size}.peakRssVsClientNode`] = check(wm?.peakRssVsClientNode, '< 1', below(1));
    out[`sync${size}.peakHeapVsClientNode`] = check(wm?.peakHeapVsClientNode, '< 1', below(1));
    out[`sync${size}.peakRssDeltaVsClientNode`] = check(wm?.peakRssDeltaVsClientNode, '< 1', below(1));
    out[`sync${size}.peakHeapDeltaVsClientNode`] = check(wm?.peakHeapDeltaVsClientNode, '< 1', below(1));
  }
  const t = TARGETS;
  const wmImport = imports.find((i) => i.library === 'watchmark');
  out['import.rssDeltaMB'] = check(wmImport?.rssDeltaMB, `<= ${t.importRssMB}`, atMost(t.importRssMB));
  out['import.ms'] = check(wmImport?.ms, `<= ${t.importMs}`, atMost(t.importMs));
  out['import.cpuMs'] = check(wmImport?.cpuMs, `<= ${t.importMs}`, atMost(t.importMs));
  return out;
}

export const verdict = (t: Target) => (t.held === null ? 'n/a' : t.held ? 'HELD' : 'MISSED');

export function printImports(imports: ImportCost[]): void {
  console.log(
    '\nImport cost (fresh node on compiled JS, median of runs; RSS +MB = after the import - before)',
  );
  console.log(
    table(
      ['library', 'ms', 'cpu ms', 'RSS +MB', 'RSS MB'],
      imports.map((i) => [i.library, i.ms, i.cpuMs, i.rssDeltaMB, i.rssMB]),
    ),
  );
}

/** One placement's tables: medians over its quiet rounds. */
export function printPlacement(p: PlacementResult, events: number, warmupEvents: number): void {
  const { sync, steady } = p;
  console.log(
    `\n=== ${p.placement}: ${p.rounds.length} rounds, ${p.rounds.filter((r) => r.busy).length} busy (left out); ` +
      `others per round ${p.rounds.map((r) => r.otherCpuPercent ?? '-').join(' ')} % of a core`,
  );
  console.log(
    '\nInitial sync: one list request (resourceVersion=0); medians over the quiet rounds, each run a cold, fresh process.\n' +
      'ms = wall time to synced, cpu ms = client CPU over it; peak RSS = VmHWM, peak heap = heapUsed + external sampled\n' +
      'every 2 ms; +MB = over a post-GC baseline taken just before the run (library loaded); retained = heap the cache\n' +
      "holds after a GC; x c-n = this client / client-node (whole-process peaks); others % = other processes' CPU",
  );
  console.log(
    table(
      [
        'pods',
        'client',
        'ms',
        'cpu ms',
        'x floor',
        'cpu x floor',
        'peak RSS MB',
        'peak heap MB',
        'peak RSS +MB',
        'peak heap +MB',
        'retained MB',
        'RSS x c-n',
        'heap x c-n',
        'others %',
      ],
      sync.map((r) => [
        r.size,
        r.label,
        r.ms,
        r.cpuMs,
        r.timeVsFloor,
        r.cpuVsFloor,
        r.peakRssMB,
        r.peakHeapMB,
        r.peakRssDeltaMB,
        r.peakHeapDeltaMB,
        r.retainedHeapMB,
        r.peakRssVsClientNode,
        r.peakHeapVsClientNode,
        r.otherCpuPercent,
      ]),
    ),
  );
  console.log(
    `\nSteady state: ${events} MODIFIED events replayed from the watch cache's history, timed first to last applied;\n` +
      "medians over the quiet rounds; events/cpu s = per second of client CPU; x floor = time (or CPU) / the floor's;\n" +
      'main / helpers cpu ms = that CPU on the main thread / on the helper threads (GC, JIT, libuv: on the same CPU when\n' +
      'pinned); 1st tenth x rest = time of the first tenth of the stream / the median tenth after it (JIT warm-up);\n' +
      `start / warm events/s = over the first ${warmupEvents} events (a process that has just started) / the rest`,
  );
  console.log(
    table(
      [
        'client',
        'events/s',
        'events/cpu s',
        'x floor',
        'cpu x floor',
        'speed x c-n',
        'cpu speed x c-n',
        'main cpu ms',
        'helpers cpu ms',
        '1st tenth x rest',
        'start events/s',
        'warm events/s',
        'peak RSS +MB',
        'others %',
        'runs events/s',
      ],
      steady.map((r) => [
        r.label,
        r.eventsPerSec,
        r.eventsPerCpuSec,
        r.timeVsFloor,
        r.cpuVsFloor,
        r.speedVsClientNode,
        r.cpuSpeedVsClientNode,
        r.mainCpuMs,
        r.helperCpuMs,
        r.firstTenthVsRest,
        r.startEventsPerSec,
        r.warmEventsPerSec,
        r.peakRssDeltaMB,
        r.otherCpuPercent,
        r.runsEventsPerSec.join(' '),
      ]),
    ),
  );
  console.log(
    `\nPaired ratios, ${p.placement}: each taken within a round, then the median over the quiet rounds ` +
      `(busy: others > ${BUSY_PERCENT} % of a core)`,
  );
  const rows: Array<Array<string | number | null>> = [];
  for (const [set, ratios] of Object.entries(p.paired))
    for (const r of ratios) rows.push([set, ...pairedRow(r)]);
  console.log(table(['set', ...PAIRED_HEADER], rows));
  const floorBroken = Object.values(p.paired)
    .flat()
    .filter((r) => r.ratio.includes('floor check') && r.held === false);
  for (const r of floorBroken)
    console.log(
      `WARNING: the floor is not a floor here (${r.ratio} = ${r.median}): a real client ran faster than it`,
    );
}

export function printTargets(t: ReturnType<typeof targets>, failures: string[]): void {
  console.log('\nOther targets (reported, not asserted)');
  console.log(
    table(
      ['target', 'value', 'wanted', 'verdict'],
      Object.entries(t).map(([k, v]) => [k, v.value ?? undefined, v.target, verdict(v)]),
    ),
  );
  for (const f of failures) console.log(`FAILED: ${f}`);
}
