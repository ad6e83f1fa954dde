/**
 * A fresh watchmark API server per package, started as a user starts it: the
 * CLI (`watchmark serve`), shaped as envtest shapes kube-apiserver (no
 * controller manager beside it, ServiceAccount admission off). The CLI writes
 * `--kubeconfig-out` only once the server is ready, so the file's appearance
 * is the readiness signal.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { waitUntil } from '../../../src/process/index.js';
import { spawnOwned, stopTree } from './processes.js';

/** A running `watchmark serve`. */
export interface WatchmarkServe {
  /** The kubeconfig the CLI wrote for it. */
  kubeconfig: string;
  /** Stops the CLI (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
}

/** How to run the CLI: compiled `dist/` (after `npm run build`) or the sources through tsx. */
export type CliSource = 'dist' | 'tsx';

/** The command line that starts the CLI from `repo`. */
export function cliCommand(repo: string, source: CliSource): string[] {
  if (source === 'dist') return [process.execPath, join(repo, 'dist/cli/main.js')];
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  return [process.execPath, tsx, join(repo, 'src/cli/main.ts')];
}

/** envtest's shape: no controller manager beside it, ServiceAccount admission off. */
export const ENVTEST_SERVE_ARGS = ['--disable-admission-plugins', 'ServiceAccount'];

/**
 * Starts `watchmark serve` with `serveArgs` (default: envtest's shape) writing its kubeconfig
 * into `workDir`; the CLI's stdout and stderr go to `logFile`. Rejects if it exits or is not
 * ready within `startTimeoutMs`.
 */
export async function startWatchmark(
  repo: string,
  source: CliSource,
  workDir: string,
  logFile: string,
  startTimeoutMs = 60_000,
  serveArgs: readonly string[] = ENVTEST_SERVE_ARGS,
): Promise<WatchmarkServe> {
  const kubeconfig = join(workDir, 'kubeconfig');
  const [command, ...prefix] = cliCommand(repo, source);
  const log = createWriteStream(logFile);
  await new Promise((resolve) => log.once('open', resolve));
  const args = [...prefix, 'serve', '--kubeconfig-out', kubeconfig, ...serveArgs];
  const child = spawnOwned(command, args, {
    cwd: repo,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
      { timeoutMs: startTimeoutMs, intervalMs: 100 },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { kubeconfig, stop };
}
