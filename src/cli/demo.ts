/**
 * `watchmark demo` (also `npm start`): the user story end to end in one
 * process, in about half a minute. An API server with the simulated cluster;
 * a Deployment applied and followed until ready; then an image update
 * followed while the history is compacted, the next bookmark arrives and
 * every watch is dropped. The summary shows the rollout's watches resuming
 * from their bookmarks without a relist, beside a watcher without bookmarks
 * that had to relist after a 410.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { KubeClient } from '../client/client.js';
import type { FollowedEvent, RolloutFollower } from '../client/rollout/follow.js';
import type { Watcher } from '../client/watch/watcher.js';
import { pollUntil } from '../process/index.js';
import type { KubeObject } from '../protocol/events.js';
import { type RunningServer, startServer } from '../server/index.js';
import { buildDeployment, buildNamespace, startSimulation } from '../sim/index.js';
import { checkEvents, describeTotals, totals, type WatchTotals } from './demo-report.js';
import { CliError } from './errors.js';
import { CLEAR_LINE, type Output, stdout } from './progress.js';
import { runRolloutFollow } from './rollout-follow.js';

const NAMESPACE = 'demo';
/** Short but realistic: a bookmark a second (kube-apiserver: a minute), so the demo need not wait long for one. */
const BOOKMARK_INTERVAL_MS = 1_000;

/** What the demo applies: its namespace and Deployment `web`, 3 replicas of `image`. */
function manifest(image: string): KubeObject[] {
  return [
    buildNamespace(NAMESPACE),
    buildDeployment('web', { namespace: NAMESPACE, labels: { app: 'web' }, replicas: 3, image, ports: [80] }),
  ];
}

/** Options of {@link runDemo}. */
export interface DemoOptions {
  out?: Output;
  /** Simulated kubelet step delays (ms). */
  timing?: { pullMs?: number; createMs?: number; startMs?: number; readyMs?: number };
  /**
   * Serve the live view at /ui (`--ui`): print its login link, wait up to
   * `waitForPageMs` (default 60 s) for a page to open before the story
   * starts, and keep everything up after the summary until `keepUp` resolves.
   */
  ui?: { keepUp: () => Promise<void>; waitForPageMs?: number };
}

/** What the demo measured (for tests). */
export interface DemoResult {
  ok: boolean;
  missed: number;
  shownTwice: number;
  relistsWithBookmarks: number;
  relistsWithoutBookmarks: number;
}

