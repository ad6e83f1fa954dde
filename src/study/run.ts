/**
 * One run of the study: a fresh API server (so every counter starts at
 * zero), the standing pods, the churn started and the watchers synced, then the
 * run's duration while the counters are sampled, then the proof that no
 * event was missed. Everything started here is closed here, on every path.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { KubeClient } from '../client/client.js';
import {
  readMachineCpu,
  type ServerSample,
  type StudyServer,
  spawnStudyServer,
  stealPercent,
  waitUntil,
} from '../process/index.js';
import { type ChurnSample, type ChurnWriter, spawnChurnWriter } from './churn-process.js';
import { populate, type WatcherClass } from './cluster.js';
import { type ClientTotals, diffTotals, Fleet, type FleetMember } from './fleet.js';
import { layoutOf, type StudyOptions, toReal } from './options.js';
import {
  type RunPoint,
  type RunResult,
  type RunSpec,
  round,
  type Say,
  serverDelta,
  stallLimitMs,
} from './result.js';
import { verifyCaches } from './verify.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `p`, or a rejection after `ms` naming `what`. */
async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a run's measurement needs: the server, a client for the checks, the churn, the watchers. */
interface Cluster {
  server: StudyServer;
  admin: KubeClient;
  churn: ChurnWriter;
  fleet: Fleet;
}

type Closers = Array<() => Promise<void> | void>;

const secondsSince = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;

/**
 * A fresh server, the standing pods, the churn running, and the run's
 * watchers synced and watching. The churn starts before the selective
 * watchers (kubelets, racks, zones) so that none of their watches starts or
 * restarts on a history without churn, however long the sync takes on a
 * loaded machine. Namespace-wide watchers sync before it: they list every
 * pod (50,000 at 5,000 nodes), which takes seconds of real time that the
 * time scale does not compress, longer than a compressed history window (2.5
 * s at 30x); listed while writes go on, their first watch would be 410-expired
 * and relist, again and again. Listed before the churn, nothing can expire
 * their resourceVersion; seeing every write, they never fall behind later.
 */
async function setUp(
  opts: StudyOptions,
  spec: RunSpec,
  dir: string,
  closers: Closers,
  say: Say,
): Promise<Cluster> {
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await spawnStudyServer({
    // Plain HTTP: TLS would cost both sides CPU that has nothing to do with bookmarks.
    insecureHttp: true,
    insecureNoAuth: true,
    kubeconfigOut: kubeconfig,
    bookmarkInterval: toReal(opts, opts.bookmarkIntervalMs),
    bookmarkLead: toReal(opts, opts.bookmarkLeadMs),
    historyWindow: toReal(opts, spec.historyWindowMs),
    compactionInterval: toReal(opts, 300_000),
    minRequestTimeout: toReal(opts, 1_800_000),
    tooLargeWait: toReal(opts, 3_000),
  });
  closers.push(() => server.close());
  const load = () => KubeClient.load({ kubeconfig, qps: 0, userAgent: 'watchmark-study' });
  const admin = await load();
  closers.push(() => admin.close());
  const kubes: KubeClient[] = [];
  for (let i = 0; i < opts.transports; i++) kubes.push(await load());
  closers.push(() => Promise.all(kubes.map((k) => k.close())).then(() => {}));

  const t0 = performance.now();
  const created = await populate(admin, layoutOf(opts), opts.podsPerNode);
  say(`    ${created} pods created in ${secondsSince(t0)}`);
  const churn = await spawnChurnWriter({
    kubeconfig,
    layout: layoutOf(opts),
    churn: { ratePerSecond: opts.churn * opts.timeScale, seed: opts.seed, podsPerNode: opts.podsPerNode },
  });
  closers.push(() => churn.close());
  const fleet = new Fleet(kubes, spec.watchers, opts, spec);
  closers.push(() => fleet.stop());
  const seesAll = (m: FleetMember) => m.spec.class === 'all';
  const wide = fleet.members.filter(seesAll).length;
  const t1 = performance.now();
  // Informers retry forever; a run whose watchers cannot sync (a dead server) must fail instead.
  if (wide > 0) {
    await withTimeout(fleet.start(seesAll), 120_000, 'the namespace-wide watchers to sync');
    say(`    ${wide} namespace-wide watchers synced in ${secondsSince(t1)}, before the churn`);
  }
  churn.start();
  const t2 = performance.now();
  await withTimeout(fleet.start(), 120_000, 'the watchers to sync');
  if (wide < fleet.members.length)
    say(`    ${fleet.members.length - wide} watchers synced in ${secondsSince(t2)}`);
  // Every watcher must be watching before the baseline, so that only restarts are measured:
  // a watcher whose first watch was refused (410) is still relisting, and its relist would
  // be counted as the run's. Checked per watcher on the client side: the server's count of
  // open watches never reaches the total at 5,000 watchers, because by then hundreds of
  // watches restart every second and a few are always between two requests.
  // Every watcher is asked at every poll (not `every`, which stops at the first false):
  // each needs two looks a turn of the event loop apart.
  await waitUntil(
    () => fleet.members.filter((m) => !m.source.hasWatched()).length === 0,
    'every watch to hold',
    { timeoutMs: 60_000 },
  );
  // The initial lists keep the server busy and writes queue up meanwhile: let them drain.
  await waitUntil(async () => (await churn.sample()).inFlight <= 5, 'the writes queued during the sync', {
    timeoutMs: 30_000,
  });
  return { server, admin, churn, fleet };
}

