/**
 * `watchmark rollout -f` end to end against a server and the simulated
 * cluster: success, a progress deadline, --timeout, a deleted Deployment,
 * and rollouts during which the history is compacted and every watch is
 * dropped, with no event missed or shown twice (checked against the
 * server's own list of events).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEvents } from '../../src/cli/demo-report.js';
import { CLEAR_LINE, type Output, ProgressPrinter } from '../../src/cli/progress.js';
import { type FollowReport, type FollowRun, runRolloutFollow } from '../../src/cli/rollout-follow.js';
import { parseManifests } from '../../src/client/kubectl/manifest.js';
import type { FollowedEvent, RolloutFollower } from '../../src/client/rollout/follow.js';
import { runCli } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';
import { deploymentManifest, relists, startCluster, type TestCluster } from './rollout-cluster.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.close();
});

/** Runs `rollout -f` in process on a manifest; resolves with the report, the output and the events shown. */
async function follow(manifest: string, extra: Partial<FollowRun> = {}) {
  let text = '';
  const out: Output = { write: (t) => (text += t), isTTY: false };
  const shown: FollowedEvent[] = [];
  const report: FollowReport = await runRolloutFollow(cluster.kube, {
    objects: await parseManifests(manifest, 'test.yaml'),
    source: 'test.yaml',
    out,
    err: out,
    ...extra,
    onEvent: (e) => {
      shown.push(e);
      extra.onEvent?.(e);
    },
  });
  return { report, output: () => text, shown };
}

/** Strikes once, at the first ScalingReplicaSet of the run (mid-rollout). */
function strikeOnScaling(strike: (follower: RolloutFollower) => Promise<void>) {
  let follower: RolloutFollower | undefined;
  let done: Promise<void> | undefined;
  const extra: Partial<FollowRun> = {
    onFollowing: (f) => {
      follower = f;
    },
  };
  return {
    extra,
    onEvent(e: FollowedEvent) {
      if (!done && follower && e.event.reason === 'ScalingReplicaSet') done = strike(follower);
    },
    struck: () => done,
  };
}

function reasons(shown: FollowedEvent[]): Set<string> {
  return new Set(shown.map((e) => `${e.ref.split('/')[0]}:${e.event.reason}`));
}

