/**
 * Watch fan-out benchmark of the API server: kubelet-like watches (one
 * `spec.nodeName` field selector each, bookmarks on) plus namespace-wide
 * watches, under a saturated writer and a fixed 200 writes/s, at 100, 1,000
 * and 5,000 watchers. The server runs in a child process so its CPU is
 * measured alone; clients and writer run here.
 *
 *   npm run bench:server                      # full run, writes bench/results/server-fanout.json
 *   npm run bench:server -- --quick           # under 30 s: 100 and 1,000 watchers, short phases, no JSON
 *   npm run bench:server -- --quick --transport both  # about twice as long: each quick scenario over HTTP, then TLS
 *   npm run bench:server -- --watchers 100,1000 [--coalesce both|on|off] [--transport http|tls|both] [--out FILE]
 *
 * Targets are reported, never asserted: CPU per write at 1,000 and 5,000
 * watchers within 1.5x of that at 100 (dispatch is indexed, so a write costs
 * the watchers it concerns), and p99 write-to-receive latency under 100 ms at
 * 1,000 watchers and 200 writes/s. By default (`--coalesce both`) the
 * saturated rounds turn the server's per-watcher write coalescing on and off
 * in the same server, in the order on, off, off, on, ... (rounds get cheaper
 * as the server warms up: with "on" always first, an earlier version billed
 * that trend to it and read 1.22x where the balanced order reads 0.94x), so
 * its saving is a ratio of interleaved rounds that share the watchers and,
 * round by round, the machine's load; every target uses the "on" rounds.
 * `on`/`off` run one mode only. bench/results/server-fanout-transport.json is
 * `--watchers 100,1000 --transport both`.
 *
 * Transport (`--transport`): `http` (the default, and what the targets were
 * set on) is plain HTTP; `tls` serves HTTPS with the certificate the server
 * generates for itself (still no authentication), and the watches and the
 * writer connect through keep-alive `https.Agent`s that trust its CA, so each
 * watch line is encrypted in the server and decrypted here; `both` runs every
 * watcher count once per transport (HTTP first, each in a fresh server). The
 * coalescing comparison is printed per transport; the targets are judged over
 * HTTP when it ran, else over TLS. Decrypting every line costs this process
 * CPU that, on a 2-core machine, competes with the server's: compare the
 * "client CPU %" of the two transports before reading much into their ratio.
 *
 * Open files: each watch is one socket in this process and one in the
 * server's, so each process needs about watchers + 100 descriptors; a
 * scenario that would exceed the soft `ulimit -n` is reported as failed
 * (raise it with `ulimit -n`) rather than run into EMFILE. Ephemeral ports
 * (5,000 connections to one server port) are far inside Linux's default range.
 *
 * The machine may be shared: each phase records how much CPU other
 * processes used, waits (bounded) for a quiet machine before measuring, and
 * the report lists the phases that ran under load.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printReport, targets } from './lib/fanout-report.js';
import { round } from './lib/report.js';
import { runScenario, type ScenarioParams, type ScenarioResult, type Transport } from './lib/scenario.js';
import { killAllServers } from './lib/server-process.js';

const DEFAULT_OUT = fileURLToPath(new URL('./results/server-fanout.json', import.meta.url));

interface Args {
  quick: boolean;
  watchers: number[];
  coalesce: 'both' | 'on' | 'off';
  transport: Transport | 'both';
  out: string | undefined;
}

function usage(): string {
  return (
    'usage: npm run bench:server -- [--quick] [--watchers 100,1000,5000] [--coalesce both|on|off] ' +
    '[--transport http|tls|both] [--out FILE]'
  );
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, watchers: [], coalesce: 'both', transport: 'http', out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--watchers') {
      args.watchers = (argv[++i] ?? '').split(',').map((s) => Number(s.trim()));
      if (args.watchers.length === 0 || args.watchers.some((n) => !Number.isInteger(n) || n < 1))
        throw new Error(`--watchers wants positive integers, e.g. 100,1000\n${usage()}`);
    } else if (a === '--coalesce') {
      const v = argv[++i];
      if (v !== 'both' && v !== 'on' && v !== 'off')
        throw new Error(`--coalesce wants both, on or off\n${usage()}`);
      args.coalesce = v;
    } else if (a === '--transport') {
      const v = argv[++i];
      if (v !== 'http' && v !== 'tls' && v !== 'both')
        throw new Error(`--transport wants http, tls or both\n${usage()}`);
      args.transport = v;
    } else if (a === '--out') {
      args.out = argv[++i];
      if (!args.out) throw new Error(`--out wants a file\n${usage()}`);
    } else if (a === '--help' || a === '-h') {
      console.log(usage());
      process.exit(0);
    } else throw new Error(`unknown argument ${JSON.stringify(a)}\n${usage()}`);
  }
  if (args.watchers.length === 0) args.watchers = args.quick ? [100, 1000] : [100, 1000, 5000];
  if (!args.quick) args.out ??= DEFAULT_OUT;
  return args;
}

function phaseParams(
  quick: boolean,
): Omit<ScenarioParams, 'watchers' | 'coalesce' | 'interleave' | 'transport'> {
  return {
    namespaceWatchers: 10,
    podsPerNode: 2,
    namespace: 'fanout',
    idleMs: quick ? 300 : 2000,
    warmupMs: quick ? 300 : 1500,
    saturatedMs: quick ? 1500 : 12_000,
    saturatedRounds: quick ? 3 : 6,
    saturatedConcurrency: 16,
    fixedRate: 200,
    fixedMs: quick ? 1500 : 8000,
    drainTimeoutMs: 20_000,
    openConcurrency: 64,
    quietWaitMs: quick ? 0 : 30_000,
    quietPercent: 20,
    // kube-apiserver's defaults otherwise (bookmarks every 60 s, 75 s history).
    server: {},
  };
}

/** A /proc file's text, or undefined off Linux (where these figures are simply not reported). */
function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The soft/hard limit named `name` in /proc/self/limits, e.g. "20000/20000". */
function procLimit(name: string): string | undefined {
  const line = readProc('/proc/self/limits')
    ?.split('\n')
    .find((l) => l.startsWith(name));
  return line?.slice(name.length).trim().split(/\s+/).slice(0, 2).join('/');
}

