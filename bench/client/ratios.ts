/**
 * The ratios of the client benchmark (issues #11 and 26), taken within one
 * round of runs (paired: the clients ran back to back, so a noisy moment hits
 * them alike) and then summarized as the median over the quiet rounds, with
 * the range. Shared by the quick mode and the full run.
 */

import { median, round } from '../lib/report.js';
import type { ClientId, ClientResult } from './plan.js';

export { median };

/** One round's runs, by phase and client. */
export interface Round {
  sync: Partial<Record<ClientId, ClientResult>>;
  steady: Partial<Record<ClientId, ClientResult>>;
  /** Other processes' CPU (% of one core) over the round. */
  otherCpuPercent: number | undefined;
}

/** One paired ratio: how it is computed from a round, and the target it is held to. */
export interface RatioDef {
  name: string;
  of: (r: Round) => number | undefined;
  target: string;
  held: (v: number) => boolean;
}

const ms = (r: ClientResult | undefined) => r?.ms;
const cpu = (r: ClientResult | undefined) => r?.cpuMs;
/** The split stream's parts (full run): the start, a new process's first updates; the warm rest after them. */
const startMs = (r: ClientResult | undefined) => r?.split?.startMs;
const warmMs = (r: ClientResult | undefined) => r?.split?.warmMs;
const warmCpu = (r: ClientResult | undefined) => r?.split?.warmCpuMs;
const div = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? a / b : undefined;

const atMost = (limit: number) => (v: number) => v <= limit;
const atLeast = (limit: number) => (v: number) => v >= limit;

/**
 * The targets (issue 26, after issue #11): the informer within 1.05x the
 * floor's time on the steady stream and at least 1.1x client-node's events/s;
 * the initial sync at least 1.25x client-node's speed; lazy decoding ahead of
 * both. And one the floor itself is held to: a real client may never run
 * faster than it (client-node / floor >= 1), or it is not a floor.
 */
