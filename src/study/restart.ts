/**
 * `watchmark study --restart`: what a checkpoint saves on a process restart
 * (a controller or kubelet deploy). The study's watchers run, then the
 * whole process "restarts": every informer stops (a clean stop writes its
 * checkpoint), the churn goes on for a gap, and a new set of informers
 * starts, once from the checkpoints and once without (each on its own
 * restart, the same gap after a stop). The server's restart work is counted
 * as in the bookmark study: history events examined by the watch starts
 * plus objects listed; also what was sent (events + listed objects) and the
 * lists. Gaps inside and outside the history window.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../client/client.js';
import { type ServerSample, type StudyServer, spawnStudyServer, waitUntil } from '../process/index.js';
import { Churn } from './churn.js';
import { populate, type WatcherClass, watcherSpecs } from './cluster.js';
import { Fleet } from './fleet.js';
import { layoutOf, resolveOptions, type StudyOptions, toReal } from './options.js';
import { round, type Say, serverDelta } from './result.js';

/** One restart measured. */
export interface RestartRow {
  class: WatcherClass;
  watchers: number;
  /** Cluster seconds between the stop and the new start. */
  gapS: number;
  checkpoint: boolean;
  /** Server restart work: init events examined + objects listed. */
  restartWork: number;
  initEventsExamined: number;
  listedObjects: number;
  /** What the restart sent the watchers: history events + listed objects. */
  sent: number;
  lists: number;
  expired: number;
  /** Watchers whose start used their checkpoint. */
  resumed: number;
  /** Server CPU over the restart (ms). */
  serverCpuMs: number;
}