function machine() {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    openFilesLimit: procLimit('Max open files'),
    ephemeralPortRange: readProc('/proc/sys/net/ipv4/ip_local_port_range')?.trim().replace(/\s+/, '-'),
  };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const params = phaseParams(args.quick);
  const info = machine();
  const started = new Date();
  // Per watcher count, HTTP then TLS: the two runs compared sit next to each other in time.
  const transports: Transport[] = args.transport === 'both' ? ['http', 'tls'] : [args.transport];
  const log = (line: string) =>
    console.log(`${((Date.now() - started.getTime()) / 1000).toFixed(1).padStart(6)}s ${line}`);
  console.log(
    `server-fanout: watchers ${args.watchers.join(', ')} (+${params.namespaceWatchers} namespace-wide), ` +
      `over ${transports.map((t) => t.toUpperCase()).join(' and ')}, ` +
      `${info.cpus} CPUs, node ${info.node}, open files ${info.openFilesLimit}${args.quick ? ', QUICK' : ''}`,
  );
  const results: ScenarioResult[] = [];
  const fdLimit = Number(info.openFilesLimit?.split('/')[0]);
  const coalesce = args.coalesce !== 'off';
  const interleave = args.coalesce === 'both';
  for (const watchers of args.watchers) {
    const needed = watchers + params.namespaceWatchers + 256;
    if (Number.isFinite(fdLimit) && needed > fdLimit) {
      const message = `needs about ${needed} open files per process; the limit is ${fdLimit} (raise it: ulimit -n ${needed * 2})`;
      log(`[${watchers} watchers] SKIPPED: ${message}`);
      for (const transport of transports)
        results.push({
          watchers,
          transport,
          coalesce,
          status: 'failed',
          failure: { stage: 'preflight', message },
          setup: {},
        });
      continue;
    }
    for (const transport of transports)
      results.push(await runScenario({ ...params, watchers, transport, coalesce, interleave }, log));
  }
  const t = targets(results);
  printReport(results, t, params.quietPercent);
  if (args.out) {
    const out = resolve(args.out);
    mkdirSync(dirname(out), { recursive: true });
    const doc = {
      benchmark: 'server-fanout',
      date: started.toISOString(),
      durationSeconds: round((Date.now() - started.getTime()) / 1000, 1),
      quick: args.quick,
      machine: info,
      parameters: { watchers: args.watchers, ...params, coalesce: args.coalesce, transport: args.transport },
      scenarios: results,
      targets: t,
    };
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`\nwrote ${relative(process.cwd(), out)}`);
  } else {
    console.log('\n(quick run: no JSON written; pass --out FILE to keep one)');
  }
  // A scenario that failed is a result (reported above), not a crash of the benchmark.
  return 0;
}

process.on('SIGINT', () => {
  console.error('\ninterrupted: stopping the server process');
  killAllServers();
  process.exit(130);
});
process.on('SIGTERM', () => {
  killAllServers();
  process.exit(143);
});

main().then(
  (code) => {
    process.exitCode = code;
    // Every socket and the child should be gone; if a handle still holds the loop, say so and leave.
    setTimeout(() => {
      console.error('server-fanout: a handle kept the process alive after the run; exiting');
      process.exit(code);
    }, 3000).unref();
  },
  (err: Error) => {
    console.error(err.message);
    killAllServers();
    process.exit(1);
  },
);
