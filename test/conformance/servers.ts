/**
 * The two servers the conformance tests run against, each started as its
 * users start it:
 * - watchmark: the CLI, `watchmark serve --simulate --controllers '*'` (its
 *   controllers, the simulated cluster's controllers, scheduler and kubelets);
 * - the reference: kube-apiserver, etcd and kube-controller-manager with the
 *   controllers that need no kubelet (the *cluster* profile).
 */
import { createWriteStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startReferenceServer, waitUntil } from '../../src/process/index.js';
import { spawnOwned, stopTree } from './controller-runtime/processes.js';
import { type CliSource, cliCommand } from './controller-runtime/watchmark-serve.js';

/** Which server. */
export type ServerName = 'watchmark' | 'reference';

/** A running server with an admin kubeconfig. */
export interface RunningServer {
  name: ServerName;
  kubeconfig: string;
  /** Milliseconds until it answered. */
  startMs: number;
  stop(): Promise<void>;
}

/** The flags `watchmark serve` gets here, written into the report. */
export const WATCHMARK_SERVE_ARGS = ['--simulate', '--controllers', '*'];

/** Starts `watchmark serve` (compiled `dist/`, or the sources through tsx) writing its kubeconfig and log into `workDir`. */
export async function startWatchmarkServe(
  repo: string,
  workDir: string,
  source: CliSource = 'dist',
): Promise<RunningServer> {
  const started = Date.now();
  const kubeconfig = join(workDir, 'kubeconfig');
  const logFile = join(workDir, 'watchmark.log');
  const [command, ...prefix] = cliCommand(repo, source);
  const log = createWriteStream(logFile);
  await new Promise((resolve) => log.once('open', resolve));
  const child = spawnOwned(
    command as string,
    [...prefix, 'serve', '--kubeconfig-out', kubeconfig, ...WATCHMARK_SERVE_ARGS],
    {
      cwd: repo,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let exitCode: number | null | undefined;
  child.once('exit', (code) => {
    exitCode = code;
  });
  const stop = async () => {
    await stopTree(child);
    log.end();
  };
  try {
    await waitUntil(
      () => {
        if (exitCode !== undefined) throw new Error(`watchmark serve exited (${exitCode}); see ${logFile}`);
        return existsSync(kubeconfig);
      },
      'watchmark serve to write its kubeconfig',
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { name: 'watchmark', kubeconfig, startMs: Date.now() - started, stop };
}

/** Starts the reference control plane in its cluster profile. */
export async function startReference(): Promise<RunningServer> {
  const started = Date.now();
  const ref = await startReferenceServer({ profile: 'cluster', log: null });
  return {
    name: 'reference',
    kubeconfig: ref.kubeconfigPath,
    startMs: Date.now() - started,
    stop: () => ref.close(),
  };
}

/** Starts one by name. */
export function startServer(name: ServerName, repo: string, workDir: string): Promise<RunningServer> {
  return name === 'watchmark' ? startWatchmarkServe(repo, workDir) : startReference();
}
