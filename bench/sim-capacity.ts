/**
 * Capacity of the simulated cluster: 100 nodes and 3,000 pods. The API
 * server runs in a child process (its CPU and memory measured alone); the
 * simulation (controllers, scheduler, garbage collector, 100 kubelets) runs
 * here, as clients of it. Three phases, each timed until the cluster
 * settles:
 *
 *   scale-up        create the Deployment(s) until every replica is Available
 *   rolling-update  change the image until the rollout completes
 *   delete          delete the Deployment(s) (Background) until no pod is left
 *
 *   npm run bench:sim                                     # 100 nodes, 1 x 3,000 replicas
 *   npm run bench:sim -- --quick                          # 10 nodes, 300 replicas, no JSON
 *   npm run bench:sim -- --nodes 100 --replicas 3000 --deployments 3 [--out FILE]
 *
 * Report-only: figures are printed and written to bench/results/sim-capacity.json,
 * never asserted. The sim's CPU includes this driver's polling (one list per second).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeClient } from '../src/index.js';
import { waitUntil } from '../src/process/index.js';
import { buildDeployment, startSimulation } from '../src/sim/index.js';
import { otherLoad, readMachineCpu } from './lib/machine-load.js';
import { round, table } from './lib/report.js';
import { cpuMsBetween, killAllServers, type ServerSample, spawnServer } from './lib/server-process.js';

const DEFAULT_OUT = fileURLToPath(new URL('./results/sim-capacity.json', import.meta.url));
const NAMESPACE = 'bench';

interface Args {
  quick: boolean;
  nodes: number;
  replicas: number;
  deployments: number;
  out: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, nodes: 100, replicas: 3000, deployments: 1, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') Object.assign(args, { quick: true, nodes: 10, replicas: 300, out: undefined });
    else if (a === '--nodes') args.nodes = Number(value());
    else if (a === '--replicas') args.replicas = Number(value());
    else if (a === '--deployments') args.deployments = Number(value());
    else if (a === '--out') args.out = resolve(value());
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** A kubeconfig for the plain-HTTP, no-auth bench server. */
function writeKubeconfig(dir: string, url: string): string {
  const path = join(dir, 'kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'bench', cluster: { server: url } }],
    users: [{ name: 'bench', user: {} }],
    contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench', namespace: NAMESPACE } }],
    'current-context': 'bench',
  };
  writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}

