/**
 * Parent-side handle of the API server child process (see server-child.ts):
 * spawn it, ask it for CPU/memory/stat samples, close it. Whoever spawns it
 * owns it: `close()` on the normal path, `kill()` on every other one (the
 * process plumbing, shared with the study, is src/process).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * How clients reach the server child: `http` is plain HTTP (no
 * authentication); `tls` is HTTPS with the serving certificate the server
 * generates for itself, still without authentication (startServer takes
 * `insecureNoAuth` with TLS; only plain HTTP insists on it).
 */
export type Transport = 'http' | 'tls';

/** A running server child, with the CA its clients must trust over TLS. */
export interface BenchServer extends ServerProcess {
  /** PEM of the CA that signed the server's certificate; undefined over plain HTTP. */
  readonly caPem: string | undefined;
}

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
 * `transport: 'tls'` serves HTTPS with a certificate the server generates;
 * its CA comes back as `caPem`, read from the kubeconfig the server writes
 * (`kubeconfigOut`, into a private temporary directory removed at once).
 */
export async function spawnServer(
  options: ServerOptions,
  startTimeoutMs = 30_000,
  { coalesce = true, transport = 'http' }: { coalesce?: boolean; transport?: Transport } = {},
): Promise<BenchServer> {
  const dir = transport === 'tls' ? mkdtempSync(join(tmpdir(), 'watchmark-bench-')) : undefined;
  const kubeconfig = dir && join(dir, 'kubeconfig');
  try {
    const forked = await forkServer<ServerSample>({
      script: CHILD_SCRIPT,
      execArgv: [
        '--import',
        'tsx',
        '--max-old-space-size=4096',
        ...(process.env.WATCHMARK_BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
      ],
      env: {
        WATCHMARK_BENCH_SERVER_OPTIONS: JSON.stringify(
          kubeconfig ? { ...options, kubeconfigOut: kubeconfig } : options,
        ),
        WATCHMARK_BENCH_COALESCE: coalesce ? '1' : '0',
        WATCHMARK_BENCH_TRANSPORT: transport,
      },
      startTimeoutMs,
    });
    try {
      return Object.assign(forked, { caPem: kubeconfig ? kubeconfigCa(kubeconfig) : undefined });
    } catch (err) {
      // Nobody holds the child yet: it is ours to end.
      forked.kill();
      throw err;
    }
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** The `certificate-authority-data` of the kubeconfig the server wrote, decoded (undefined if it has none). */
function kubeconfigCa(path: string): string | undefined {
  const data = /^\s*certificate-authority-data:\s*"?([A-Za-z0-9+/=]+)"?\s*$/m.exec(
    readFileSync(path, 'utf8'),
  )?.[1];
  return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
}
