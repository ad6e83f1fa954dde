/**
 * The chaos engine shared by `test/client/informer/chaos.test.ts` and `bench/chaos.ts`:
 * runs a seed's schedule of writes and faults against informers, lets the
 * system quiesce, and checks that every informer's cache equals the server's
 * state and that its handlers told a consistent story. Lanes of seeds run
 * side by side (runner.ts); this file is one seed.
 */

import type { InformerOptions, KubeObject } from '../../src/index.js';
import {
  converge,
  divergence,
  type InformerSpec,
  QUIESCE_MS,
  serverCachesMatch,
  type Tracked,
} from './checks.js';
import { WIDGETS } from './crd.js';
import { HandlerHistory } from './history.js';
import {
  type ChaosConfig,
  type Disruption,
  describePlan,
  NETWORK_POLICIES,
  planSeed,
  RESOURCES,
  ROLES,
  type Step,
} from './schedule.js';
import type { WarmPool } from './warm-child.js';
import { World, type WorldStore } from './world.js';

/** Which store the servers run over and what the server faults do. */
export interface Scenario {
  store: 'memory' | 'etcd';
  disruption: Disruption;
}

/** The scenario of the suite's default run and of `npm run chaos` without options. */
export const DEFAULT_SCENARIO: Scenario = { store: 'memory', disruption: 'restart' };

const INFORMERS: InformerSpec[] = [
  { name: 'pods(all)', res: 'pods', selection: { allNamespaces: true } },
  {
    name: 'pods(chaos-a, status.phase=Running)',
    res: 'pods',
    selection: { namespace: 'chaos-a', fieldSelector: 'status.phase=Running' },
  },
  {
    name: 'configmaps(all, tier in (front,edge))',
    res: 'configmaps',
    selection: { allNamespaces: true, labelSelector: 'tier in (front,edge)' },
  },
  {
    name: `${ROLES}(all, tier in (front,edge))`,
    res: ROLES,
    selection: { allNamespaces: true, labelSelector: 'tier in (front,edge)' },
  },
  {
    name: `${NETWORK_POLICIES}(chaos-a)`,
    res: NETWORK_POLICIES,
    selection: { namespace: 'chaos-a' },
  },
  {
    name: 'pods(chaos-b, tier=front)',
    res: 'pods',
    selection: { namespace: 'chaos-b', labelSelector: 'tier=front' },
  },
  // The custom type (crd.ts), resolved through the client's RESTMapper: by label, and by its
  // selectable field, which only status writes move.
  {
    name: `${WIDGETS}(all, tier in (front,edge))`,
    res: WIDGETS,
    selection: { allNamespaces: true, labelSelector: 'tier in (front,edge)' },
  },
  {
    name: `${WIDGETS}(chaos-b, status.phase=Running)`,
    res: WIDGETS,
    selection: { namespace: 'chaos-b', fieldSelector: 'status.phase=Running' },
  },
];

/** The outcome of one seed. */
export interface SeedResult {
  seed: number;
  scenario: Scenario;
  ok: boolean;
  failures: string[];
  /** The servers' last log lines, when the seed failed. */
  serverLog: string[];
  /** The run's timeline (writes, disruptions, the informers' requests), when the seed failed. */
  timeline: string[];
  ms: number;
  plan: string;
  /** Wall time per phase (ms): setup, sync, schedule, converge, sentinel, settle, teardown. */
  phases: Record<string, number>;
  /** Summed watcher counters of the seed's informers (what the faults made them do). */
  totals: ChaosTotals;
}

/** Counters summed over informers and seeds. */
export interface ChaosTotals {
  relistsExpired: number;
  relistsOther: number;
  resumes: number;
  idleEnds: number;
  errorEnds: number;
  errors: number;
  bookmarks: number;
  finalStateUnknownDeletes: number;
  restarts: number;
  kills: number;
  failovers: number;
  injected: number;
}

/** Zeroed totals. */
export function emptyTotals(): ChaosTotals {
  return {
    relistsExpired: 0,
    relistsOther: 0,
    resumes: 0,
    idleEnds: 0,
    errorEnds: 0,
    errors: 0,
    bookmarks: 0,
    finalStateUnknownDeletes: 0,
    restarts: 0,
    kills: 0,
    failovers: 0,
    injected: 0,
  };
}

/** Adds `b` into `a`. */
export function addTotals(a: ChaosTotals, b: ChaosTotals): void {
  for (const k of Object.keys(a) as Array<keyof ChaosTotals>) a[k] += b[k];
}

