/**
 * The issue #11 ratios of the client benchmark, taken within one round of
 * runs (paired: the clients ran back to back, so a noisy moment hits them
 * alike) and then summarized as the median over rounds, with the range.
 * Shared by the quick mode and the full run.
 */
import type { ClientId, ClientResult } from './client-plan.js';
import { round } from './report.js';

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
const div = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? a / b : undefined;

const atMost = (limit: number) => (v: number) => v <= limit;
const atLeast = (limit: number) => (v: number) => v >= limit;

/** The targets (#11): time ratios against the floor, speed ratios against client-node. */
export const RATIOS: RatioDef[] = [
  {
    name: 'steady: watchmark time / floor',
    of: (r) => div(ms(r.steady.watchmark), ms(r.steady.floor)),
    target: '<= 1.1',
    held: atMost(1.1),
  },
  {
    name: 'steady: watchmark CPU / floor',
    of: (r) => div(cpu(r.steady.watchmark), cpu(r.steady.floor)),
    target: '<= 1.1',
    held: atMost(1.1),
  },
  {
    name: 'steady: watchmark events/s / client-node',
    of: (r) => div(ms(r.steady['client-node']), ms(r.steady.watchmark)),
    target: '>= 1.25',
    held: atLeast(1.25),
  },
  {
    name: 'steady: watchmark events/CPU s / client-node',
    of: (r) => div(cpu(r.steady['client-node']), cpu(r.steady.watchmark)),
    target: '>= 1.25',
    held: atLeast(1.25),
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
    // Handlers that take only the key: what lazy decoding buys over client-node (no target: informative).
    name: 'steady: lazy events/s / client-node',
    of: (r) => div(ms(r.steady['client-node']), ms(r.steady['watchmark-lazy'])),
    target: '-',
    held: () => true,
  },
  {
    name: 'steady: client-node time / floor',
    of: (r) => div(ms(r.steady['client-node']), ms(r.steady.floor)),
    target: '-',
    held: () => true,
  },
  {
    name: 'steady: client-node CPU / floor',
    of: (r) => div(cpu(r.steady['client-node']), cpu(r.steady.floor)),
    target: '-',
    held: () => true,
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
];

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One ratio over rounds: the median of the per-round values, their range, the target. */
export interface PairedRatio {
  ratio: string;
  median: number | null;
  min: number | null;
  max: number | null;
  target: string;
  held: boolean | null;
  runs: number[];
}

/** Every ratio over `rounds` (those a round cannot give, e.g. a failed run, are left out of it). */
export function pairedRatios(rounds: Round[], which: (d: RatioDef) => boolean = () => true): PairedRatio[] {
  return RATIOS.filter(which).map((d) => {
    const runs = rounds.map(d.of).filter((v): v is number => v !== undefined && Number.isFinite(v));
    const m = runs.length ? round(median(runs), 2) : null;
    return {
      ratio: d.name,
      median: m,
      min: runs.length ? round(Math.min(...runs), 2) : null,
      max: runs.length ? round(Math.max(...runs), 2) : null,
      target: d.target,
      held: m === null || d.target === '-' ? null : d.held(m),
      runs: runs.map((v) => round(v, 3)),
    };
  });
}

/** One {@link PairedRatio} as a report row: name, median, range, target, verdict. */
export function pairedRow(r: PairedRatio): Array<string | number | null> {
  return [r.ratio, r.median, r.min, r.max, r.target, r.held === null ? '' : r.held ? 'HELD' : 'MISSED'];
}
