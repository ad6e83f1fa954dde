/**
 * `watchmark rollout status` beside the real `kubectl rollout status` (every
 * kubectl on this machine, each with a fresh HOME and --cache-dir), all
 * watching the same Deployment on one server with the simulated cluster:
 * the same lines, errors and exit codes across a rolling update, a rollout
 * past its progress deadline, a --timeout and a --revision mismatch.
 *
 * To make every watcher see the same sequence of states, each starts while
 * the Deployment is paused (a state that cannot change), and the rollout is
 * resumed only once all of them have printed their first line. kubectl
 * prints a line per watch event (repeating itself); watchmark prints each
 * new line once, so kubectl's output is compared with repeats collapsed.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAll } from '../../src/client/kubectl/apply.js';
import { parseManifests } from '../../src/client/kubectl/manifest.js';
import { watchRolloutStatus } from '../../src/client/rollout/watch.js';
import { findBuiltin } from '../../src/client/watch/resources.js';
import { runCli } from '../helpers/cli.js';
import { findKubectls, requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';
import { KubectlSession } from '../server/kubectl/run.js';
import { deploymentManifest, startCluster, type TestCluster } from './rollout-cluster.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

/** How one command ended. */
interface Ended {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

type Outcome = { ok: true; runs: Ended[] } | { ok: false; error: unknown };

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

function collapse(list: string[]): string[] {
  return list.filter((l, i) => i === 0 || l !== list[i - 1]);
}

describe.skipIf(!haveKubectl)('rollout status, compared with kubectl', () => {
  let cluster: TestCluster;
  const sessions: KubectlSession[] = [];
  const outcomes = new Map<string, Promise<Outcome>>();

  async function apply(manifest: string): Promise<void> {
    const { errors } = await applyAll(cluster.kube, await parseManifests(manifest, 'test.yaml'));
    if (errors.length > 0) throw errors[0];
  }

  async function setPaused(ns: string, name: string, paused: boolean): Promise<void> {
    await cluster.kube.resource('deployments', ns).patch(name, { spec: { paused } });
  }

  async function observed(ns: string, name: string): Promise<void> {
    const deployments = cluster.kube.resource('deployments', ns);
    await waitUntil(
      async () => {
        const d = (await deployments.get(name)) as {
          metadata: { generation: number };
          status?: { observedGeneration?: number };
        };
        return (d.status?.observedGeneration ?? 0) >= d.metadata.generation;
      },
      `the controller to observe deployment ${ns}/${name}`,
      30_000,
      50,
    );
  }

  /**
   * Starts watchmark and every kubectl on `rollout status ARGS -n NS`; once
   * all have printed a line (when `thenResume`), resumes the rollout; resolves
   * when all have exited.
   */
  async function race(ns: string, args: string[], thenResume?: () => Promise<void>): Promise<Ended[]> {
    const wm = runCli(['rollout', 'status', ...args, '-n', ns, '--kubeconfig', cluster.kubeconfig]);
    const kc = sessions.map((s) => ({
      name: s.binary.name,
      run: s.start(['rollout', 'status', ...args, '-n', ns]),
    }));
    if (thenResume) {
      await Promise.all([
        wm.waitForLine(/./, 30_000),
        ...kc.map((k) => k.run.waitFor('a first line', (out) => out.includes('\n'), 30_000)),
      ]);
      await thenResume();
    }
    const ended: Ended[] = [
      { name: 'watchmark', code: await wm.exit, stdout: wm.stdout(), stderr: wm.stderr() },
    ];
    for (const k of kc) {
      const r = await k.run.done;
      ended.push({ name: k.name, code: r.code, stdout: r.stdout, stderr: r.stderr });
    }
    return ended;
  }

  function scenario(name: string, run: () => Promise<Ended[]>): void {
    outcomes.set(
      name,
      run().then(
        (runs): Outcome => ({ ok: true, runs }),
        (error: unknown): Outcome => ({ ok: false, error }),
      ),
    );
  }

  beforeAll(async () => {
    cluster = await startCluster();
    for (const binary of kubectls) {
      const dir = join(cluster.dir, binary.name);
      await mkdir(join(dir, 'home'), { recursive: true });
      sessions.push(new KubectlSession(binary, dir, cluster.kubeconfig, 'unused'));
    }
    const deployments = findBuiltin('deployments')!;

    scenario('rolling update', async () => {
      await apply(deploymentManifest('roll', 'web', 'nginx:1.27'));
      await watchRolloutStatus(cluster.kube, deployments, 'roll', 'web');
      // The new image, paused: every watcher starts on "0 out of 3 new replicas".
      await apply(deploymentManifest('roll', 'web', 'nginx:1.28', { paused: true }));
      await observed('roll', 'web');
      return race('roll', ['deployment/web'], () => setPaused('roll', 'web', false));
    });

    scenario('progress deadline', async () => {
      await apply(
        deploymentManifest('deadline', 'bad', 'fail:5', {
          replicas: 2,
          progressDeadlineSeconds: 2,
          paused: true,
        }),
      );
      await observed('deadline', 'bad');
      return race('deadline', ['deploy/bad'], () => setPaused('deadline', 'bad', false));
    });

    scenario('timeout', async () => {
      await apply(deploymentManifest('timeout', 'held', 'nginx:1.27', { replicas: 2, paused: true }));
      await observed('timeout', 'held');
      return race('timeout', ['deployment', 'held', '--timeout=3s']);
    });

    scenario('revision', async () => {
      await apply(deploymentManifest('rev', 'web', 'nginx:1.27', { replicas: 1 }));
      await watchRolloutStatus(cluster.kube, deployments, 'rev', 'web');
      return race('rev', ['deploy/web', '--revision=2', '--watch=false']);
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(outcomes.values());
    await Promise.all(sessions.map((s) => s.close()));
    await cluster?.close();
  });

  async function runs(name: string): Promise<Ended[]> {
    const outcome = await outcomes.get(name)!;
    if (!outcome.ok) throw outcome.error;
    return outcome.runs;
  }

  function expectSameAsKubectl(ended: Ended[]): void {
    const [wm, ...kc] = ended;
    for (const k of kc) {
      expect({
        name: k.name,
        code: k.code,
        lines: collapse(lines(k.stdout)),
        stderr: lines(k.stderr).join('\n'),
      }).toEqual({
        name: k.name,
        code: wm.code,
        lines: lines(wm.stdout),
        stderr: lines(wm.stderr).join('\n'),
      });
    }
  }

  it('a rolling update: the same lines in the same order, exit 0', async () => {
    const ended = await runs('rolling update');
    const wm = ended[0];
    expect(wm.code, wm.stderr).toBe(0);
    const out = lines(wm.stdout);
    expect(out[0]).toBe(
      'Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...',
    );
    expect(out).toContain(
      'Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...',
    );
    expect(out.at(-1)).toBe('deployment "web" successfully rolled out');
    expectSameAsKubectl(ended);
  });

  it('past the progress deadline: the same error, exit 1', async () => {
    const ended = await runs('progress deadline');
    expect(ended[0].stderr).toBe('error: deployment "bad" exceeded its progress deadline\n');
    expect(ended[0].code).toBe(1);
    expectSameAsKubectl(ended);
  });

  it('--timeout: "timed out waiting for the condition", exit 1', async () => {
    const ended = await runs('timeout');
    expect(ended[0].stderr).toBe('error: timed out waiting for the condition\n');
    expect(ended[0].code).toBe(1);
    expectSameAsKubectl(ended);
  });

  it('--revision that is not running: the same error, exit 1', async () => {
    const ended = await runs('revision');
    expect(ended[0].stderr).toBe('error: desired revision (2) is different from the running revision (1)\n');
    expectSameAsKubectl(ended);
  });
});
