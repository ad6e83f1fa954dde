/**
 * `npm run chaos -- [options]`: the chaos test's engine (support/chaos/)
 * over more seeds and more kinds of server fault than CI runs, with
 * progress. Prints `chaos: N passed, N failed` and exits non-zero when any
 * seed failed; each failing seed is printed with the command that replays it.
 */

import { parseArgs } from 'node:util';
import type { Scenario } from '../support/chaos/engine.js';
import { describeFailure, replayCommand, runSeeds, summaryLine } from '../support/chaos/runner.js';
import { DISRUPTIONS, type Disruption } from '../support/chaos/schedule.js';

const HELP = `usage: npm run chaos -- [options]

  --store memory|etcd    what the API server stores into (default: memory; etcd for --mode kill
                         and failover). etcd: one real etcd per lane (--concurrency), a fresh key
                         prefix per seed
  --mode restart|kill|failover
                         what the schedule's server faults do (default restart):
                           restart   close the server cleanly, start it again on the same port
                                     over the same store
                           kill      SIGKILL the server's process mid-schedule (writes and watches
                                     in flight) and start a fresh process on the same port over the
                                     same etcd data; etcd only: a killed memory server loses its data
                           failover  two server processes over one etcd prefix; the informers' proxy
                                     moves from one to the other, cutting or keeping open
                                     connections, and servers are killed and restarted; etcd only
  --seeds N              how many seeds (default 300), starting at --start (default 1)
  --seed S               just seed S (replays a failure)
  --concurrency C        seeds at once (default 8 for memory, 4 for etcd)
  --shared-etcd          every lane on one etcd (shows that a server over one prefix of a shared
                         etcd answers watches 504 while other prefixes write)
  --verbose              a line per passing seed too
`;

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    mode: { type: 'string', default: 'restart' },
    seeds: { type: 'string', default: '300' },
    start: { type: 'string', default: '1' },
    seed: { type: 'string' },
    concurrency: { type: 'string' },
    'shared-etcd': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function usage(message: string): never {
  console.error(`${message}\n\n${HELP}`);
  process.exit(2);
}

if (values.help) {
  console.log(HELP);
  process.exit(0);
}

function nonNegative(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    usage(`--${name} must be a non-negative integer, not ${JSON.stringify(text)}`);
  return n;
}

if (!DISRUPTIONS.includes(values.mode as Disruption))
  usage(`--mode must be one of ${DISRUPTIONS.join(', ')}`);
const disruption = values.mode as Disruption;
const store = values.store ?? (disruption === 'restart' ? 'memory' : 'etcd');
if (store !== 'memory' && store !== 'etcd') usage('--store must be memory or etcd');
if (store === 'memory' && disruption !== 'restart') {
  usage(`--mode ${disruption} needs --store etcd: a killed server loses an in-memory store's data`);
}
const scenario: Scenario = { store, disruption };

const seeds =
  values.seed !== undefined
    ? [nonNegative('seed', values.seed)]
    : Array.from(
        { length: nonNegative('seeds', values.seeds) },
        (_, i) => nonNegative('start', values.start) + i,
      );
const concurrency = Math.max(
  1,
  values.concurrency !== undefined
    ? nonNegative('concurrency', values.concurrency)
    : store === 'etcd'
      ? 4
      : 8,
);

console.log(
  `chaos: ${seeds.length} seeds, store ${store}, mode ${disruption}, concurrency ${concurrency}` +
    (values['shared-etcd'] ? ', one shared etcd' : ''),
);
let done = 0;
let failed = 0;
let lastLine = Date.now();
const say = (line: string) => {
  console.log(line);
  lastLine = Date.now();
};
const summary = await runSeeds(seeds, {
  concurrency,
  scenario,
  sharedEtcd: values['shared-etcd'],
  onServerCode: (how) => say(`server processes run the ${how === 'bundle' ? 'bundled server' : how}`),
  onResult: (r) => {
    done++;
    if (!r.ok) failed++;
    if (!r.ok) say(describeFailure(r));
    else if (values.verbose) say(`seed ${r.seed} ok (${r.ms} ms ${JSON.stringify(r.phases)}): ${r.plan}`);
    if (done % 10 === 0 || done === seeds.length) {
      say(`progress: ${done}/${seeds.length} seeds, ${failed} failed so far`);
    }
  },
  heartbeatMs: 5_000,
  onHeartbeat: (running, finished) => {
    // Nothing printed for a while: say what is running, so a slow seed never looks like a hang.
    if (Date.now() - lastLine < 15_000) return;
    const list = running.map((r) => `${r.seed} (${(r.ms / 1000).toFixed(0)} s)`).join(', ');
    say(`progress: ${finished}/${seeds.length} seeds; running: ${list || 'none'}`);
  },
});

const t = summary.totals;
console.log(
  `${seeds.length} seeds in ${(summary.ms / 1000).toFixed(1)} s (store ${store}, mode ${disruption}, ` +
    `concurrency ${concurrency}); faults injected by the proxy ${t.injected}, server restarts ${t.restarts}, ` +
    `kills ${t.kills}, failovers ${t.failovers}; informers: relists after 410 ${t.relistsExpired}, ` +
    `other relists ${t.relistsOther}, resumes ${t.resumes}, idle ends ${t.idleEnds}, error ends ${t.errorEnds}, ` +
    `errors ${t.errors}, bookmarks ${t.bookmarks}, final-state-unknown deletes ${t.finalStateUnknownDeletes}`,
);
if (summary.failures.length > 0) {
  console.log(`failing seeds: ${summary.failures.map((f) => f.seed).join(' ')}`);
  console.log(`replay one: ${replayCommand(summary.failures[0].seed, scenario)}`);
}
console.log(summaryLine(summary));
// Every seed closed what it opened (a seed that could not is reported as failed), so exit now.
process.exit(summary.failed > 0 ? 1 : 0);
