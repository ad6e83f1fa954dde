/**
 * Parent-side handle of the API server child process (see server-child.ts):
 * spawn it, ask it for CPU/memory/stat samples, close it. Whoever spawns it
 * owns it: `close()` on the normal path, `kill()` on every other one (the
 * process plumbing, shared with the study, is src/process).
 */
import { fileURLToPath } from 'node:url';
import { type ForkedServer, forkServer, killAllForkedServers } from '../../src/process/index.js';
import type { ServerOptions, ServerStats } from '../../src/server/index.js';

/** What the server process reports about itself at one instant. */
export interface ServerSample {
  /** `performance.now()` in the child (ms). */
  at: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Cumulative event-loop active time (ms). */
  eluActiveMs: number;
  stats: ServerStats;
  latestRevision: number;
  /** Watch lines written and the response writes they went out in (servers that count them). */
  watchWrites?: { lines: number; writes: number };
}

/** A running server child. */
export type ServerProcess = ForkedServer<ServerSample>;

const CHILD_SCRIPT = fileURLToPath(new URL('./server-child.ts', import.meta.url));

/** Kills every server child still running (signal handlers call this before exiting). */
export function killAllServers(): void {
  killAllForkedServers();
}

/** The CPU time (ms) the server spent between two samples. */
export function cpuMsBetween(a: ServerSample, b: ServerSample): number {
  return (b.cpuUserUs + b.cpuSystemUs - a.cpuUserUs - a.cpuSystemUs) / 1000;
}

/**
 * Starts the server in a child process (`node --import tsx`) and waits for it
 * to listen. `WATCHMARK_BENCH_SERVER_ARGS` adds node flags to the child, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server under load.
 * `coalesce: false` makes every watch line its own socket write (the
 * behaviour before coalescing), for a side-by-side comparison.
 */
export function spawnServer(
  options: ServerOptions,
  startTimeoutMs = 30_000,
  { coalesce = true }: { coalesce?: boolean } = {},
): Promise<ServerProcess> {
  return forkServer<ServerSample>({
    script: CHILD_SCRIPT,
    execArgv: [
      '--import',
      'tsx',
      '--max-old-space-size=4096',
      ...(process.env.WATCHMARK_BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
    ],
    env: {
      WATCHMARK_BENCH_SERVER_OPTIONS: JSON.stringify(options),
      WATCHMARK_BENCH_COALESCE: coalesce ? '1' : '0',
    },
    startTimeoutMs,
  });
}
