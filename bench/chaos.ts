/**
 * `npm run chaos -- --seeds N [--start S] [--seed S] [--concurrency C] [--verbose]`:
 * the chaos test's engine (bench/lib/chaos/engine.ts) over more seeds than
 * CI runs, with progress. Prints `chaos: N passed, N failed` and exits
 * non-zero when any seed failed; each failing seed is printed with the
 * command that replays it.
 */

import { parseArgs } from 'node:util';
import { describeFailure, runSeeds, summaryLine } from './lib/chaos/engine.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '300' },
    start: { type: 'string', default: '1' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    verbose: { type: 'boolean', default: false },
  },
});

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return n;
}

const seeds =
  values.seed !== undefined
    ? [positive('seed', values.seed)]
    : Array.from({ length: positive('seeds', values.seeds) }, (_, i) => positive('start', values.start) + i);
const concurrency = Math.max(1, positive('concurrency', values.concurrency));

let done = 0;
const summary = await runSeeds(seeds, {
  concurrency,
  onResult: (r) => {
    done++;
    if (!r.ok) console.log(describeFailure(r));
    else if (values.verbose)
      console.log(`seed ${r.seed} ok (${r.ms} ms ${JSON.stringify(r.phases)}): ${r.plan}`);
    if (done % 25 === 0 || done === seeds.length) {
      console.log(`progress: ${done}/${seeds.length} seeds`);
    }
  },
});

const t = summary.totals;
console.log(
  `${seeds.length} seeds in ${(summary.ms / 1000).toFixed(1)} s (concurrency ${concurrency}); ` +
    `faults injected by the proxy ${t.injected}, server restarts ${t.restarts}; informers: ` +
    `relists after 410 ${t.relistsExpired}, other relists ${t.relistsOther}, resumes ${t.resumes}, ` +
    `idle ends ${t.idleEnds}, error ends ${t.errorEnds}, errors ${t.errors}, bookmarks ${t.bookmarks}, ` +
    `final-state-unknown deletes ${t.finalStateUnknownDeletes}`,
);
if (summary.failures.length > 0) {
  console.log(`failing seeds: ${summary.failures.map((f) => f.seed).join(' ')}`);
}
console.log(summaryLine(summary));
// Every seed closed what it opened (a seed that could not is reported as failed), so exit now.
process.exit(summary.failed > 0 ? 1 : 0);