interface PhaseResult {
  phase: string;
  wallSeconds: number;
  eventsWritten: number;
  eventsPerSecond: number;
  eventsFiltered: number;
  eventsDropped: number;
  serverWrites: number;
  serverWritesPerSecond: number;
  serverCpuPercent: number;
  serverRssPeakMiB: number;
  simCpuPercent: number;
  simRssPeakMiB: number;
  controllerRetries: number;
  otherCpuPercent: number | undefined;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'watchmark-bench-sim-'));
  say(
    `sim capacity: ${args.nodes} nodes, ${args.deployments} x ${args.replicas / args.deployments} replicas`,
  );
  const server = await spawnServer({});
  const kube = await KubeClient.load({ kubeconfig: writeKubeconfig(dir, server.url), qps: 0 });
  let peakServerRss = 0;
  let peakSimRss = 0;
  let lastServer: ServerSample = await server.sample();
  const sampler = setInterval(() => {
    peakSimRss = Math.max(peakSimRss, process.memoryUsage().rss);
    server
      .sample()
      .then((s) => {
        lastServer = s;
        peakServerRss = Math.max(peakServerRss, s.rssBytes);
      })
      .catch(() => undefined);
  }, 1000);
  const logLines: string[] = [];
  const started = Date.now();
  const sim = await startSimulation({
    kubeconfig: join(dir, 'kubeconfig'),
    nodes: args.nodes,
    log: (line) => {
      if (logLines.push(line) <= 5) say(`  sim: ${line}`);
    },
  });
  const startupSeconds = (Date.now() - started) / 1000;
  say(`simulation ready in ${round(startupSeconds, 2)} s (${sim.nodes.length} nodes Ready)`);
  await kube.resource('namespaces').create({ metadata: { name: NAMESPACE } });
  const deployments = kube.resource('deployments', NAMESPACE);
  const names = Array.from({ length: args.deployments }, (_, i) => `web-${i}`);
  const perDeployment = Math.floor(args.replicas / args.deployments);

  const rolledOut = async (): Promise<string> => {
    const list = await deployments.list();
    let available = 0;
    let done = 0;
    for (const d of list.items as any[]) {
      const s = d.status ?? {};
      available += s.availableReplicas ?? 0;
      const n = d.spec.replicas;
      if (
        d.metadata.generation <= (s.observedGeneration ?? 0) &&
        s.updatedReplicas === n &&
        s.replicas === n &&
        s.availableReplicas === n
      )
        done++;
    }
    return done === names.length ? 'done' : `${available} available`;
  };
  const noPods = async (): Promise<string> => {
    const list = await kube.resource('pods', NAMESPACE).list({ limit: 1 });
    const left = list.items.length + (list.metadata.remainingItemCount ?? 0);
    return left === 0 ? 'done' : `${left} pods left`;
  };

  const results: PhaseResult[] = [];
  const phase = async (name: string, act: () => Promise<void>, settled: () => Promise<string>) => {
    const before = {
      sim: sim.stats(),
      server: await server.sample(),
      cpu: process.cpuUsage(),
      machine: readMachineCpu(),
    };
    peakServerRss = before.server.rssBytes;
    peakSimRss = process.memoryUsage().rss;
    const t0 = Date.now();
    await act();
    let lastReport = t0;
    let state = '';
    await waitUntil(
      async () => {
        state = await settled();
        if (state !== 'done' && Date.now() - lastReport > 5000) {
          say(`  ${name}: ${state} after ${round((Date.now() - t0) / 1000, 1)} s`);
          lastReport = Date.now();
        }
        return state === 'done';
      },
      () => `${name} to settle (${state})`,
      { timeoutMs: 600_000, intervalMs: 1000 },
    );
    const wallMs = Date.now() - t0;
    const after = { sim: sim.stats(), server: await server.sample(), cpu: process.cpuUsage(before.cpu) };
    const ev = (k: 'created' | 'patched' | 'filtered' | 'dropped') =>
      after.sim.events[k] - before.sim.events[k];
    const retries = Object.keys(after.sim.controllers).reduce(
      (n, c) => n + after.sim.controllers[c].failures - before.sim.controllers[c].failures,
      0,
    );
    const serverCpu = cpuMsBetween(before.server, after.server);
    const simCpu = (after.cpu.user + after.cpu.system) / 1000;
    const written = ev('created') + ev('patched');
    const writes = after.server.stats.writes - before.server.stats.writes;
    results.push({
      phase: name,
      wallSeconds: round(wallMs / 1000, 2),
      eventsWritten: written,
      eventsPerSecond: round((1000 * written) / wallMs, 1),
      eventsFiltered: ev('filtered'),
      eventsDropped: ev('dropped'),
      serverWrites: writes,
      serverWritesPerSecond: round((1000 * writes) / wallMs, 1),
      serverCpuPercent: round((100 * serverCpu) / wallMs, 1),
      serverRssPeakMiB: round(Math.max(peakServerRss, after.server.rssBytes) / 2 ** 20, 1),
      simCpuPercent: round((100 * simCpu) / wallMs, 1),
      simRssPeakMiB: round(Math.max(peakSimRss, process.memoryUsage().rss) / 2 ** 20, 1),
      controllerRetries: retries,
      otherCpuPercent: otherLoad(before.machine, readMachineCpu(), serverCpu + simCpu, wallMs)
        ?.otherCpuPercent,
    });
    say(`  ${name}: settled in ${round(wallMs / 1000, 2)} s`);
  };

  try {
    await phase(
      'scale-up',
      async () => {
        for (const n of names) await deployments.create(buildDeployment(n, { replicas: perDeployment }));
      },
      rolledOut,
    );
    await phase(
      'rolling-update',
      async () => {
        const patch = {
          spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } },
        };
        for (const n of names) await deployments.patch(n, patch, 'strategic');
      },
      rolledOut,
    );
    await phase(
      'delete',
      async () => {
        for (const n of names) await deployments.delete(n, { propagationPolicy: 'Background' });
      },
      noPods,
    );
  } finally {
    clearInterval(sampler);
    await sim.stop();
    await kube.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }

  say('');
  say(
    table(
      [
        'phase',
        'wall s',
        'events',
        'events/s',
        'writes/s',
        'server CPU %',
        'server RSS MiB',
        'sim CPU %',
        'sim RSS MiB',
        'retries',
        'other CPU %',
      ],
      results.map((r) => [
        r.phase,
        r.wallSeconds,
        r.eventsWritten,
        r.eventsPerSecond,
        r.serverWritesPerSecond,
        r.serverCpuPercent,
        r.serverRssPeakMiB,
        r.simCpuPercent,
        r.simRssPeakMiB,
        r.controllerRetries,
        r.otherCpuPercent,
      ]),
    ),
  );
  say('(CPU % is of one core; sim CPU includes this driver; other CPU is everything else on the machine)');
  if (logLines.length > 0) say(`${logLines.length} sim log lines (first: ${logLines[0]})`);
  if (!args.out) return;
  const report = {
    benchmark: 'sim-capacity',
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
    },
    params: { nodes: args.nodes, replicas: args.replicas, deployments: args.deployments, timing: 'defaults' },
    startupSeconds: round(startupSeconds, 2),
    phases: results,
    simLogLines: logLines.length,
    serverStats: lastServer.stats,
  };
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
  say(`wrote ${relative(process.cwd(), args.out)}`);
}

main().catch((err: Error) => {
  killAllServers();
  process.stderr.write(`sim-capacity: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
