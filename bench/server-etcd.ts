/**
 * The price of real etcd under the API server, memory store vs etcd store in
 * one run: saturated write throughput (16 concurrent writers) and the
 * write-to-watch latency at a paced 200 writes/s (10 namespace watchers; the
 * clock starts before the POST and stops when the ADDED event arrives).
 * The server runs in this process, over the in-memory store and then over a
 * real etcd (members on loopback, data on tmpfs) with the same load.
 *
 *   npm run bench:etcd                  # full run, writes bench/results/server-etcd.json
 *   npm run bench:etcd -- --quick       # smoke run, no JSON
 *   npm run bench:etcd -- --members 3   # a 3-member etcd cluster
 *
 * Targets (reported, never asserted): memory not more than 20x faster on
 * writes; etcd-backed watch delivery under 100 ms p99 at 200 writes/s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '../src/process/index.js';
import {
  type EtcdCluster,
  findEtcdBinary,
  type RunningServer,
  startEtcdCluster,
  startServer,
} from '../src/server/index.js';
import { buildPod } from '../src/sim/index.js';
import { forEachBounded, httpExpect, onJsonLines } from '../support/http.js';
import { type LatencySummary, round, summarize, table } from './lib/report.js';

const WRITES_RATIO_TARGET = 20;
const P99_TARGET_MS = 100;
const OUT = fileURLToPath(new URL('./results/server-etcd.json', import.meta.url));

interface Args {
  quick: boolean;
  members: number;
}

interface StoreResult {
  store: string;
  writesPerSecond: number;
  latency: LatencySummary | undefined;
  pacedWritesPerSecond: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, members: 1 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--quick') args.quick = true;
    else if (argv[i] === '--members') args.members = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; usage: npm run bench:etcd -- [--quick] [--members N]`);
  }
  if (!Number.isInteger(args.members) || args.members < 1)
    throw new Error('--members wants a positive integer');
  return args;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** As many writes as 16 writers manage in `ms`: ConfigMap creates. */
