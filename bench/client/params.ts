import { cpus, loadavg, totalmem } from 'node:os';
import { round } from '../lib/report.js';
import type { ClientId } from './plan.js';
import type { QuickParams } from './quick.js';
import { BUSY_PERCENT } from './ratios.js';

/** The whole run is killed after this, whatever it is doing. */
export const DEADLINE_MS = 25 * 60_000;
export const TARGETS = {
  importRssMB: 25,
  importMs: 100,
};

export const SYNC_CLIENTS: ClientId[] = ['floor', 'watchmark', 'watchmark-lazy', 'client-node'];
export const STEADY_CLIENTS: ClientId[] = [
  'drain',
  'floor',
  'watchmark',
  'watchmark-lazy',
  'watchmark-lazy-read',
  'client-node',
];

/** The full run's parameters (recorded in its JSON). */
export function parameters() {
  return {
    syncSizes: [10_000, 50_000],
    churnPods: 10_000,
    churnEvents: 180_000,
    /** The steady stream's start: its first updates, in a process that has just started (JIT warm-up included); the rest is the warm stream. */
    warmupEvents: 60_000,
    /** Quiet rounds wanted per placement: every client once per round, each run in a fresh process, clients interleaved. */
    rounds: 5,
    /** Rounds per placement at most, busy ones included. */
    maxRounds: 9,
    /** A round whose other processes used more than this (% of one core) is busy: left out of the medians. */
    busyPercent: BUSY_PERCENT,
    /** Before each run, wait up to this for other processes to quiet down (at most `quietBudgetMs` in all). */
    quietWaitMs: 2_000,
    quietBudgetMs: 20_000,
    quietPercent: 30,
    importRuns: 7,
    sampleMs: 2,
    listRequest: 'one request, resourceVersion=0 (watch cache); watchmark informers with pageSize: 0',
    server: 'watchmark serve in a child process, plain HTTP, no auth (insecureHttp + insecureNoAuth)',
  };
}

/**
 * The quick mode's run: about a minute with the build and the server. Its stream is 40,000
 * events: with 10,000 (a run of some 200 ms) one old-generation GC more or less in a run
 * moved a ratio by 10-30 %, and the quick mode read watchmark at 1.13-1.31x the floor
 * where the full run's warm stream read 1.01; with 40,000 it read 0.98-1.00, ranges
 * within +-0.15 (bench/client/notes.md, issue 26).
 */
export const QUICK: QuickParams = {
  syncSize: 2_000,
  churnPods: 2_000,
  churnEvents: 40_000,
  budgetMs: 12_000,
  minRounds: 5,
  maxRounds: 15,
  sampleMs: 2,
};

export function machine() {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage1mAtStart: round(loadavg()[0], 2),
  };
}

/** The full run's parameters. */
export type FullRunParams = ReturnType<typeof parameters>;
