/**
 * Runs a corpus: both servers of each profile, every case on both (the two
 * runs of one case go at once, a few cases at a time), then the verdicts.
 */

import { judge } from './compare.js';
import { unique } from './corpus.js';
import type { KnownDifference } from './known.js';
import { runCase } from './runner.js';
import { type ServerPair, startPair } from './servers.js';
import type { CaseResult, FidelityCase, Observation, Profile } from './types.js';

export interface RunOptions {
  known: KnownDifference[];
  /** Cases at once (default 6). */
  concurrency?: number;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Called once per profile with its servers, before any case runs: generators that read the reference. */
  onPair?: (profile: Profile, pair: ServerPair) => Promise<FidelityCase[]>;
}

export interface CaseRecord {
  result: CaseResult;
  reference: Observation[];
  watchmark: Observation[];
}

export interface RunSummary {
  records: CaseRecord[];
  /** Per profile: the reference's ready time and memory. */
  servers: Array<{ profile: Profile; readyMs: number; rss: Record<string, number> }>;
  elapsedMs: number;
}

/** Runs `cases` (plus what `onPair` adds per profile) and judges each. */
export async function runCorpus(cases: FidelityCase[], opts: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const records: CaseRecord[] = [];
  const servers: RunSummary['servers'] = [];
  let index = 0;
  for (const profile of ['envtest', 'cluster'] as const) {
    const mine = cases.filter((c) => (c.profile ?? 'envtest') === profile);
    // Generated cases run in the envtest profile only; the cluster profile starts for written cases.
    if (mine.length === 0 && (profile !== 'envtest' || !opts.onPair)) continue;
    const pair = await startPair(profile, log);
    try {
      servers.push({
        profile,
        readyMs: Math.round(pair.referenceServer.timings.totalMs),
        rss: { ...(await pair.referenceServer.memory()) },
      });
      const generated = opts.onPair && profile === 'envtest' ? await opts.onPair(profile, pair) : [];
      const all = unique([...mine, ...generated]);
      log(`${profile}: ${all.length} cases`);
      let done = 0;
      const queue = all.map((c) => ({ c, i: index++ }));
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const { c, i } = item;
          const [reference, watchmark] = await Promise.all([
            runCase(pair.reference, c, i).catch((err) => failed(err)),
            runCase(pair.watchmark, c, i).catch((err) => failed(err)),
          ]);
          records.push({ result: judge(c, reference, watchmark, opts.known), reference, watchmark });
          done++;
          if (done % 200 === 0 || done === all.length) log(`${profile}: ${done}/${all.length}`);
        }
      };
      await Promise.all(Array.from({ length: opts.concurrency ?? 6 }, worker));
    } finally {
      await pair.close();
    }
  }
  records.sort((a, b) => a.result.id.localeCompare(b.result.id));
  return { records, servers, elapsedMs: performance.now() - started };
}

function failed(err: unknown): Observation[] {
  return [{ step: 'setup', kind: 'error', error: (err as Error).message }];
}
