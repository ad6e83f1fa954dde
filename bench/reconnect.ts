/**
 * Reconnect benchmark: the client's own CPU for one watch restart that
 * cannot reuse its connection (a list, a watch from its resourceVersion,
 * and the stream closed by the client, as after a cut or a stop), watchmark
 * against @kubernetes/client-node in the same process, over TLS with a
 * token (what every real cluster asks) and, for scale, over plain HTTP.
 *
 *   npm run bench:reconnect                    # writes bench/results/reconnect.json
 *   npm run bench:reconnect -- [--out FILE] [--skip-build] [--cycles N] [--rounds N]
 *
 * Two watchmark API servers, each in its own process (one TLS, one plain HTTP), hold 10 pods on
 * a node; each client lists that node's pods with a field selector, watches
 * from the list's resourceVersion with bookmarks, and closes the watch as
 * soon as it is open: a closed chunked answer cannot go back to the
 * connection pool, so every cycle opens a new connection (and on TLS a new
 * handshake). Clients run interleaved in rounds, 4 cycles at a time; the
 * figure is the client process's CPU per cycle (the servers are other
 * processes), median over rounds. Targets are reported, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllForkedServers, type StudyServer, spawnStudyServer } from '../src/process/index.js';
import { buildPod } from '../src/sim/index.js';
import { readMachineCpu } from './lib/machine-load.js';
import { round, table } from './lib/report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_OUT = fileURLToPath(new URL('./results/reconnect.json', import.meta.url));
const NAMESPACE = 'reconnect';
const NODE = 'node-1';
const PODS = 10;
const CONCURRENCY = 4;
/** watchmark's CPU per reconnect over TLS against client-node's: at most this. */
const TARGET_VS_CLIENT_NODE = 1.0;

interface Args {
  out: string;
  build: boolean;
  cycles: number;
  rounds: number;
}

const USAGE = 'usage: npm run bench:reconnect -- [--out FILE] [--skip-build] [--cycles N] [--rounds N]';

function parseArgs(argv: string[]): Args {
  const args: Args = { out: DEFAULT_OUT, build: true, cycles: 300, rounds: 7 };
  const count = (flag: string, v: string | undefined) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`${flag} wants a positive whole number, not ${JSON.stringify(v)}\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--skip-build') args.build = false;
    else if (a === '--out') {
      const v = argv[++i];
      if (!v) throw new Error(`--out wants a file\n${USAGE}`);
      args.out = v;
    } else if (a === '--cycles') args.cycles = count(a, argv[++i]);
    else if (a === '--rounds') args.rounds = count(a, argv[++i]);
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${JSON.stringify(a)}\n${USAGE}`);
  }
  return args;
}

/** One list + watch + close, resolved once the watch is open and closed again. */
type Cycle = () => Promise<void>;

interface Client {
  id: string;
  what: string;
  cycle: Cycle;
  close(): void;
}

const DIST = new URL('../dist/index.js', import.meta.url).href;

async function watchmarkClient(id: string, what: string, kubeconfig: string): Promise<Client> {
  const wm = (await import(DIST)) as typeof import('../src/index.js');
  const kube = await wm.KubeClient.load({ kubeconfig, qps: 0 });
  const pods = kube.resource('pods', NAMESPACE);
  // Each watchmark client has a fresh server of its own to seed (client-node shares the TLS one).
  await kube.resource('namespaces').create({ metadata: { name: NAMESPACE } });
  for (let i = 0; i < PODS; i++) {
    await pods.create(
      buildPod(`pod-${i}`, { nodeName: NODE, container: 'app', image: 'registry.k8s.io/pause:3.10' }),
    );
  }
  const source = pods.listWatch({ fieldSelector: `spec.nodeName=${NODE}` });
  return {
    id,
    what,
    async cycle() {
      const list = await source.list({});
      const stream = await source.watch({
        resourceVersion: list.metadata?.resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds: 300,
      });
      stream.close();
    },
    close: () => kube.transport.close(),
  };
}

async function clientNodeClient(kubeconfig: string): Promise<Client> {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const watch = new k8s.Watch(kc);
  const path = `/api/v1/namespaces/${NAMESPACE}/pods`;
  return {
    id: 'client-node-tls',
    what: '@kubernetes/client-node: CoreV1Api.listNamespacedPod, then Watch.watch, aborted once open',
    async cycle() {
      const list = await api.listNamespacedPod({
        namespace: NAMESPACE,
        fieldSelector: `spec.nodeName=${NODE}`,
      });
      const controller = await watch.watch(
        path,
        {
          fieldSelector: `spec.nodeName=${NODE}`,
          resourceVersion: list.metadata?.resourceVersion,
          allowWatchBookmarks: true,
          timeoutSeconds: 300,
        },
        () => {},
        () => {},
      );
      controller.abort();
    },
    close() {},
  };
}

