/**
 * One conformance run on one server: a fresh server, the tests split into
 * shards that run side by side (most of a test's time is waiting on the
 * server), then the `[Serial]` tests alone, as ginkgo's parallel mode does.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type E2eResult, runE2e } from './e2e-run.js';
import { type ServerName, startServer } from './servers.js';

/** What one server's run produced. */
export interface ServerRun {
  server: ServerName;
  results: Map<string, E2eResult>;
  /** Seconds from the server's start to the last test's end. */
  seconds: number;
  startMs: number;
}

/** Options of {@link runOnServer}. */
export interface RunOptions {
  repo: string;
  e2eTest: string;
  kubectl: string;
  names: string[];
  workDir: string;
  shards: number;
  timeoutSeconds: number;
  log: (line: string) => void;
}

/** Runs `names` on a fresh `server` and stops it. */
export async function runOnServer(server: ServerName, opts: RunOptions): Promise<ServerRun> {
  const started = Date.now();
  const dir = join(opts.workDir, server);
  mkdirSync(dir, { recursive: true });
  opts.log(`${server}: starting`);
  const running = await startServer(server, opts.repo, dir);
  opts.log(`${server}: ready in ${running.startMs} ms; ${opts.names.length} tests in ${opts.shards} shards`);
  const results = new Map<string, E2eResult>();
  try {
    const parallel = opts.names.filter((n) => !n.includes('[Serial]'));
    const serial = opts.names.filter((n) => n.includes('[Serial]'));
    const shards: string[][] = Array.from({ length: Math.max(1, opts.shards) }, () => []);
    for (const [i, n] of parallel.entries()) shards[i % shards.length]?.push(n);
    const batches = [shards.filter((s) => s.length > 0), serial.length > 0 ? [serial] : []];
    let index = 0;
    for (const batch of batches) {
      const done = await Promise.all(
        batch.map((names) => {
          const workDir = join(dir, `shard-${index++}`);
          mkdirSync(workDir, { recursive: true });
          return runE2e({
            e2eTest: opts.e2eTest,
            kubeconfig: running.kubeconfig,
            kubectl: opts.kubectl,
            names,
            workDir,
            timeoutSeconds: opts.timeoutSeconds,
            log: (line) => opts.log(`${server}: ${line}`),
          });
        }),
      );
      for (const m of done) for (const [k, v] of m) results.set(k, v);
    }
  } finally {
    await running.stop();
  }
  return {
    server,
    results,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    startMs: running.startMs,
  };
}