function informerOptions(config: ChaosConfig, recentErrors: string[]): InformerOptions<KubeObject> {
  return {
    bookmarks: config.mode !== 'clientNoBookmarks',
    initial: config.mode === 'stream' ? 'stream' : 'list',
    pageSize: config.pageSize,
    watchTimeoutMs: config.watchTimeoutMs,
    backoff: config.backoff,
    idleTimeoutMs: config.idleTimeoutMs,
    // Dead connections are cut after this; generous, since a starved CI machine answers slowly.
    requestTimeoutMs: 1_000,
    serverBookmarkIntervalMs: config.bookmarkIntervalMs,
    resyncPeriodMs: config.resyncPeriodMs,
    lazyDecode: config.lazyDecode,
    onError: (err) => {
      const code = (err as { code?: unknown })?.code;
      recentErrors.push(`${code ?? ''} ${(err as Error)?.message ?? String(err)}`.trim().slice(0, 160));
      if (recentErrors.length > 3) recentErrors.shift();
    },
  };
}

/**
 * Runs one seed end to end over `where` (the memory store, or an etcd
 * prefix no other seed uses), with server processes from `pool` in kill and
 * failover runs; never throws (failures are in the result).
 */
export async function runSeed(
  seed: number,
  scenario: Scenario = DEFAULT_SCENARIO,
  where: WorldStore = { kind: 'memory' },
  pool?: WarmPool,
): Promise<SeedResult> {
  const config = planSeed(seed, scenario.disruption);
  // Liveness deadlines. Server processes compete for a busy machine's CPU with everything else
  // (a 2-core machine running 4 lanes of seeds, their etcds and servers): they get three times as long.
  const slack = scenario.disruption === 'restart' ? 1 : 3;
  const quiesceMs = QUIESCE_MS * slack;
  const started = Date.now();
  const failures: string[] = [];
  const tracked: Tracked[] = [];
  const phases: Record<string, number> = {};
  const serverLog: string[] = [];
  const timeline: string[] = [];
  let mark = started;
  const phase = (name: string) => {
    const now = Date.now();
    phases[name] = now - mark;
    mark = now;
  };
  let world: World | undefined;
  try {
    world = await World.open(config, where, pool);
    for (const step of config.prefill) await world.run(step);
    tracked.push(...startInformers(world, config));
    phase('setup');
    if (config.syncFirst) {
      await withDeadline(
        Promise.all(tracked.map((t) => t.informer.synced())),
        5_000 * slack,
        'the first sync',
      );
    }
    phase('sync');
    for (const step of config.steps) {
      if (step.op === 'lateHandlers') addLateHandlers(tracked, config);
      else await world.run(step);
    }
    world.calm();
    failures.push(...(await withDeadline(world.quiesce(), 40_000, 'bringing every server back')));
    // Namespaces deleted and released across servers (failover runs) finish.
    failures.push(...(await world.namespacesLeft(10_000 * slack)));
    phase('schedule');
    failures.push(...(await converge(world, config, tracked, 'after the schedule', quiesceMs)));
    if (failures.length > 0) {
      // Whose bug: a server whose watch cache lost the change too, or only the informers?
      const latest = await world.latestRevision();
      const caches = await serverCachesMatch(world, RESOURCES, latest);
      failures.push(
        caches.length > 0 ? caches.join('; ') : `every server's watch cache equals the store at ${latest}`,
      );
    }
    phase('converge');
    if (failures.length === 0) {
      // Liveness: one more change every informer must see, bookmarks or not.
      await runChains(world, SENTINEL);
      failures.push(...(await converge(world, config, tracked, 'after the sentinel writes', quiesceMs)));
      phase('sentinel');
    }
    if (failures.length === 0) {
      // Settled: nothing late may undo the converged state. The barrier: more writes that every
      // informer must see (and, with bookmarks, reach the newest resourceVersion of); each watch
      // stream carries them after anything late it still had to deliver.
      await runChains(world, BARRIER);
      failures.push(...(await converge(world, config, tracked, 'after the barrier writes', quiesceMs)));
      const latest = await world.latestRevision();
      for (const t of tracked) {
        const d = await divergence(world, t, false, latest);
        if (d) failures.push(`${t.spec.name}: diverged after settling: ${d}`);
      }
      failures.push(...(await serverCachesMatch(world, RESOURCES, latest)));
      phase('settle');
    }
  } catch (err) {
    failures.push(`run failed: ${(err as Error)?.stack ?? String(err)}`);
  } finally {
    if (failures.length > 0 && world) {
      timeline.push(...world.timeline());
      serverLog.push(...(await world.serverLogs(6).catch((err: Error) => [`(unreadable: ${err.message})`])));
    }
    failures.push(...(await teardown(world, tracked)));
    phase('teardown');
  }
  for (const t of tracked) failures.push(...t.history.violations, ...(t.late?.violations ?? []));
  return {
    seed,
    scenario,
    ok: failures.length === 0,
    failures,
    serverLog,
    timeline,
    ms: Date.now() - started,
    plan: describePlan(config),
    phases,
    totals: totalsOf(tracked, world),
  };
}