/** `cycles` cycles, CONCURRENCY at a time: the CPU (µs) and the wall time (µs) per cycle. */
async function measure(client: Client, cycles: number): Promise<{ cpuUs: number; wallUs: number }> {
  let next = 0;
  const worker = async () => {
    while (next < cycles) {
      next++;
      await client.cycle();
    }
  };
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / cycles, wallUs: ((performance.now() - t0) * 1000) / cycles };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.build) {
    console.log('building dist/ ...');
    const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'watchmark-reconnect-'));
  const clients: Client[] = [];
  const servers: StudyServer[] = [];
  try {
    // The server in a process of its own (the study's): default TLS with a token, and plain HTTP.
    const tls = join(dir, 'tls.kubeconfig');
    const plain = join(dir, 'plain.kubeconfig');
    servers.push(
      ...(await Promise.all([
        spawnStudyServer({ kubeconfigOut: tls }),
        spawnStudyServer({ insecureHttp: true, insecureNoAuth: true, kubeconfigOut: plain }),
      ])),
    );
    if (!servers[0].url.startsWith('https://')) throw new Error('the TLS server does not serve https');
    clients.push(
      await watchmarkClient(
        'watchmark-tls',
        'watchmark: HttpListWatch list, then watch, closed once open',
        tls,
      ),
      await clientNodeClient(tls),
      await watchmarkClient('watchmark-plain', 'the same over plain HTTP, no auth', plain),
    );
    // Warm-up: JIT, TLS session caches, sockets.
    for (const c of clients) await measure(c, Math.min(50, args.cycles));
    const samples = new Map<string, Array<{ cpuUs: number; wallUs: number }>>(clients.map((c) => [c.id, []]));
    const machineBefore = readMachineCpu();
    const started = performance.now();
    const processCpu = process.cpuUsage();
    for (let r = 0; r < args.rounds; r++) {
      // Rotate the order each round: no client always runs first or last.
      for (let k = 0; k < clients.length; k++) {
        const c = clients[(r + k) % clients.length];
        samples.get(c.id)?.push(await measure(c, args.cycles));
      }
      process.stdout.write(`  round ${r + 1}/${args.rounds}\n`);
    }
    const windowMs = performance.now() - started;
    const own = process.cpuUsage(processCpu);
    const machineAfter = readMachineCpu();
    const summary = clients.map((c) => {
      const s = samples.get(c.id) ?? [];
      return {
        client: c.id,
        what: c.what,
        cpuUsPerCycle: round(median(s.map((x) => x.cpuUs)), 0),
        wallUsPerCycle: round(median(s.map((x) => x.wallUs)), 0),
        rounds: s.map((x) => ({ cpuUs: round(x.cpuUs, 0), wallUs: round(x.wallUs, 0) })),
      };
    });
    // Paired per round: the same round's runs sat on the same machine state.
    const paired = (a: string, b: string) => {
      const sa = samples.get(a) ?? [];
      const sb = samples.get(b) ?? [];
      return round(median(sa.map((x, i) => x.cpuUs / sb[i].cpuUs)), 2);
    };
    const ratios = {
      watchmarkTlsVsClientNodeTls: paired('watchmark-tls', 'client-node-tls'),
      watchmarkTlsVsPlain: paired('watchmark-tls', 'watchmark-plain'),
    };
    const machineBusyPercent =
      machineBefore && machineAfter
        ? round((100 * (machineAfter.busyMs - machineBefore.busyMs)) / windowMs, 0)
        : undefined;
    console.log('');
    console.log(
      table(
        ['client', 'CPU µs/cycle', 'wall µs/cycle'],
        summary.map((s) => [s.client, s.cpuUsPerCycle, s.wallUsPerCycle]),
      ),
    );
    console.log('');
    const verdict = ratios.watchmarkTlsVsClientNodeTls <= TARGET_VS_CLIENT_NODE ? 'HELD' : 'MISSED';
    console.log(
      `watchmark / client-node CPU per reconnect over TLS: ${ratios.watchmarkTlsVsClientNodeTls}x (target <= ${TARGET_VS_CLIENT_NODE}: ${verdict}), paired median over ${args.rounds} rounds`,
    );
    console.log(`watchmark TLS / plain HTTP: ${ratios.watchmarkTlsVsPlain}x`);
    console.log(
      `this process used ${round((own.user + own.system) / 1000 / windowMs, 2)} of a core; the machine ${machineBusyPercent ?? '?'} % of one core in all (2 servers included)`,
    );
    const result = {
      benchmark: 'reconnect',
      date: new Date().toISOString(),
      node: process.version,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        loadAverage1mAtStart: round(loadavg()[0], 2),
      },
      parameters: {
        cycles: args.cycles,
        rounds: args.rounds,
        concurrency: CONCURRENCY,
        pods: PODS,
        cycle: 'list (fieldSelector, 10 pods) + watch from its resourceVersion (bookmarks) + close once open',
        servers:
          'two watchmark API servers, each in its own process: TLS with a token, and plain HTTP without auth',
      },
      machineBusyPercentOfOneCore: machineBusyPercent,
      clients: summary,
      ratios,
      targets: { watchmarkTlsVsClientNodeTls: `<= ${TARGET_VS_CLIENT_NODE}` },
    };
    mkdirSync(dirname(resolve(args.out)), { recursive: true });
    writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`wrote ${relative(process.cwd(), resolve(args.out))}`);
  } finally {
    for (const c of clients) c.close();
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  killAllForkedServers();
  console.error(`error: ${err.message}`);
  process.exit(1);
});
