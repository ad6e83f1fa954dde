/**
 * Issue 26, item 1: the quick mode's own plumbing (bench/client/child.ts
 * workers, bench/client/server-child.ts server, 2,000 pods, 10,000
 * events), reduced to the clients named on the command line, steady phase
 * (and, with --sync, each client's sync run before its steady run, as the
 * quick mode does), in paired rounds with the order rotated. Prints each
 * round's figures, the other processes' CPU over the round, and the medians.
 *
 *   [PIN=1] npx tsx bench/experiments/steady-workers.ts [--sync] [--rounds N] [--settle MS] floor client-node ...
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { placeServer, startClientWorker, startServerChild } from '../client/children.js';
import { CHURN_NAMESPACE, type ClientId, type ClientJob, syncNamespace } from '../client/plan.js';
import { otherLoad, processCpuMs, readMachineCpu } from '../lib/machine-load.js';
import { median } from '../lib/report.js';

const args = process.argv.slice(2);
const withSync = args.includes('--sync');
const settleAt = args.indexOf('--settle');
/** Pause (ms) before each steady job, to let the server finish whatever the previous job left it. */
const settleMs = settleAt >= 0 ? Number(args[settleAt + 1]) : 0;
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 6;
const clients = args.filter(
  (a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds' && args[i - 1] !== '--settle',
) as ClientId[];
const SIZE = 2_000;
const EVENTS = Number(process.env.EVENTS ?? 10_000);

const server = await startServerChild({ syncSizes: [SIZE], churnPods: SIZE, churnEvents: EVENTS }, 300_000);
// PIN=1: the server on CPU 0, each worker on CPU 1 (bench/client/children.ts).
const placement = process.env.PIN === '1' ? 'pinned' : 'unpinned';
placeServer(server.info.pid, placement);
const workers = await Promise.all(clients.map((c) => startClientWorker(c, 60_000, placement)));
try {
  const job = (client: ClientId, phase: 'sync' | 'steady'): ClientJob => ({
    client,
    phase,
    url: server.info.url,
    namespace: phase === 'sync' ? syncNamespace(SIZE) : CHURN_NAMESPACE,
    objects: SIZE,
    events: EVENTS,
    baseRevision: server.info.baseRevision,
    sampleMs: 2,
  });
  const ms = new Map<ClientId, number[]>();
  const cpu = new Map<ClientId, number[]>();
  const srv = new Map<ClientId, number[]>();
  const ownCpu = () =>
    [server.info.pid, ...workers.map((w) => w.pid)].reduce((s, p) => s + (processCpuMs(p) ?? 0), 0);
  for (let n = 0; n < rounds; n++) {
    const before = readMachineCpu();
    const own0 = ownCpu();
    const t0 = performance.now();
    const line: string[] = [];
    for (let i = 0; i < clients.length; i++) {
      const k = (i + n) % clients.length;
      const c = clients[k];
      if (withSync) await workers[k].run(job(c, 'sync'), 120_000);
      if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
      const s0 = processCpuMs(server.info.pid) ?? 0;
      const r = await workers[k].run(job(c, 'steady'), 120_000);
      // The server's CPU over the whole steady job (its list and watch; /proc's 10 ms ticks).
      const serverMs = (processCpuMs(server.info.pid) ?? 0) - s0;
      if (n > 0) {
        ms.set(c, [...(ms.get(c) ?? []), r.ms]);
        cpu.set(c, [...(cpu.get(c) ?? []), r.cpuMs]);
        srv.set(c, [...(srv.get(c) ?? []), serverMs]);
      }
      line.push(`${c} ${r.ms.toFixed(0)} ms (cpu ${r.cpuMs.toFixed(0)}, server ${serverMs})`);
    }
    const other = otherLoad(
      before,
      readMachineCpu(),
      ownCpu() - own0,
      performance.now() - t0,
    )?.otherCpuPercent;
    console.log(
      `round ${n + 1}${n === 0 ? ' (warm-up)' : ''}: ${line.join(', ')}; others ${other ?? '-'}%${other !== undefined && other > 10 ? ' BUSY' : ''}, load ${loadavg()[0].toFixed(2)}`,
    );
  }
  for (const c of clients)
    console.log(
      `${c}: median ${median(ms.get(c) ?? []).toFixed(1)} ms, cpu ${median(cpu.get(c) ?? []).toFixed(1)} ms, ` +
        `server cpu over the job ${median(srv.get(c) ?? []).toFixed(0)} ms`,
    );
} finally {
  await Promise.all(workers.map((w) => w.close()));
  await server.close();
}