/** The restart study's result (bench/results/study-restart.json). */
export interface RestartStudyResult {
  options: StudyOptions;
  gapsS: number[];
  rows: RestartRow[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs the restart study; each watcher class gets its own fresh server. */
export async function runRestartStudy(
  given: Partial<StudyOptions>,
  gapsS: number[],
  say: Say = console.log,
): Promise<RestartStudyResult> {
  const o = resolveOptions(given);
  const rows: RestartRow[] = [];
  const classes: Array<[WatcherClass, number]> = [
    ['node', o.watchers],
    ['all', Math.max(1, o.namespaceWatchers)],
  ];
  say(
    `watchmark study --restart: ${o.watchers} node watchers and ${classes[1][1]} namespace-wide, ${o.podsPerNode} pods per node, ` +
      `${o.churn} writes/s, history window ${o.historyWindowMs / 1000} s, gaps ${gapsS.join(', ')} s (cluster time, ${o.timeScale}x)`,
  );
  for (const [cls, count] of classes) rows.push(...(await restartsOf(o, cls, count, gapsS, say)));
  const result: RestartStudyResult = { options: o, gapsS, rows };
  await mkdir(o.outDir, { recursive: true });
  await writeFile(join(o.outDir, 'study-restart.json'), `${JSON.stringify(result, null, 2)}\n`);
  say(formatRestartTable(rows));
  return result;
}

async function restartsOf(
  o: StudyOptions,
  cls: WatcherClass,
  count: number,
  gapsS: number[],
  say: Say,
): Promise<RestartRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-restart-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const closers: Array<() => Promise<void> | void> = [() => rm(dir, { recursive: true, force: true })];
  try {
    const server = await spawnStudyServer({
      insecureHttp: true,
      insecureNoAuth: true,
      kubeconfigOut: kubeconfig,
      bookmarkInterval: toReal(o, o.bookmarkIntervalMs),
      bookmarkLead: toReal(o, o.bookmarkLeadMs),
      historyWindow: toReal(o, o.historyWindowMs),
      compactionInterval: toReal(o, 300_000),
      minRequestTimeout: toReal(o, 1_800_000),
      tooLargeWait: toReal(o, 3_000),
    });
    closers.push(() => server.close());
    const kube = await KubeClient.load({ kubeconfig, qps: 0, userAgent: 'watchmark-study' });
    closers.push(() => kube.close());
    const layout = layoutOf(o);
    await populate(kube, layout, o.podsPerNode);
    const churn = new Churn(kube, layout, {
      ratePerSecond: o.churn * o.timeScale,
      seed: o.seed,
      podsPerNode: o.podsPerNode,
    });
    closers.push(() => churn.stop());
    churn.start();
    const specs = watcherSpecs(cls, count, layout);
    const checkpoints = join(dir, 'checkpoints');
    await mkdir(checkpoints);
    const fleetOf = (withCheckpoint: boolean) =>
      new Fleet([kube], specs, o, { bookmarks: true, historyWindowMs: o.historyWindowMs }, (spec, k) =>
        withCheckpoint
          ? {
              checkpoint: {
                path: join(checkpoints, `${spec.name}.checkpoint`),
                identity: (signal) => k.checkpointIdentity('pods', spec.selection, signal),
                intervalMs: toReal(o, 10_000),
              },
            }
          : {},
      );
    const rows: RestartRow[] = [];
    for (const gapS of gapsS) {
      for (const withCheckpoint of [true, false]) {
        // The process before the restart: synced, then two cluster minutes of bookmarks and events.
        const before = fleetOf(true);
        await before.start();
        await sleep(toReal(o, 120_000));
        await before.stop();
        await waitUntil(
          async () => (await server.sample()).stats.openWatchers === 0,
          'the watches to close',
          {
            timeoutMs: 30_000,
          },
        );
        await sleep(toReal(o, gapS * 1000));
        const row = await measureRestart(server, fleetOf(withCheckpoint), o, count);
        rows.push({ class: cls, watchers: count, gapS, checkpoint: withCheckpoint, ...row });
        say(
          `  ${cls} x${count}, gap ${gapS} s, ${withCheckpoint ? 'checkpoint' : 'no checkpoint'}: restart work ${row.restartWork} ` +
            `(${row.initEventsExamined} events examined + ${row.listedObjects} listed), ${row.lists} lists, ${row.resumed} resumed`,
        );
      }
    }
    return rows;
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/** Starts `fleet` and counts the server's work until every watch is open and the counters stand still. */
async function measureRestart(
  server: StudyServer,
  fleet: Fleet,
  o: StudyOptions,
  count: number,
): Promise<Omit<RestartRow, 'class' | 'watchers' | 'gapS' | 'checkpoint'>> {
  const base = await server.sample();
  try {
    await fleet.start();
    await waitUntil(async () => (await server.sample()).stats.openWatchers >= count, 'the watches', {
      timeoutMs: 60_000,
    });
    // Settled: restart work unchanged over three samples a cluster second apart (410s and relists included).
    let last = -1;
    let still = 0;
    let end: ServerSample = base;
    while (still < 3) {
      await sleep(toReal(o, 1_000));
      end = await server.sample();
      const work = end.stats.initEventsExamined + sumOf(end.stats.listObjects);
      still = work === last ? still + 1 : 0;
      last = work;
    }
    const d = serverDelta(base, end);
    return {
      restartWork: d.initEventsExamined + d.listObjects,
      initEventsExamined: d.initEventsExamined,
      listedObjects: d.listObjects,
      sent: d.initEventsSent + d.listObjects,
      lists: d.lists,
      expired: d.expiredSent,
      resumed: fleet.members.filter((m) => m.informer.checkpoint?.status.resumed).length,
      serverCpuMs: round(d.cpuMs, 0),
    };
  } finally {
    await fleet.stop();
  }
}

const sumOf = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

/** The table printed and pasted into docs/bookmarks.md. */
export function formatRestartTable(rows: RestartRow[]): string {
  const head =
    '| watchers | gap | start | restart work (examined + listed) | sent | lists | 410s | resumed |';
  const lines = [head, '|---|---|---|---|---|---|---|---|'];
  for (const r of rows)
    lines.push(
      `| ${r.watchers} ${r.class} | ${r.gapS} s | ${r.checkpoint ? 'checkpoint' : 'list'} | ${r.restartWork} (${r.initEventsExamined} + ${r.listedObjects}) | ${r.sent} | ${r.lists} | ${r.expired} | ${r.resumed} |`,
    );
  return lines.join('\n');
}