/** Runs the demo; everything it starts is closed before it resolves. */
export async function runDemo(opts: DemoOptions = {}): Promise<DemoResult> {
  const out = opts.out ?? stdout;
  const say = (text = '') => out.write(`${text}\n`);
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-demo-'));
  const cleanup: Array<() => Promise<void> | void> = [() => rm(dir, { recursive: true, force: true })];
  try {
    say(
      'watchmark demo: deploy, follow the events until ready, then a rolling update through a compaction and dropped watches',
    );
    say();
    say(
      `[1/4] API server (a bookmark every ${BOOKMARK_INTERVAL_MS / 1000} s per watch) and a simulated cluster`,
    );
    const server = await startServer({
      kubeconfigOut: join(dir, 'kubeconfig'),
      bookmarkInterval: BOOKMARK_INTERVAL_MS,
      bookmarkLead: 500,
      compactionInterval: 0,
      ui: opts.ui !== undefined,
      // No serviceaccount controller makes the `default` account the plugin would require of
      // the simulation's pods: off, as envtest runs kube-apiserver.
      disableAdmissionPlugins: ['ServiceAccount'],
    });
    cleanup.unshift(() => server.close());
    const sim = await startSimulation({
      kubeconfig: join(dir, 'kubeconfig'),
      nodes: 3,
      timing: { pullMs: 600, createMs: 150, startMs: 250, readyMs: 400, ...opts.timing },
    });
    cleanup.unshift(() => sim.stop());
    const kube = await KubeClient.load({ kubeconfig: join(dir, 'kubeconfig') });
    cleanup.unshift(() => kube.close());
    say(`      server ${server.url}, nodes ${sim.nodes.join(', ')}`);
    if (opts.ui) await waitForPage(server, say, opts.ui.waitForPageMs ?? 60_000);

    // The contrast: two watchers of the same quiet selection (pods of an app that has none
    // here), one asking for bookmarks and one not. Nothing they watch changes, so without
    // bookmarks a watcher's resourceVersion stays where its list left it.
    const quiet = { namespace: NAMESPACE, labelSelector: 'app=db' };
    const withBookmarks = kube.watcher('pods', quiet, { bookmarks: true });
    const withoutBookmarks = kube.watcher('pods', quiet, { bookmarks: false });
    const drains = [withBookmarks, withoutBookmarks].map((w) => drain(w));
    cleanup.unshift(async () => {
      withBookmarks.stop();
      withoutBookmarks.stop();
      await Promise.all(drains);
    });

    say();
    say(`[2/4] kubectl-style apply of ${NAMESPACE}/web (3 replicas of nginx:1.27), following it until ready`);
    const shown: FollowedEvent[] = [];
    const first = await runRolloutFollow(kube, {
      objects: manifest('nginx:1.27'),
      source: 'demo.yaml',
      out: indent(out),
      onEvent: (e) => shown.push(e),
    });
    if (first.error) throw new CliError(first.error);

    say();
    say(
      '[3/4] Rolling update to nginx:1.28; meanwhile: compact the history, wait for a bookmark, drop every watch',
    );
    let strike: Promise<Strike> | undefined;
    let follower: RolloutFollower | undefined;
    let print: (line: string) => void = say;
    const second = await runRolloutFollow(kube, {
      objects: manifest('nginx:1.28'),
      source: 'demo.yaml',
      out: indent(out),
      onFollowing: (f, p) => {
        follower = f;
        print = p;
      },
      onEvent: (e) => {
        shown.push(e);
        // Strike mid-rollout, as soon as the new ReplicaSet starts scaling up.
        if (!strike && follower && e.event.reason === 'ScalingReplicaSet') {
          const rollout = follower;
          strike = (async () => {
            const compactedAt = await server.compact();
            print(
              `>> compacted the history at resourceVersion ${compactedAt}: older ones now answer 410 Expired`,
            );
            const watchers = () => [...rollout.metrics().map((m) => m.metrics), withBookmarks.metrics];
            const caughtUp = await pollUntil(
              () => watchers().every((m) => Number(m.resourceVersion) >= compactedAt),
              { timeoutMs: 5_000 },
            );
            print(
              caughtUp
                ? `>> bookmark: every watch with bookmarks holds a resourceVersion >= ${compactedAt} (quiet watcher: ${withBookmarks.metrics.resourceVersion})`
                : `>> no bookmark past ${compactedAt} within 5 s for every watch: dropping anyway (some will relist)`,
            );
            const dropped = server.dropWatches();
            print(`>> dropped all ${dropped} watch streams mid-rollout`);
            return { compactedAt, dropped, stuckAt: withoutBookmarks.metrics.resourceVersion };
          })();
        }
      },
    });
    if (second.error) {
      // The strike's own failure (if any) is secondary to the rollout's.
      await strike?.catch(() => undefined);
      throw new CliError(second.error);
    }
    if (!strike) throw new CliError('the rolling update showed no ScalingReplicaSet event to strike on');
    const { compactedAt, dropped, stuckAt } = await strike;
    // The watcher without bookmarks reconnects after a backoff: let it meet its 410.
    await pollUntil(() => withoutBookmarks.metrics.lists.expired > 0 && withBookmarks.metrics.resumes > 0, {
      timeoutMs: 10_000,
    });

    say();
    say(`[4/4] Summary (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const eventsWatch = second.follower.metrics().find((m) => m.name.startsWith('events/'));
    const check = await checkEvents(
      kube,
      NAMESPACE,
      shown,
      Number(eventsWatch?.metrics.resourceVersion ?? 0),
    );
    const skipped = first.follower.duplicatesSkipped + second.follower.duplicatesSkipped;
    const rollout = totals(second.follower.metrics().map((m) => m.metrics));
    const quietWith = totals([withBookmarks.metrics]);
    const quietWithout = totals([withoutBookmarks.metrics]);
    const row = (label: string, text: string) => say(`  ${label.padEnd(32)} ${text}`);
    row('rollouts', `2 (create, then nginx:1.27 -> nginx:1.28), both successfully rolled out`);
    row(
      'events',
      `${shown.length} shown as they happened; ${check.missed.length} missed, ${check.shownTwice.length} shown twice (checked against the server's list; ${skipped} re-deliveries skipped)`,
    );
    row(
      'compaction',
      `at resourceVersion ${compactedAt}, mid-rollout; then ${dropped} watch streams dropped`,
    );
    const verdict = (t: WatchTotals, good: string) =>
      t.relists === 0 ? good : `relisted ${t.relists} time(s): bookmarks did not arrive in time`;
    row(
      `rolling update's ${rollout.watchers} informers`,
      `${describeTotals(rollout)}: ${verdict(rollout, 'each resumed from its last bookmark, no relist')}`,
    );
    row(
      'quiet watcher WITH bookmarks',
      `${describeTotals(quietWith)}: ${verdict(quietWith, `resumed at resourceVersion ${quietWith.lastResourceVersion}, no relist`)}`,
    );
    row(
      'quiet watcher WITHOUT bookmarks',
      `${describeTotals(quietWithout)}: ${
        quietWithout.expired > 0
          ? `its resourceVersion ${stuckAt} was compacted away: 410 Expired, then a full relist`
          : 'no 410 (yet): its reconnect had not happened when the summary was taken'
      }`,
    );
    if (opts.ui) {
      // Listen for Ctrl-C before saying so: a user (or a test) may press it as soon as the line shows.
      const interrupted = opts.ui.keepUp();
      say();
      say(`The live view stays up (server, simulated cluster and watchers): ${server.uiLoginUrl()}`);
      say('Press the buttons to compact and drop again; Ctrl-C stops everything.');
      await interrupted;
    }
    const ok =
      check.missed.length === 0 &&
      check.shownTwice.length === 0 &&
      rollout.relists === 0 &&
      quietWithout.relists > 0;
    return {
      ok,
      missed: check.missed.length,
      shownTwice: check.shownTwice.length,
      relistsWithBookmarks: rollout.relists + quietWith.relists,
      relistsWithoutBookmarks: quietWithout.relists,
    };
  } finally {
    for (const close of cleanup) await close();
  }
}

/** Prints the live view's link and waits until a page has it open (or `ms` pass), so the story is seen from its start. */
async function waitForPage(server: RunningServer, say: (text?: string) => void, ms: number): Promise<void> {
  say(`      live view (this link logs in once): ${server.uiLoginUrl()}`);
  if (server.uiPagesOpen() > 0) return;
  say(`      open it now: the demo goes on when the page is open, or in ${Math.round(ms / 1000)} s`);
  await pollUntil(() => server.uiPagesOpen() > 0, { timeoutMs: ms });
}

interface Strike {
  compactedAt: number;
  dropped: number;
  stuckAt: string;
}

/** Reads a watcher until it is stopped (its events are not shown; its counters are). */
async function drain(watcher: Watcher): Promise<void> {
  for await (const _ of watcher) {
    // Counted by the watcher's metrics.
  }
}

/** `text` split around every `separator`, the separators kept as parts. */
function splitKeeping(text: string, separator: string): string[] {
  return text.split(separator).flatMap((part, i) => (i > 0 ? [separator, part] : [part]));
}

/** Indents everything written by two spaces, the live status line included. */
function indent(out: Output): Output {
  let lineStart = true;
  return {
    write(text) {
      let indented = '';
      // A newline or the live line's "back to column 0 and clear" starts a line.
      const pieces = text
        .split('\n')
        .flatMap((line, i) => [...(i > 0 ? ['\n'] : []), ...splitKeeping(line, CLEAR_LINE)]);
      for (const part of pieces) {
        if (part === '') continue;
        if (part === '\n' || part === CLEAR_LINE) {
          indented += part;
          lineStart = true;
          continue;
        }
        indented += lineStart ? `  ${part}` : part;
        lineStart = false;
      }
      out.write(indented);
    },
    isTTY: out.isTTY,
    columns: out.columns ? out.columns - 2 : undefined,
  };
}

/** `watchmark demo`. */
export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'see bookmarks at work in about 10 s: a server, a simulated cluster, a rollout through dropped watches',
    )
    .option('--ui', 'serve the live view of the watches at /ui and keep it up after the demo, until Ctrl-C')
    .action(async (flags: { ui?: boolean }) => {
      const result = await runDemo(flags.ui ? { ui: { keepUp: untilInterrupted } } : {});
      if (!result.ok) throw new CliError('the demo did not go as planned (see above)');
    });
}

/** Resolves on Ctrl-C or SIGTERM. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