/** The counters at one instant, on both sides. */
interface Snapshot {
  server: ServerSample;
  churn: ChurnSample;
  clients: ClientTotals;
  byClass: Map<WatcherClass, ClientTotals>;
  progress: ReturnType<Fleet['progress']>;
}

async function snapshot(c: Cluster, classes: WatcherClass[]): Promise<Snapshot> {
  const [server, churn] = await Promise.all([c.server.sample(), c.churn.sample()]);
  return {
    server,
    churn,
    clients: c.fleet.totals(),
    byClass: new Map(classes.map((cls) => [cls, c.fleet.totals(cls)])),
    progress: c.fleet.progress(),
  };
}

/** The churn for the run's duration, sampling the counters about 60 times. */
async function measure(opts: StudyOptions, spec: RunSpec, c: Cluster, closers: Closers, say: Say) {
  const classes = [...new Set(spec.watchers.map((w) => w.class))];
  const { churn } = c;
  // Messages to the writer are ordered: the baseline's sample comes after the reset.
  churn.resetPeak();
  const base = await snapshot(c, classes);
  const cpu = process.cpuUsage();
  const machine = readMachineCpu();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  closers.push(() => {
    delay.disable();
  });
  c.server.resetDelay();
  const timeline: RunPoint[] = [];
  const durationReal = toReal(opts, spec.durationMs);
  const sampleEvery = Math.max(100, Math.round(durationReal / 60));
  const started = performance.now();
  let reported = 0;
  for (;;) {
    await sleep(Math.min(sampleEvery, Math.max(0, started + durationReal - performance.now())));
    const elapsed = performance.now() - started;
    // The window closes on the writes too: the same number of them in every run.
    if (elapsed >= durationReal) await churn.stop();
    const [serverNow, churnNow] = await Promise.all([c.server.sample(), churn.sample()]);
    const d = serverDelta(base.server, serverNow);
    const p = c.fleet.progress();
    const point: RunPoint = {
      minute: round((elapsed * opts.timeScale) / 60_000, 2),
      restartWork: d.initEventsExamined + d.listObjects,
      initEventsExamined: d.initEventsExamined,
      listedObjects: d.listObjects,
      relists: p.relists - base.progress.relists,
      expired: d.expiredSent,
      bookmarks: d.bookmarksSent,
    };
    timeline.push(point);
    if (elapsed >= durationReal) break;
    if (elapsed >= ((reported + 1) * durationReal) / 5) {
      reported++;
      say(
        `    ${point.minute.toFixed(1)}/${spec.durationMs / 60_000} min: ${churnNow.writes - base.churn.writes} writes, ` +
          `${p.restarts - base.progress.restarts} watch restarts, ${point.relists} relists, ` +
          `${point.expired} 410s, restart work ${point.restartWork}`,
      );
    }
  }
  const end = await snapshot(c, classes);
  const watchersCpu = process.cpuUsage(cpu);
  const churnCpuMs = (end.churn.cpuUs - base.churn.cpuUs) / 1000;
  delay.disable();
  const clientMax = delay.max / 1e6;
  // Event-loop delays catch every stall of either process (a process descheduled by a busy
  // machine fires its timers late too); a slow write alone may be one TCP hiccup: reported only.
  const worst = Math.max(clientMax, end.server.delayMaxMs);
  return {
    disturbed: worst > stallLimitMs(opts),
    serverDelayMs: { p99: round(end.server.delayP99Ms, 1), max: round(end.server.delayMaxMs, 1) },
    classes,
    base,
    end,
    timeline,
    churn: {
      creates: end.churn.stats.creates - base.churn.stats.creates,
      updates: end.churn.stats.updates - base.churn.stats.updates,
      deletes: end.churn.stats.deletes - base.churn.stats.deletes,
      failed: end.churn.stats.failed,
      maxInFlight: end.churn.stats.maxInFlight,
      maxLatencyMs: round(end.churn.stats.maxLatencyMs, 1),
      writes: end.churn.writes - base.churn.writes,
    },
    realSeconds: (performance.now() - started) / 1000,
    stealPercent: stealPercent(machine, readMachineCpu()),
    clientCpuMs: round((watchersCpu.user + watchersCpu.system) / 1000 + churnCpuMs, 0),
    churnCpuMs: round(churnCpuMs, 0),
    eventLoopDelayMs: {
      p50: round(delay.percentile(50) / 1e6, 1),
      p99: round(delay.percentile(99) / 1e6, 1),
      max: round(clientMax, 1),
    },
  };
}

