import { performance } from 'node:perf_hooks';
import { otherLoad, processCpuMs, readMachineCpu, waitForQuiet } from '../lib/machine-load.js';
import { ownCpuMs, round } from '../lib/report.js';
import { placeServer, runClientJob, type ServerChild } from './children.js';
import { type FullRunParams, STEADY_CLIENTS, SYNC_CLIENTS } from './params.js';
import { CLIENTS, type ClientId, type ClientJob, type ClientResult, type Placement } from './plan.js';
import { type PairedRatio, pairedRatios, type Round } from './ratios.js';
import {
  addSteadyRatios,
  addSyncRatios,
  type Runs,
  type SteadyRow,
  type SyncRow,
  steadyRow,
  syncRow,
} from './rows.js';

/** One round of the full run: its runs by job key, and how busy the machine was over it. */
export interface FullRound {
  runs: Map<string, ClientResult>;
  otherCpuPercent: number | undefined;
  busy: boolean;
}

/** What one placement measured. */
export interface PlacementResult {
  placement: Placement;
  rounds: FullRound[];
  sync: SyncRow[];
  steady: SteadyRow[];
  paired: Record<string, PairedRatio[]>;
}

/**
 * The ratios taken within each round (the clients of a round ran
 * back to back), then the median over the quiet rounds: steadier than a ratio
 * of medians on a shared machine. One set per sync size, one for the stream.
 */
export function pairedFigures(rounds: FullRound[], params: FullRunParams) {
  const roundsAt = (size: number | undefined): Round[] =>
    rounds.map((fr) => {
      const r: Round = { sync: {}, steady: {}, otherCpuPercent: fr.otherCpuPercent };
      for (const c of Object.keys(CLIENTS) as ClientId[]) {
        if (size !== undefined) r.sync[c] = fr.runs.get(`sync/${size}/${c}`);
        r.steady[c] = fr.runs.get(`steady/${params.churnPods}/${c}`);
      }
      return r;
    });
  const out: Record<string, PairedRatio[]> = {
    steady: pairedRatios(roundsAt(undefined), (d) => d.name.startsWith('steady')),
  };
  for (const size of params.syncSizes)
    out[`sync${size}`] = pairedRatios(roundsAt(size), (d) => d.name.startsWith('sync'));
  return out;
}

/** One placement of the full run: rounds of every job until `params.rounds` are quiet (or the cap). */
export async function runPlacement(
  placement: Placement,
  server: ServerChild,
  jobs: Array<{ key: string; job: ClientJob }>,
  params: FullRunParams,
  failures: string[],
  log: (line: string) => void,
): Promise<PlacementResult> {
  const si = server.info;
  placeServer(si.pid, placement);
  const serverCpu = () => processCpuMs(si.pid) ?? 0;
  const rounds: FullRound[] = [];
  /** Per job key: every run's result and the other processes' load during it (quiet rounds only). */
  const perJob = new Map<string, Runs>();
  let quietLeftMs = params.quietBudgetMs;
  const quietRounds = () => rounds.filter((r) => !r.busy).length;
  for (let n = 1; quietRounds() < params.rounds && n <= params.maxRounds; n++) {
    const fr: FullRound = { runs: new Map(), otherCpuPercent: undefined, busy: false };
    const loads: Array<number | undefined> = [];
    const roundBefore = readMachineCpu();
    const roundT0 = performance.now();
    let roundOwnMs = 0;
    for (const { key, job: j } of jobs) {
      const tag = `[${placement} round ${n} ${key}]`;
      if (quietLeftMs > 0) {
        const quiet = await waitForQuiet(
          async () => serverCpu() + ownCpuMs(),
          Math.min(params.quietWaitMs, quietLeftMs),
          params.quietPercent,
          () => {},
          500,
        );
        quietLeftMs -= quiet.waitedMs;
      }
      const before = readMachineCpu();
      const t0 = performance.now();
      const own0 = serverCpu() + ownCpuMs();
      try {
        const r = await runClientJob(j, 180_000, placement);
        const ownMs = serverCpu() + ownCpuMs() - own0 + r.processCpuMs;
        roundOwnMs += ownMs;
        const load = otherLoad(before, readMachineCpu(), ownMs, performance.now() - t0);
        fr.runs.set(key, r);
        loads.push(load?.otherCpuPercent);
        const speed = r.eventsPerSec ? `, ${Math.round(r.eventsPerSec)} events/s` : '';
        log(
          `${tag} ${round(r.ms, 0)} ms, cpu ${round(r.cpuMs, 0)} ms${speed}, peak RSS ` +
            `+${round(r.memory.peakRssMB - r.memory.baselineRssMB, 0)} MB, others ${load?.otherCpuPercent ?? '-'}%`,
        );
      } catch (err) {
        const message = `${tag} ${(err as Error).message}`;
        log(message);
        failures.push(message);
        loads.push(undefined);
      }
    }
    // The round's load: other processes' CPU over the whole round (the waits for quiet included).
    fr.otherCpuPercent = otherLoad(
      roundBefore,
      readMachineCpu(),
      roundOwnMs,
      performance.now() - roundT0,
    )?.otherCpuPercent;
    fr.busy = (fr.otherCpuPercent ?? 0) > params.busyPercent;
    log(
      `${placement} round ${n}: others ${fr.otherCpuPercent ?? '-'}% of a core${fr.busy ? ': BUSY, left out of the medians' : ''}`,
    );
    rounds.push(fr);
    if (fr.busy) continue;
    for (const [i, { key, job: j }] of jobs.entries()) {
      const r = fr.runs.get(key);
      if (!r) continue;
      const entry = perJob.get(key) ?? { client: j.client, results: [], otherCpuPercent: [] };
      entry.results.push(r);
      entry.otherCpuPercent.push(loads[i]);
      perJob.set(key, entry);
    }
  }
  if (quietRounds() < params.rounds)
    log(
      `WARNING: ${placement}: only ${quietRounds()} quiet rounds of ${rounds.length} (wanted ${params.rounds}); ` +
        'the medians are over those',
    );
  const sync: SyncRow[] = [];
  for (const size of params.syncSizes)
    for (const client of SYNC_CLIENTS) {
      const r = perJob.get(`sync/${size}/${client}`);
      if (r) sync.push(syncRow(size, r));
    }
  const steady: SteadyRow[] = [];
  for (const client of STEADY_CLIENTS) {
    const r = perJob.get(`steady/${params.churnPods}/${client}`);
    if (r) steady.push(steadyRow(r, params.churnEvents, params.warmupEvents));
  }
  addSyncRatios(sync);
  addSteadyRatios(steady);
  return { placement, rounds, sync, steady, paired: pairedFigures(rounds, params) };
}
