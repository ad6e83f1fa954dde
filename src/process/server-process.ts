/**
 * Parent side of the study's server process (server-child.ts): fork it, ask
 * it for exact counters, close it. The study's runs and the benchmarks that
 * measure the same server (bench:reconnect) spawn it; whoever spawns a
 * server owns it and closes it on every path. The forking is server-fork.ts.
 */

import { packageScript } from '../protocol/package-files.js';
import type { ServerOptions, ServerStats } from '../server/index.js';
import { forkServer } from './server-fork.js';

/** The server's counters and resource use at one instant. */
export interface ServerSample {
  /** CPU time (user + system) of the server process so far, in µs. */
  cpuUs: number;
  rssBytes: number;
  /** The exact counters (the same as `GET /debug/watchmark/stats`). */
  stats: ServerStats;
  /** The server's event-loop delay since the last {@link StudyServer.resetDelay}: max and 99th percentile, ms. */
  delayMaxMs: number;
  delayP99Ms: number;
  /** The resourceVersion the watch caches have reached. */
  latestRevision: number;
}

/** A running server process. */
export interface StudyServer {
  readonly url: string;
  /** A fresh sample; rejects if the child does not answer within `timeoutMs` or dies. */
  sample(timeoutMs?: number): Promise<ServerSample>;
  /** Starts the event-loop delay measurement over (at a run's baseline). */
  resetDelay(): void;
  /** Closes the server and waits for the process to exit (killing it after `timeoutMs`). */
  close(timeoutMs?: number): Promise<void>;
}

/** Forks a watchmark API server with `options` and resolves once it listens. */
export async function spawnStudyServer(
  options: ServerOptions,
  startTimeoutMs = 30_000,
): Promise<StudyServer> {
  const script = packageScript('process/server-child');
  const child = await forkServer<ServerSample>({
    script: script.path,
    execArgv: [...script.execArgv, '--max-old-space-size=2048'],
    env: { WATCHMARK_STUDY_SERVER: JSON.stringify(options) },
    startTimeoutMs,
  });
  return {
    url: child.url,
    sample: (timeoutMs) => child.sample(timeoutMs),
    resetDelay: () => child.send({ type: 'reset-delay' }),
    close: (timeoutMs) => child.close(timeoutMs),
  };
}