describe('rollout -f', () => {
  it('follows a rolling update through compaction and dropped watches: resumes from bookmarks, no event missed or twice', async () => {
    const ns = 'resume';
    const first = await follow(deploymentManifest(ns, 'web', 'nginx:1.27'));
    expect(first.report.error).toBeUndefined();
    expect(first.output()).toContain('deployment.apps/web created\n');
    expect(first.output().trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    for (const r of [
      'deployment:ScalingReplicaSet',
      'replicaset:SuccessfulCreate',
      'pod:Scheduled',
      'pod:Pulled',
      'pod:Started',
    ]) {
      expect(reasons(first.shown)).toContain(r);
    }
    expect(first.output()).toMatch(
      /^\d\d:\d\d:\d\d Normal {2}ScalingReplicaSet {2}deployment\/web +Scaled up replica set web-\w+ from 0 to 3$/m,
    );

    let dropped = 0;
    const strike = strikeOnScaling(async (follower) => {
      const compactedAt = await cluster.server.compact();
      // Wait for the next bookmark of every watch: then none needs history from before the compaction.
      await waitUntil(
        () => follower.metrics().every((m) => Number(m.metrics.resourceVersion) >= compactedAt),
        'bookmarks past the compaction',
        10_000,
        25,
      );
      dropped = cluster.server.dropWatches();
    });
    const second = await follow(deploymentManifest(ns, 'web', 'nginx:1.28'), {
      ...strike.extra,
      onEvent: (e) => strike.onEvent(e),
    });
    await strike.struck();
    expect(second.report.error).toBeUndefined();
    expect(second.shown.length).toBeGreaterThan(10);
    expect(dropped).toBeGreaterThanOrEqual(4);
    const metrics = second.report.follower.metrics().map((m) => m.metrics);
    expect(relists(metrics)).toBe(0);
    expect(metrics.reduce((n, m) => n + m.resumes, 0)).toBeGreaterThanOrEqual(4);
    expect(reasons(second.shown)).toContain('pod:Killing');

    const eventsRV = Number(
      second.report.follower.metrics().find((m) => m.name.startsWith('events/'))!.metrics.resourceVersion,
    );
    const check = await checkEvents(cluster.kube, ns, [...first.shown, ...second.shown], eventsRV);
    expect(check).toEqual({ missed: [], shownTwice: [] });
  });

  it('survives a 410 relist too (no bookmarks, compaction, drop): no event missed or twice', async () => {
    const ns = 'relist';
    const first = await follow(deploymentManifest(ns, 'web', 'nginx:1.27', { replicas: 2 }));
    expect(first.report.error).toBeUndefined();
    const strike = strikeOnScaling(async () => {
      await cluster.server.compact();
      cluster.server.dropWatches();
    });
    const second = await follow(deploymentManifest(ns, 'web', 'nginx:1.28', { replicas: 2 }), {
      ...strike.extra,
      informer: { bookmarks: false },
      onEvent: (e) => strike.onEvent(e),
    });
    await strike.struck();
    expect(second.report.error).toBeUndefined();
    expect(second.shown.length).toBeGreaterThan(10);
    // Without bookmarks the informers' resourceVersions lag behind the compaction: some must relist.
    expect(relists(second.report.follower.metrics().map((m) => m.metrics))).toBeGreaterThanOrEqual(1);
    const eventsRV = Number(
      second.report.follower.metrics().find((m) => m.name.startsWith('events/'))!.metrics.resourceVersion,
    );
    const check = await checkEvents(cluster.kube, ns, [...first.shown, ...second.shown], eventsRV);
    expect(check).toEqual({ missed: [], shownTwice: [] });
  });

  it('fails past the progress deadline, printing the Warning events that explain why', async () => {
    const run = await follow(
      deploymentManifest('deadline', 'bad', 'registry.example/fail:1', {
        replicas: 2,
        progressDeadlineSeconds: 2,
      }),
    );
    expect(run.report.error).toBe('deployment "bad" exceeded its progress deadline');
    const out = run.output();
    const explained = out.slice(out.indexOf('Warning events for deployment "bad":\n'));
    expect(explained).toMatch(
      /^ {2}\d\d:\d\d:\d\d Warning Failed +pod\/bad-\w+-\w+ +Failed to pull image "registry.example\/fail:1"/m,
    );
    expect(run.report.outcomes[0]).toMatchObject({ ok: false });
  });

  it('applies as kubectl apply validates by default: an unknown field is an error, not a warning', async () => {
    const manifest = deploymentManifest('strict', 'web', 'nginx:1.27').replace(
      '"progressDeadlineSeconds"',
      '"bogus":1,"progressDeadlineSeconds"',
    );
    expect(manifest).toContain('"bogus":1');
    await expect(follow(manifest)).rejects.toThrow('strict decoding error: unknown field "spec.bogus"');
  });

  it('gives up at --timeout with the warnings so far, and when the Deployment is deleted', async () => {
    const slow = await follow(deploymentManifest('slow', 'stuck', 'fail:2', { replicas: 1 }), {
      timeoutMs: 1500,
    });
    expect(slow.report.error).toBe('timed out waiting for the condition');
    expect(slow.output()).toContain('Warning events for deployment "stuck":\n');

    const gone = await follow(deploymentManifest('gone', 'doomed', 'fail:3', { replicas: 1 }), {
      onFollowing: () => {
        void cluster.kube.resource('deployments', 'gone').delete('doomed');
      },
    });
    expect(gone.report.error).toBe('deployment "doomed" was deleted');
  });

  it('as a command: exit 0 and kubectl lines when ready; one-line error and exit 1 on --timeout', async () => {
    const good = await cluster.file(
      'good.yaml',
      deploymentManifest('cli', 'web', 'nginx:1.27', { replicas: 2 }),
    );
    const bad = await cluster.file('bad.yaml', deploymentManifest('cli', 'bad', 'fail:4', { replicas: 1 }));
    const ok = runCli(['rollout', '-f', good, '--kubeconfig', cluster.kubeconfig]);
    const late = runCli(['rollout', '-f', bad, '--kubeconfig', cluster.kubeconfig, '--timeout', '2s']);
    expect(await ok.exit, ok.stderr()).toBe(0);
    expect(ok.stdout()).toMatch(/^namespace\/cli (created|unchanged)\ndeployment\.apps\/web created\n/);
    expect(ok.stdout()).toMatch(/ Normal {2}Started +pod\/web-/);
    expect(ok.stdout().trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    expect(await late.exit).toBe(1);
    expect(late.stderr()).toBe('error: timed out waiting for the condition\n');
    expect(late.stdout()).toContain('Warning events for deployment "bad":\n');
  });
});

describe('ProgressPrinter', () => {
  it('keeps one live status line under the events on a terminal, plain lines otherwise', () => {
    let tty = '';
    const live = new ProgressPrinter({ write: (t) => (tty += t), isTTY: true, columns: 60 }, () => 1_000);
    live.status(
      'ns/web',
      'Waiting for deployment "web" rollout to finish: 0 of 3 updated replicas are available...',
    );
    live.line('12:00:00 Normal  Started  pod/web-1  Started container web');
    live.status('ns/web', 'deployment "web" successfully rolled out');
    live.close();
    const screen = tty.split(CLEAR_LINE);
    expect(screen.at(-1)).toBe('');
    expect(screen).toContain('12:00:00 Normal  Started  pod/web-1  Started container web\n');
    // Cut to the terminal's width: a wrapped line could not be rewritten in place.
    expect(screen.filter((s) => s.startsWith('⠋') || s.startsWith('⠙')).every((s) => s.length <= 59)).toBe(
      true,
    );
    expect(screen.some((s) => s.endsWith('deployment "web" successfully rolled out'))).toBe(true);

    let plain = '';
    const lines = new ProgressPrinter({ write: (t) => (plain += t), isTTY: false });
    lines.status('ns/web', 'a');
    lines.status('ns/web', 'a');
    lines.line('event');
    lines.status('ns/web', 'b');
    lines.close();
    expect(plain).toBe('a\nevent\nb\n');
  });
});
