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
  /** The first run's differences, when only a second run matched (see runCorpus). */
  unstable?: CaseResult['differences'];
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
      const runOne = async (c: FidelityCase): Promise<CaseRecord> => {
        const i = index++;
        const [reference, watchmark] = await Promise.all([
          runCase(pair.reference, c, i).catch((err) => failed(err)),
          runCase(pair.watchmark, c, i).catch((err) => failed(err)),
        ]);
        return { result: judge(c, reference, watchmark, opts.known), reference, watchmark };
      };
      const mineRecords: CaseRecord[] = [];
      await eachAtOnce(all, opts.concurrency ?? 6, async (c) => {
        mineRecords.push(await runOne(c));
        done++;
        if (done % 200 === 0 || done === all.length) log(`${profile}: ${done}/${all.length}`);
      });
      // A case that differs outside the known list runs once more, alone in a fresh namespace: one
      // whose second run matches depended on timing (cases beside it, a second boundary). It is
      // counted as unstable and shown, not as a difference, and the second run is the one kept.
      const again = mineRecords.filter((r) => r.result.outcome === 'differing');
      for (const first of again) {
        const c = all.find((x) => x.id === first.result.id)!;
        const second = await runOne(c);
        if (second.result.outcome !== 'differing') second.unstable = first.result.differences;
        mineRecords[mineRecords.indexOf(first)] = second;
      }
      records.push(...mineRecords);
    } finally {
      await pair.close();
    }
  }
  records.sort((a, b) => a.result.id.localeCompare(b.result.id));
  return { records, servers, elapsedMs: performance.now() - started };
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachAtOnce<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

function failed(err: unknown): Observation[] {
  return [{ step: 'setup', kind: 'error', error: (err as Error).message }];
}