export const RATIOS: RatioDef[] = [
  {
    name: 'steady: watchmark time / floor',
    of: (r) => div(ms(r.steady.watchmark), ms(r.steady.floor)),
    target: '<= 1.05',
    held: atMost(1.05),
  },
  {
    name: 'steady: watchmark CPU / floor',
    of: (r) => div(cpu(r.steady.watchmark), cpu(r.steady.floor)),
    target: '<= 1.05',
    held: atMost(1.05),
  },
  {
    name: 'steady: watchmark events/s / client-node',
    of: (r) => div(ms(r.steady['client-node']), ms(r.steady.watchmark)),
    target: '>= 1.1',
    held: atLeast(1.1),
  },
  {
    name: 'steady: watchmark events/CPU s / client-node',
    of: (r) => div(cpu(r.steady['client-node']), cpu(r.steady.watchmark)),
    target: '>= 1.1',
    held: atLeast(1.1),
  },
  {
    name: 'steady: lazy time / floor',
    of: (r) => div(ms(r.steady['watchmark-lazy']), ms(r.steady.floor)),
    target: '< 1',
    held: (v) => v < 1,
  },
  {
    name: 'steady: lazy CPU / floor',
    of: (r) => div(cpu(r.steady['watchmark-lazy']), cpu(r.steady.floor)),
    target: '< 1',
    held: (v) => v < 1,
  },
  {
    // Handlers that take only the key: what lazy decoding buys over client-node.
    name: 'steady: lazy events/s / client-node',
    of: (r) => div(ms(r.steady['client-node']), ms(r.steady['watchmark-lazy'])),
    target: '> 1',
    held: (v) => v > 1,
  },
  {
    name: 'steady: client-node time / floor (floor check)',
    of: (r) => div(ms(r.steady['client-node']), ms(r.steady.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
  {
    name: 'steady: client-node CPU / floor (floor check)',
    of: (r) => div(cpu(r.steady['client-node']), cpu(r.steady.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
  // The full run's stream split in two (ClientJob.warmupEvents): its start, in a process
  // that has just started (JIT warm-up, a one-off cost, included), and the warm rest, the
  // state a long-running informer spends its life in. Absent from the quick mode.
  {
    name: 'steady start: watchmark time / floor',
    of: (r) => div(startMs(r.steady.watchmark), startMs(r.steady.floor)),
    target: '<= 1.05',
    held: atMost(1.05),
  },
  {
    name: 'steady start: watchmark events/s / client-node',
    of: (r) => div(startMs(r.steady['client-node']), startMs(r.steady.watchmark)),
    target: '>= 1.1',
    held: atLeast(1.1),
  },
  {
    name: 'steady start: client-node time / floor (floor check)',
    of: (r) => div(startMs(r.steady['client-node']), startMs(r.steady.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
  {
    name: 'steady warm: watchmark time / floor',
    of: (r) => div(warmMs(r.steady.watchmark), warmMs(r.steady.floor)),
    target: '<= 1.05',
    held: atMost(1.05),
  },
  {
    name: 'steady warm: watchmark CPU / floor',
    of: (r) => div(warmCpu(r.steady.watchmark), warmCpu(r.steady.floor)),
    target: '<= 1.05',
    held: atMost(1.05),
  },
  {
    name: 'steady warm: watchmark events/s / client-node',
    of: (r) => div(warmMs(r.steady['client-node']), warmMs(r.steady.watchmark)),
    target: '>= 1.1',
    held: atLeast(1.1),
  },
  {
    name: 'steady warm: watchmark events/CPU s / client-node',
    of: (r) => div(warmCpu(r.steady['client-node']), warmCpu(r.steady.watchmark)),
    target: '>= 1.1',
    held: atLeast(1.1),
  },
  {
    name: 'steady warm: lazy events/s / client-node',
    of: (r) => div(warmMs(r.steady['client-node']), warmMs(r.steady['watchmark-lazy'])),
    target: '> 1',
    held: (v) => v > 1,
  },
  {
    name: 'steady warm: client-node time / floor (floor check)',
    of: (r) => div(warmMs(r.steady['client-node']), warmMs(r.steady.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
  {
    name: 'steady warm: client-node CPU / floor (floor check)',
    of: (r) => div(warmCpu(r.steady['client-node']), warmCpu(r.steady.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
  {
    name: 'sync: watchmark time / floor',
    of: (r) => div(ms(r.sync.watchmark), ms(r.sync.floor)),
    target: '<= 1.1',
    held: atMost(1.1),
  },
  {
    name: 'sync: watchmark CPU / floor',
    of: (r) => div(cpu(r.sync.watchmark), cpu(r.sync.floor)),
    target: '<= 1.1',
    held: atMost(1.1),
  },
  {
    name: 'sync: lazy CPU / floor',
    of: (r) => div(cpu(r.sync['watchmark-lazy']), cpu(r.sync.floor)),
    target: '< 1',
    held: (v) => v < 1,
  },
  {
    name: 'sync: watchmark speed / client-node',
    of: (r) => div(ms(r.sync['client-node']), ms(r.sync.watchmark)),
    target: '>= 1.25',
    held: atLeast(1.25),
  },
  {
    name: 'sync: watchmark CPU speed / client-node',
    of: (r) => div(cpu(r.sync['client-node']), cpu(r.sync.watchmark)),
    target: '>= 1.25',
    held: atLeast(1.25),
  },
  {
    name: 'sync: lazy speed / client-node',
    of: (r) => div(ms(r.sync['client-node']), ms(r.sync['watchmark-lazy'])),
    target: '> 1',
    held: (v) => v > 1,
  },
  {
    name: 'sync: client-node time / floor (floor check)',
    of: (r) => div(ms(r.sync['client-node']), ms(r.sync.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
  {
    name: 'sync: client-node CPU / floor (floor check)',
    of: (r) => div(cpu(r.sync['client-node']), cpu(r.sync.floor)),
    target: '>= 1',
    held: atLeast(1),
  },
];

/** A round in which other processes used more than this (% of one core) is left out of the medians. */
export const BUSY_PERCENT = 10;

/** True when a round ran on a busy machine (unknown load counts as quiet: off Linux there is no reading). */
export const isBusy = (r: Round) => (r.otherCpuPercent ?? 0) > BUSY_PERCENT;

/** One ratio over rounds: the median of the per-round values, their range, the target. */
export interface PairedRatio {
  ratio: string;
  /** Over the quiet rounds (see {@link isBusy}); over every round when none was quiet. */
  median: number | null;
  min: number | null;
  max: number | null;
  target: string;
  held: boolean | null;
  /** Quiet rounds the median is over. */
  rounds: number;
  /** Every round's value, in order; null where the round could not give it. */
  runs: Array<number | null>;
  /** Which of `runs` were busy (left out of the median). */
  busy: boolean[];
}

/**
 * Every ratio over `rounds` (a round that cannot give one, e.g. a failed run,
 * is left out of it). Busy rounds are kept in `runs` and left out of the
 * median and range, unless no round was quiet.
 */
export function pairedRatios(rounds: Round[], which: (d: RatioDef) => boolean = () => true): PairedRatio[] {
  const quiet = rounds.filter((r) => !isBusy(r));
  const counted = quiet.length > 0 ? quiet : rounds;
  const finite = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);
  // A ratio no round can give (the split stream's, in the quick mode) is left out.
  const given = (d: RatioDef) => rounds.some((r) => finite(d.of(r)));
  return RATIOS.filter((d) => which(d) && given(d)).map((d) => {
    const values = counted.map(d.of).filter(finite);
    const m = values.length ? round(median(values), 2) : null;
    return {
      ratio: d.name,
      median: m,
      min: values.length ? round(Math.min(...values), 2) : null,
      max: values.length ? round(Math.max(...values), 2) : null,
      target: d.target,
      held: m === null || d.target === '-' ? null : d.held(m),
      rounds: values.length,
      runs: rounds.map((r) => {
        const v = d.of(r);
        return finite(v) ? round(v, 3) : null;
      }),
      busy: rounds.map(isBusy),
    };
  });
}

/** One {@link PairedRatio} as a report row: name, median, range, quiet rounds, target, verdict. */
export function pairedRow(r: PairedRatio): Array<string | number | null> {
  return [
    r.ratio,
    r.median,
    r.min,
    r.max,
    r.rounds,
    r.target,
    r.held === null ? '' : r.held ? 'HELD' : 'MISSED',
  ];
}

/** The header matching {@link pairedRow}. */
export const PAIRED_HEADER = ['ratio', 'median', 'min', 'max', 'rounds', 'target', 'verdict'];