async function saturated(server: RunningServer, agent: Agent, ms: number, tag: string): Promise<number> {
  const until = Date.now() + ms;
  let written = 0;
  const started = Date.now();
  await forEachBounded(16, 16, async (w) => {
    for (let i = 0; Date.now() < until; i++) {
      await httpExpect(agent, server.url, 'POST', '/api/v1/namespaces/bench/configmaps', [201], {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${tag}-${w}-${i}` },
        data: { payload: 'x'.repeat(512) },
      });
      written++;
    }
  });
  return written / ((Date.now() - started) / 1000);
}

/** A namespace-wide pod watch from now that reports when each pod's ADDED arrives. */
async function podWatch(server: RunningServer, onAdded: (name: string) => void): Promise<() => void> {
  const rv = server.latestRevision();
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(`/api/v1/namespaces/bench/pods?watch=1&resourceVersion=${rv}`, server.url),
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`watch: HTTP ${res.statusCode}`));
        onJsonLines(res, (line) => {
          const e = line as { type: string; object: { metadata?: { name?: string } } };
          if (e.type === 'ADDED') onAdded(e.object.metadata?.name ?? '');
        });
        res.on('error', () => {});
        resolve(() => req.destroy());
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Pod creates paced at `perSecond` for `ms`, with 10 watchers timing each event from before its POST. */
async function paced(
  server: RunningServer,
  agent: Agent,
  perSecond: number,
  ms: number,
): Promise<{ latency: LatencySummary | undefined; rate: number }> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const closers = await Promise.all(
    Array.from({ length: 10 }, () =>
      podWatch(server, (name) => {
        const t = sentAt.get(name);
        if (t !== undefined) latencies.push(performance.now() - t);
      }),
    ),
  );
  const started = Date.now();
  const inFlight: Promise<unknown>[] = [];
  let n = 0;
  while (Date.now() - started < ms) {
    const due = started + (n * 1000) / perSecond;
    if (due > Date.now()) await sleep(due - Date.now());
    const name = `lat-${n++}`;
    sentAt.set(name, performance.now());
    inFlight.push(
      httpExpect(agent, server.url, 'POST', '/api/v1/namespaces/bench/pods', [201], buildPod(name)),
    );
  }
  await Promise.all(inFlight);
  const rate = n / ((Date.now() - started) / 1000);
  // Events still missing after 5 s are left out of the summary, not waited for.
  await pollUntil(() => latencies.length >= n * 10, { timeoutMs: 5_000, intervalMs: 20 });
  for (const close of closers) close();
  return { latency: summarize(latencies), rate };
}

async function measure(store: string, server: RunningServer, quick: boolean): Promise<StoreResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  try {
    await httpExpect(agent, server.url, 'POST', '/api/v1/namespaces', [201], {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'bench' },
    });
    await saturated(server, agent, quick ? 500 : 1_500, 'warm');
    const writesPerSecond = await saturated(server, agent, quick ? 2_000 : 8_000, 'cm');
    const { latency, rate } = await paced(server, agent, 200, quick ? 2_000 : 6_000);
    return { store, writesPerSecond: round(writesPerSecond), latency, pacedWritesPerSecond: round(rate) };
  } finally {
    agent.destroy();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (!findEtcdBinary())
    throw new Error('etcd not found: set WATCHMARK_ETCD, put etcd on PATH, or run bash reference/build.sh');
  const base = {
    disableAdmissionPlugins: ['ServiceAccount'] as string[],
    insecureHttp: true,
    insecureNoAuth: true,
    compactionInterval: 0,
  } as const;
  const results: StoreResult[] = [];
  const memory = await startServer(base);
  try {
    results.push(await measure('memory', memory, args.quick));
  } finally {
    await memory.close();
  }
  let etcd: EtcdCluster | undefined;
  let server: RunningServer | undefined;
  try {
    etcd = await startEtcdCluster({ members: args.members });
    server = await startServer({ ...base, etcd: { endpoints: etcd.endpoints } });
    results.push(
      await measure(`etcd (${args.members} member${args.members > 1 ? 's' : ''}, tmpfs)`, server, args.quick),
    );
  } finally {
    await server?.close();
    await etcd?.close();
  }
  const [mem, onEtcd] = results;
  const ratio = round(mem.writesPerSecond / onEtcd.writesPerSecond, 2);
  const p99 = onEtcd.latency?.p99;
  console.log(
    table(
      ['store', 'writes/s (16 writers)', 'paced writes/s', 'watch p50 ms', 'watch p99 ms', 'events'],
      results.map((r) => [
        r.store,
        r.writesPerSecond,
        r.pacedWritesPerSecond,
        r.latency?.p50,
        r.latency?.p99,
        r.latency?.count,
      ]),
    ),
  );
  const writesOk = ratio <= WRITES_RATIO_TARGET;
  const latencyOk = p99 !== undefined && p99 < P99_TARGET_MS;
  console.log(
    `memory/etcd write ratio ${ratio}x (target <= ${WRITES_RATIO_TARGET}x: ${writesOk ? 'met' : 'MISSED'}); ` +
      `etcd watch p99 ${p99} ms at 200 writes/s (target < ${P99_TARGET_MS} ms: ${latencyOk ? 'met' : 'MISSED'})`,
  );
  if (!args.quick) {
    mkdirSync(dirname(OUT), { recursive: true });
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      note: 'server, writers and watchers in one process; etcd on loopback with data on tmpfs',
      results,
      writeRatio: ratio,
      targets: {
        writeRatio: { target: WRITES_RATIO_TARGET, value: ratio, met: writesOk },
        etcdWatchP99Ms: { target: P99_TARGET_MS, value: p99, met: latencyOk },
      },
    };
    writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${OUT}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
