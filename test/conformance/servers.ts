/**
 * The two servers the conformance tests run against, each started as its
 * users start it:
 * - watchmark: the CLI, `watchmark serve --simulate --controllers '*'` (its
 *   controllers, the simulated cluster's controllers, scheduler and kubelets);
 * - the reference: kube-apiserver, etcd and kube-controller-manager with the
 *   controllers that need no kubelet (the *cluster* profile).
 */
import { join } from 'node:path';
import { startReferenceServer } from '../../src/process/index.js';
import { type CliSource, startWatchmark } from './controller-runtime/watchmark-serve.js';

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
  const serve = await startWatchmark(
    repo,
    source,
    workDir,
    join(workDir, 'watchmark.log'),
    60_000,
    WATCHMARK_SERVE_ARGS,
  );
  return { name: 'watchmark', kubeconfig: serve.kubeconfig, startMs: Date.now() - started, stop: serve.stop };
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