/** Runs `spec` on a fresh server and returns what it measured; everything it started is closed. */
export async function runOnce(opts: StudyOptions, spec: RunSpec, say: Say): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-study-'));
  const closers: Closers = [() => rm(dir, { recursive: true, force: true })];
  try {
    const cluster = await setUp(opts, spec, dir, closers, say);
    const m = await measure(opts, spec, cluster, closers, say);
    const t = performance.now();
    const verify = await verifyCaches(cluster.admin, cluster.fleet.members, {
      deadlineMs: Math.max(5_000, toReal(opts, 30_000)),
      retryMs: 250,
    });
    say(
      `    caches vs server: ${verify.watchers} watchers, ${verify.objects} objects, ` +
        `${verify.missing + verify.extra + verify.stale} differences, ` +
        `${verify.serverDisagreements} server disagreements (${secondsSince(t)})`,
    );
    const server = serverDelta(m.base.server, m.end.server);
    return {
      id: spec.id,
      label: spec.label,
      bookmarks: spec.bookmarks,
      historyWindowMs: spec.historyWindowMs,
      watchers: Object.fromEntries(
        m.classes.map((c) => [c, spec.watchers.filter((w) => w.class === c).length]),
      ),
      clusterMinutes: round((m.realSeconds * opts.timeScale) / 60, 2),
      realSeconds: round(m.realSeconds, 2),
      restartWork: server.initEventsExamined + server.listObjects,
      server,
      clients: diffTotals(m.end.clients, m.base.clients),
      clientsByClass: Object.fromEntries(
        m.classes.map((c) => [c, diffTotals(m.end.byClass.get(c)!, m.base.byClass.get(c)!)]),
      ),
      clientCpuMs: m.clientCpuMs,
      churnCpuMs: m.churnCpuMs,
      eventLoopDelayMs: m.eventLoopDelayMs,
      serverDelayMs: m.serverDelayMs,
      stealPercent: m.stealPercent,
      disturbed: m.disturbed,
      attempt: 1,
      churn: m.churn,
      verify,
      timeline: m.timeline,
    };
  } finally {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (err) {
        say(`    cleanup failed: ${(err as Error).message}`);
      }
    }
  }
}