/**
 * Changes to the sentinels, written after the converged state as its barrier. Each inner list
 * is one object's writes, in order; the objects' writes run side by side.
 */
const BARRIER: Step[][] = [
  [{ op: 'phase', res: 'pods', ns: 'chaos-a', name: 'sentinel', phase: 'Succeeded' }],
  [{ op: 'create', res: 'configmaps', ns: 'chaos-a', name: 'barrier', tier: 'edge', data: 'b' }],
  // Both widget informers see it: an update by label, a delete by field.
  [{ op: 'phase', res: WIDGETS, ns: 'chaos-b', name: 'sentinel', phase: 'Succeeded' }],
];

/** Writes that concern every informer: the pods in both namespaces, a configmap and a widget in the selectors. */
const SENTINEL: Step[][] = [
  [
    { op: 'create', res: 'pods', ns: 'chaos-a', name: 'sentinel', tier: 'front', data: 's' },
    { op: 'phase', res: 'pods', ns: 'chaos-a', name: 'sentinel', phase: 'Running' },
  ],
  [{ op: 'create', res: 'pods', ns: 'chaos-b', name: 'sentinel', tier: 'front', data: 's' }],
  [{ op: 'create', res: 'configmaps', ns: 'chaos-b', name: 'sentinel', tier: 'edge', data: 's' }],
  [
    { op: 'create', res: WIDGETS, ns: 'chaos-b', name: 'sentinel', tier: 'edge', data: 's' },
    { op: 'phase', res: WIDGETS, ns: 'chaos-b', name: 'sentinel', phase: 'Running' },
  ],
];

/** Runs each chain's steps in order, the chains side by side; all end before a failure is thrown. */
async function runChains(world: World, chains: Step[][]): Promise<void> {
  const ran = await Promise.allSettled(
    chains.map(async (chain) => {
      for (const step of chain) await world.run(step);
    }),
  );
  const failed = ran.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

function startInformers(world: World, config: ChaosConfig): Tracked[] {
  return INFORMERS.map((spec) => {
    const recentErrors: string[] = [];
    const informer = world.reader.informer(spec.res, spec.selection, informerOptions(config, recentErrors));
    const history = new HandlerHistory(spec.name, informer, {
      slow: config.slowHandlers,
      resyncs: config.resyncPeriodMs !== undefined,
    });
    informer.start();
    return { spec, informer, history, recentErrors };
  });
}

/** Handlers registered on running informers, as a shared informer gets them from a late controller. */
function addLateHandlers(tracked: Tracked[], config: ChaosConfig): void {
  for (const t of tracked) {
    t.late = new HandlerHistory(`${t.spec.name} (late handlers)`, t.informer, {
      resyncs: config.resyncPeriodMs !== undefined,
    });
  }
}

/** Stops the informers and closes the world, each under a deadline; returns what failed. */
async function teardown(world: World | undefined, tracked: Tracked[]): Promise<string[]> {
  const failures: string[] = [];
  world?.calm();
  for (const t of tracked) {
    try {
      await withDeadline(t.informer.stop(), 5_000, `${t.spec.name}: stop()`);
    } catch (err) {
      failures.push((err as Error).message);
    }
  }
  if (world) {
    try {
      failures.push(...(await withDeadline(world.close(), 10_000, 'closing the server, proxy and clients')));
    } catch (err) {
      failures.push((err as Error).message);
    }
  }
  return failures;
}

function totalsOf(tracked: Tracked[], world: World | undefined): ChaosTotals {
  const totals = emptyTotals();
  for (const t of tracked) {
    const m = t.informer.watcher.metrics;
    totals.relistsExpired += m.lists.expired;
    totals.relistsOther += m.lists.tooLarge + m.lists.error;
    totals.resumes += m.resumes;
    totals.idleEnds += m.watchEnds.idle;
    totals.errorEnds += m.watchEnds.error;
    totals.errors += m.errors;
    totals.bookmarks += m.bookmarks;
    totals.finalStateUnknownDeletes += t.history.counts.deleteFinalStateUnknown;
  }
  if (world) {
    totals.restarts += world.stats.restarts;
    totals.kills += world.stats.kills;
    totals.failovers += world.stats.failovers;
    const p = world.proxy?.stats;
    if (p) totals.injected += p.status429 + p.status500 + p.resets + p.cuts + p.cutAll + p.errorEvents;
  }
  return totals;
}

/** Rejects with a message naming `what` when `p` takes longer than `ms`. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
