/**
 * Issue 26, item 1: the steady stream of `npm run bench:client` for the
 * floor and client-node (and any other client ids given), profiled on the
 * same server and stream. Starts the benchmark's server child
 * (bench/client/server-child.ts: 2,000 churn pods, EVENTS status updates
 * in its watch cache), then runs steady-profile-child.ts once per client per
 * block, alternating the clients, each process doing WARMUP + RUNS runs of
 * the bench's own runner. Prints per client the median time and CPU, the
 * chunks reaching JS, GC pauses and bytes allocated per event (from
 * `--trace-gc-nvp`'s `allocated=`), and the other processes' CPU over each
 * child (bench/lib/machine-load.ts `otherLoad`).
 *
 *   [EVENTS=n RUNS=n PRE_GC=1 SAMPLE_MS=2 SYNC=2000 NODE_FLAGS='--trace-deopt' PIN=1] \
 *   npx tsx bench/experiments/steady-profile.ts [--profile] [--blocks N] [clients...]
 *   npx tsx bench/experiments/analyze-profile.ts /tmp/steady-prof/floor-*.cpuprofile
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { killAllChildren, startServerChild } from '../client/children.js';
import { CHURN_NAMESPACE, type ClientId, type ClientJob, type ServerInfo } from '../client/plan.js';
import { otherLoad, processCpuMs, readMachineCpu } from '../lib/machine-load.js';
import { median } from '../lib/report.js';

const args = process.argv.slice(2);
const profile = args.includes('--profile');
const blocksAt = args.indexOf('--blocks');
const blocks = blocksAt >= 0 ? Number(args[blocksAt + 1]) : 2;
const clients = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--blocks') as ClientId[];
if (clients.length === 0) clients.push('floor', 'client-node');
const EVENTS = Number(process.env.EVENTS ?? 20_000);
const PODS = 2_000;
const OUT = process.env.OUT ?? '/tmp/steady-prof';
mkdirSync(OUT, { recursive: true });
const CHILD = fileURLToPath(new URL('./steady-profile-child.ts', import.meta.url));

interface RunLine {
  client: string;
  n: number;
  measured: boolean;
  ms: number;
  cpuMs: number;
  chunks: number;
  bytes: number;
  chunkBytes: { p10: number; p50: number; p90: number; max: number };
  gc: Record<string, { count: number; ms: number }>;
  allocatedBytes?: number;
  heapAfterMB?: number;
}

function runChild(server: ServerInfo, client: ClientId): Promise<{ runs: RunLine[]; other?: number }> {
  const job: ClientJob = {
    client,
    phase: 'steady',
    url: server.url,
    namespace: CHURN_NAMESPACE,
    objects: PODS,
    events: EVENTS,
    baseRevision: server.baseRevision,
    sampleMs: 1000,
  };
  const before = readMachineCpu();
  const server0 = processCpuMs(server.pid) ?? 0;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    // PIN=1: the client (all its threads) on CPU 1, the server on CPU 0 (see below).
    const pin = process.env.PIN === '1';
    const child = spawn(
      pin ? 'taskset' : process.execPath,
      [
        ...(pin ? ['-c', '1', process.execPath] : []),
        '--import',
        'tsx',
        '--trace-gc-nvp',
        '--expose-gc',
        '--max-old-space-size=8192',
        // Extra V8 flags for the child, e.g. NODE_FLAGS=--trace-deopt (their output is counted, see DEOPT).
        ...(process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean),
        CHILD,
      ],
      {
        env: {
          ...process.env,
          JOB: JSON.stringify(job),
          RUNS: process.env.RUNS ?? '3',
          WARMUP: '2',
          OUT,
          PROFILE: profile ? '1' : '0',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let text = '';
    child.stdout.on('data', (c: Buffer) => {
      text += c.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${client}: exit ${code}`));
      const runs: RunLine[] = [];
      let allocated = 0;
      let inWindow = false;
      let childCpu = 0;
      for (const line of text.split('\n')) {
        if (line.startsWith('@@start')) {
          inWindow = true;
          allocated = 0;
        } else if (line.startsWith('@@end')) inWindow = false;
        else if (line.startsWith('{"run"')) {
          const r = (JSON.parse(line) as { run: RunLine }).run;
          r.allocatedBytes = allocated;
          runs.push(r);
        } else if (line.startsWith('{"processCpuMs"')) childCpu = JSON.parse(line).processCpuMs;
        else if (
          process.env.NODE_FLAGS &&
          /deoptimiz|bailout|marking .* for optimization|completed optimizing/i.test(line)
        )
          console.log(`  ${client} [${inWindow ? 'in window' : 'outside'}] ${line.slice(0, 160)}`);
        else if (inWindow) {
          const m = / allocated=(\d+)/.exec(line);
          if (m) allocated += Number(m[1]);
        }
      }
      const own = childCpu + ((processCpuMs(server.pid) ?? 0) - server0);
      resolve({
        runs,
        other: otherLoad(before, readMachineCpu(), own, performance.now() - t0)?.otherCpuPercent,
      });
    });
  });
}

const server = await startServerChild({ syncSizes: [2_000], churnPods: PODS, churnEvents: EVENTS }, 300_000);
if (process.env.PIN === '1') execFileSync('taskset', ['-a', '-p', '-c', '0', String(server.info.pid)]);
try {
  console.log(
    `server ready: ${EVENTS} events, ~${Math.round(server.info.podBytes)} bytes/pod; load ${loadavg()[0]}`,
  );
  const all = new Map<string, RunLine[]>();
  for (let b = 0; b < blocks; b++) {
    const order = b % 2 ? [...clients].reverse() : clients;
    for (const c of order) {
      const { runs, other } = await runChild(server.info, c);
      const m = runs.filter((r) => r.measured);
      if (process.env.VERBOSE)
        for (const r of m)
          console.log(
            `  ${c} run ${r.n}: ${r.ms.toFixed(1)} ms, cpu ${r.cpuMs.toFixed(1)}, ${r.chunks} chunks, ` +
              `gc ${JSON.stringify(r.gc)}, allocated ${((r.allocatedBytes ?? 0) / 1e6).toFixed(1)} MB, ` +
              `heap after ${r.heapAfterMB ?? '-'} MB`,
          );
      all.set(c, [...(all.get(c) ?? []), ...m]);
      console.log(
        `block ${b + 1} ${c}: ms ${m.map((r) => r.ms.toFixed(0)).join(' ')}, cpu ${m.map((r) => r.cpuMs.toFixed(0)).join(' ')}; ` +
          `others ${other ?? '-'}% of a core${other !== undefined && other > 10 ? ' (BUSY)' : ''}; load ${loadavg()[0].toFixed(2)}`,
      );
    }
  }
  console.log(
    '\nclient | median ms | median cpu ms | µs/event (wall) | chunks/run | median chunk B | bytes/chunk p10-p90 | GC: scavenges, ms | allocated B/event',
  );
  for (const [c, rs] of all) {
    const scav = median(rs.map((r) => r.gc.scavenge?.count ?? 0));
    const gcMs = median(rs.map((r) => Object.values(r.gc).reduce((s, g) => s + g.ms, 0)));
    console.log(
      [
        c,
        median(rs.map((r) => r.ms)).toFixed(1),
        median(rs.map((r) => r.cpuMs)).toFixed(1),
        ((1000 * median(rs.map((r) => r.ms))) / EVENTS).toFixed(2),
        median(rs.map((r) => r.chunks)),
        median(rs.map((r) => r.bytes / r.chunks)).toFixed(0),
        `${median(rs.map((r) => r.chunkBytes.p10))}-${median(rs.map((r) => r.chunkBytes.p90))} (max ${Math.max(...rs.map((r) => r.chunkBytes.max))})`,
        `${scav}, ${gcMs.toFixed(1)}`,
        (median(rs.map((r) => r.allocatedBytes ?? 0)) / EVENTS).toFixed(0),
      ].join(' | '),
    );
  }
} finally {
  await server.close();
  killAllChildren();
}
