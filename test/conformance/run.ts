/**
 * One conformance run on one server: a fresh server, each test in an e2e.test process of its
 * own, several side by side (most of a test's time is waiting on the server), then the
 * `[Serial]` tests one at a time, as ginkgo's parallel mode runs them.
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
    let index = 0;
    // One e2e.test process per test: a test that hangs is stopped by ginkgo's own timeout and
    // reported, without holding the tests queued behind it.
    const runOne = async (name: string) => {
      const workDir = join(dir, `test-${String(index++).padStart(3, '0')}`);
      mkdirSync(workDir, { recursive: true });
      const done = await runE2e({
        e2eTest: opts.e2eTest,
        kubeconfig: running.kubeconfig,
        kubectl: opts.kubectl,
        names: [name],
        workDir,
        // A [Slow] test waits out real intervals (a CronJob's minutes, etcd's 5-minute compaction).
        timeoutSeconds: name.includes('[Slow]') ? Math.max(opts.timeoutSeconds, 900) : opts.timeoutSeconds,
        log: (line) => opts.log(`${server}: ${line}`),
        progressMs: 3_600_000,
      });
      for (const [k, v] of done) results.set(k, v);
      if (results.size % 10 === 0) opts.log(`${server}: ${results.size}/${opts.names.length} done`);
    };
    await pool(parallel, opts.shards, runOne);
    // Serial tests alone, as ginkgo's parallel mode runs them.
    await pool(serial, 1, runOne);
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

/** Runs `work` on every item, at most `width` at a time. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
}
