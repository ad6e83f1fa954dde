import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { round } from '../lib/report.js';
import { canPin, killAllChildren, type ServerChild, startServerChild } from './children.js';
import { build, measureImports } from './imports.js';
import { machine, parameters, QUICK, STEADY_CLIENTS, SYNC_CLIENTS } from './params.js';
import { type PlacementResult, runPlacement } from './placement.js';
import {
  CHURN_NAMESPACE,
  type ClientId,
  type ClientJob,
  type Placement,
  type ServerPlan,
  syncNamespace,
} from './plan.js';
import { printQuick, type QuickReport, runQuick } from './quick.js';
import { printImports, printPlacement, printTargets, targets } from './tables.js';

const DEFAULT_OUT = fileURLToPath(new URL('../results/client.json', import.meta.url));
/** The whole run is killed after this, whatever it is doing. */
const DEADLINE_MS = 25 * 60_000;

interface Args {
  quick: boolean;
  out: string | undefined;
  build: boolean;
  placements: Placement[] | undefined;
}

/** A bad command line: its message is all that is printed (no stack). */
class UsageError extends Error {}

function usage(): string {
  return 'usage: npm run bench:client -- [--quick] [--out FILE] [--skip-build] [--placement pinned|unpinned|both]';
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, out: undefined, build: true, placements: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--skip-build') args.build = false;
    else if (a === '--placement') {
      const v = argv[++i];
      if (v === 'both') args.placements = ['pinned', 'unpinned'];
      else if (v === 'pinned' || v === 'unpinned') args.placements = [v];
      else throw new UsageError(`--placement wants pinned, unpinned or both\n${usage()}`);
    } else if (a === '--out') {
      args.out = argv[++i];
      if (!args.out) throw new UsageError(`--out wants a file\n${usage()}`);
    } else if (a === '--help' || a === '-h') {
      console.log(usage());
      process.exit(0);
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}\n${usage()}`);
  }
  if (!args.quick) args.out ??= DEFAULT_OUT;
  if (args.placements?.includes('pinned') && !canPin())
    throw new UsageError('--placement pinned needs taskset (util-linux) and at least two CPUs');
  return args;
}

/** Pinned (and, in the full run, unpinned after it) where taskset is found; unpinned elsewhere. */
function defaultPlacements(quick: boolean): Placement[] {
  if (!canPin()) return ['unpinned'];
  return quick ? ['pinned'] : ['pinned', 'unpinned'];
}

/** Where the profiles and the before/after figures of this benchmark are written up. */
const NOTES =
  'bench/client/notes.md: CPU profiles and before/after figures of issues #11 and 26 (why client-node once beat the floor: CPU placement)';

// ---------------------------------------------------------------- main

/** The quick mode: warm workers, paired rounds, ratios printed; JSON only with --out. */
async function quickMain(args: Args, log: (line: string) => void, started: number): Promise<number> {
  const info = machine();
  const placement = (args.placements ?? defaultPlacements(true))[0];
  if ((args.placements?.length ?? 1) > 1) throw new UsageError(`--quick runs one placement\n${usage()}`);
  console.log(
    `bench:client --quick: ${QUICK.syncSize} pods, ${QUICK.churnEvents} events per round, ` +
      `${info.cpus} CPUs, node ${info.node}, load average ${info.loadAverage1mAtStart}, ${placement}` +
      `${canPin() ? '' : ' (taskset not found: cannot pin)'}`,
  );
  const buildWarning = args.build ? build(log) : undefined;
  const imports = measureImports(1, log);
  const plan = { syncSizes: [QUICK.syncSize], churnPods: QUICK.churnPods, churnEvents: QUICK.churnEvents };
  const server = await startServerChild(plan, 120_000);
  let report: QuickReport;
  try {
    log(`server ready (${QUICK.churnEvents} updates in ${round(server.info.churnMs / 1000, 1)} s)`);
    report = await runQuick(server.info, QUICK, placement, log);
  } finally {
    await server.close();
  }
  printQuick(report, QUICK);
  if (args.out) {
    const out = resolve(args.out);
    mkdirSync(dirname(out), { recursive: true });
    const doc = {
      benchmark: 'client',
      quick: true,
      date: new Date().toISOString(),
      durationSeconds: round((performance.now() - started) / 1000, 1),
      machine: info,
      parameters: QUICK,
      buildWarning,
      imports,
      ...report,
    };
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`\nwrote ${relative(process.cwd(), out)}`);
  }
  log('done');
  return 0;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const log = (line: string) =>
    console.log(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s ${line}`);
  if (args.quick) return quickMain(args, log, started);
  const params = parameters();
  const info = machine();
  const placements = args.placements ?? defaultPlacements(false);
  console.log(
    `bench:client: ${params.syncSizes.join(', ')} pods, ${params.churnEvents} events, ${params.rounds} quiet rounds ` +
      `(at most ${params.maxRounds}) per placement: ${placements.join(', ')}; ${info.cpus} CPUs, node ${info.node}` +
      `${canPin() ? '' : ' (taskset not found: cannot pin)'}`,
  );
  const buildWarning = args.build ? build(log) : undefined;
  const imports = measureImports(params.importRuns, log);

  const plan: ServerPlan = {
    syncSizes: params.syncSizes,
    churnPods: params.churnPods,
    churnEvents: params.churnEvents,
  };
  log('starting the server child (seeding its store, then churning)');
  let server: ServerChild | undefined;
  const failures: string[] = [];
  const results: PlacementResult[] = [];
  try {
    server = await startServerChild(plan, 300_000);
    const si = server.info;
    log(
      `server ready at ${si.url}: seeded in ${round(si.seedMs / 1000, 1)} s, ${params.churnEvents} updates ` +
        `in ${round(si.churnMs / 1000, 1)} s, ~${Math.round(si.podBytes)} bytes/pod`,
    );
    const jobs: Array<{ key: string; job: ClientJob }> = [];
    const job = (client: ClientId, phase: ClientJob['phase'], namespace: string, objects: number) => ({
      key: `${phase}/${objects}/${client}`,
      job: {
        client,
        phase,
        url: si.url,
        namespace,
        objects,
        events: params.churnEvents,
        warmupEvents: params.warmupEvents,
        baseRevision: si.baseRevision,
        sampleMs: params.sampleMs,
      },
    });
    for (const size of params.syncSizes)
      for (const client of SYNC_CLIENTS) jobs.push(job(client, 'sync', syncNamespace(size), size));
    for (const client of STEADY_CLIENTS) jobs.push(job(client, 'steady', CHURN_NAMESPACE, params.churnPods));
    for (const placement of placements)
      results.push(await runPlacement(placement, server, jobs, params, failures, log));
  } finally {
    await server?.close();
  }
  printImports(imports);
  for (const p of results) printPlacement(p, params.churnEvents, params.warmupEvents);
  // Memory targets from the first placement (peaks do not depend on where a process runs).
  const t = targets(results[0]?.sync ?? [], imports);
  printTargets(t, failures);
  if (args.out) {
    const out = resolve(args.out);
    mkdirSync(dirname(out), { recursive: true });
    const doc = {
      benchmark: 'client',
      date: new Date().toISOString(),
      durationSeconds: round((performance.now() - started) / 1000, 1),
      quick: false,
      machine: { ...info, canPin: canPin(), loadAverage1mAtEnd: round(loadavg()[0], 2) },
      parameters: { ...params, podBytes: server ? Math.round(server.info.podBytes) : undefined },
      buildWarning,
      imports,
      placements: results.map((p) => ({
        placement: p.placement,
        rounds: p.rounds.map((r) => ({ otherCpuPercent: r.otherCpuPercent, busy: r.busy })),
        initialSync: p.sync,
        steadyState: p.steady,
        pairedRatios: p.paired,
      })),
      targets: t,
      notes: NOTES,
      failures,
    };
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`\nwrote ${relative(process.cwd(), out)}`);
  }
  return failures.length ? 1 : 0;
}

const deadline = setTimeout(() => {
  console.error(`\nbench:client: still running after ${DEADLINE_MS / 60_000} min: giving up`);
  killAllChildren();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the child processes`);
    killAllChildren();
    process.exit(code);
  });
}

main().then(
  (code) => {
    killAllChildren();
    process.exit(code);
  },
  (err: Error) => {
    console.error(err instanceof UsageError ? `bench:client: ${err.message}` : (err.stack ?? err.message));
    killAllChildren();
    process.exit(1);
  },
);
