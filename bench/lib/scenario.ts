/**
 * One scenario of the fan-out benchmark: a fresh server child, `watchers`
 * kubelet-like watches (one `spec.nodeName` each) plus namespace-wide ones,
 * then an idle sample, a saturated write phase (in rounds) and a fixed-rate
 * phase, over plain HTTP or TLS. A failure at any stage ends the scenario
 * with what was measured so far and the stage that failed; the server process
 * is closed on every path.
 */
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { ServerOptions } from '../../src/server/index.js';
import { createPods, openWatches } from './cluster.js';
import { waitForQuiet } from './machine-load.js';
import { combineRounds, type IdleResult, measureIdle, measurePhase, type PhaseResult } from './phase.js';
import { round } from './report.js';
import { type BenchServer, type ServerProcess, spawnServer, type Transport } from './server-process.js';
import { WatchFleet } from './watch-fleet.js';
import { type WriterTarget, writeFixedRate, writeSaturated } from './writer.js';

export type { PhaseResult, Transport };

/** Knobs of a scenario (durations in ms). */
export interface ScenarioParams {
  watchers: number;
  namespaceWatchers: number;
  podsPerNode: number;
  namespace: string;
  idleMs: number;
  warmupMs: number;
  /** Total saturated writing time, split into `saturatedRounds` measured rounds. */
  saturatedMs: number;
  saturatedRounds: number;
  saturatedConcurrency: number;
  fixedRate: number;
  fixedMs: number;
  drainTimeoutMs: number;
  openConcurrency: number;
  /**
   * Before each measured phase, wait for other processes to use under
   * `quietPercent` of a core; at most `quietWaitMs` in all per scenario.
   */
  quietWaitMs: number;
  quietPercent: number;
  server: ServerOptions;
  /** Gather each watcher's lines into one write per event-loop turn (the server's default); false writes each line alone. */
  coalesce: boolean;
  /**
   * Also measure without coalescing in the same server: the saturated rounds
   * run on, off, off, on, on, off, ... (as many of each as `saturatedRounds`), so both modes
   * share the watchers, the heap and, round by round, the machine's load.
   */
  interleave: boolean;
  /** How the watches and the writer reach the server: plain HTTP, or HTTPS with keep-alive connections. */
  transport: Transport;
}

/** Everything one scenario measured. */
export interface ScenarioResult {
  watchers: number;
  /** How the clients reached the server (see {@link ScenarioParams.transport}). */
  transport: Transport;
  /** Whether the server coalesced each watcher's writes (see {@link ScenarioParams.coalesce}). */
  coalesce: boolean;
  status: 'ok' | 'failed';
  failure?: { stage: string; message: string };
  setup: {
    serverStartMs?: number;
    pods?: number;
    podCreateMs?: number;
    watchOpenMs?: number;
    nodeWatchesOpen?: number;
    namespaceWatchesOpen?: number;
    watchOpenFailures?: number;
    firstWatchOpenError?: string;
  };
  /** How long the scenario waited for a quiet machine before its phases. */
  quietWaitMs?: number;
  idle?: IdleResult;
  saturated?: PhaseResult;
  /** The interleaved rounds without coalescing (see {@link ScenarioParams.interleave}). */
  saturatedUncoalesced?: PhaseResult;
  fixedRate?: PhaseResult;
  end?: {
    serverRssMB: number;
    serverHeapMB: number;
    streamsLost: number;
    strayEvents: number;
    unstampedEvents: number;
    bookmarksReceived: number;
    errorEventsReceived: number;
    clientBytesReceivedMB: number;
    /** Average size of a watch line received (bytes). */
    avgEventBytes: number;
  };
}

const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** The live pieces of a running scenario, each closed by {@link runScenario}. */
interface Live {
  server: ServerProcess;
  fleet: WatchFleet;
  target: WriterTarget;
}

/**
 * A keep-alive agent for `server`'s scheme. Over TLS it trusts the CA the
 * server generated, or, should the server not have told it, skips
 * verification: the benchmark measures the server, not who it is.
 */
function clientAgent(transport: Transport, server: BenchServer, maxSockets: number): Agent {
  if (transport === 'http') return new Agent({ keepAlive: true, maxSockets });
  return new HttpsAgent({
    keepAlive: true,
    maxSockets,
    ...(server.caPem ? { ca: server.caPem } : { rejectUnauthorized: false }),
  });
}

/** Runs one scenario; never throws (a failure is recorded in the result). */
export async function runScenario(p: ScenarioParams, log: (line: string) => void): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    watchers: p.watchers,
    transport: p.transport,
    coalesce: p.coalesce,
    status: 'ok',
    setup: {},
  };
  const label = `${p.watchers} watchers${p.transport === 'tls' ? ', TLS' : ''}${p.coalesce ? '' : ', uncoalesced'}`;
  const say = (line: string) => log(`[${label}] ${line}`);
  let server: BenchServer | undefined;
  let apiAgent: Agent | undefined;
  let watchAgent: Agent | undefined;
  let fleet: WatchFleet | undefined;
  const stage = { name: 'start server' };
  try {
    const t = performance.now();
    server = await spawnServer(p.server, undefined, { coalesce: p.coalesce, transport: p.transport });
    result.setup.serverStartMs = Math.round(performance.now() - t);
    const trust =
      p.transport === 'http'
        ? ''
        : server.caPem
          ? ', trusting its CA'
          : ', NOT verifying its certificate (no CA)';
    say(`server pid ${server.pid} at ${server.url} (${result.setup.serverStartMs} ms${trust})`);
    apiAgent = clientAgent(p.transport, server, 64);
    watchAgent = clientAgent(p.transport, server, p.watchers + p.namespaceWatchers + 16);
    fleet = new WatchFleet(server.url, watchAgent);
    const live = await setUp(p, result, stage, server, fleet, apiAgent, say);
    await measure(p, result, stage, live, say);
  } catch (err) {
    result.status = 'failed';
    const exit = server?.exitReason();
    const message = (err as Error).message + (exit ? ` (the server process ended: ${exit})` : '');
    result.failure = { stage: stage.name, message };
    say(`FAILED at ${stage.name}: ${message}`);
  } finally {
    fleet?.close();
    watchAgent?.destroy();
    apiAgent?.destroy();
    if (server) {
      const t = performance.now();
      await server.close();
      say(`server closed (${Math.round(performance.now() - t)} ms)`);
    }
  }
  return result;
}

/** Creates the pods and opens the watches. */
async function setUp(
  p: ScenarioParams,
  result: ScenarioResult,
  stage: { name: string },
  server: ServerProcess,
  fleet: WatchFleet,
  agent: Agent,
  say: (line: string) => void,
): Promise<Live> {
  stage.name = 'create pods';
  let t = performance.now();
  const pods = await createPods(agent, server.url, p.namespace, p.watchers, p.podsPerNode, say);
  result.setup.pods = pods.length;
  result.setup.podCreateMs = Math.round(performance.now() - t);
  say(`created ${pods.length} pods on ${p.watchers} nodes in ${result.setup.podCreateMs} ms`);

  stage.name = 'open watches';
  t = performance.now();
  const opened = await openWatches(
    fleet,
    agent,
    server.url,
    p.namespace,
    p.watchers,
    p.namespaceWatchers,
    p.openConcurrency,
    say,
  );
  Object.assign(result.setup, {
    watchOpenMs: Math.round(opened.elapsedMs),
    nodeWatchesOpen: fleet.open.node,
    namespaceWatchesOpen: fleet.open.namespace,
    watchOpenFailures: opened.failures,
    firstWatchOpenError: opened.firstError,
  });
  say(
    `opened ${fleet.open.node} node + ${fleet.open.namespace} namespace watches in ${Math.round(opened.elapsedMs)} ms` +
      (opened.failures > 0 ? ` (${opened.failures} FAILED: ${opened.firstError})` : ''),
  );
  if (fleet.open.node === 0) {
    throw new Error(
      `no node watch is open (${opened.failures} failed to open, ${fleet.counters.streamsLost} broke after opening)` +
        (opened.firstError ? `: ${opened.firstError}` : ''),
    );
  }
  const target: WriterTarget = {
    agent,
    baseUrl: server.url,
    namespace: p.namespace,
    pods,
    nodeWatched: (node) => opened.watched[node] === 1,
  };
  return { server, fleet, target };
}

/** The measured part: idle, warmup, saturated rounds, fixed rate, final sample. */
async function measure(
  p: ScenarioParams,
  result: ScenarioResult,
  stage: { name: string },
  { server, fleet, target }: Live,
  say: (line: string) => void,
): Promise<void> {
  let quietBudget = p.quietWaitMs;
  const waitQuiet = async (what: string) => {
    if (quietBudget <= 0) return;
    stage.name = `wait for a quiet machine (${what})`;
    const quiet = await waitForQuiet(
      async () => {
        const sample = await server.sample();
        return (sample.cpuUserUs + sample.cpuSystemUs) / 1000 + cpuMs(process.cpuUsage());
      },
      quietBudget,
      p.quietPercent,
      (other) => say(`other processes use ${other}% of a core; waiting for a quieter machine ...`),
    );
    quietBudget -= quiet.waitedMs;
    result.quietWaitMs = (result.quietWaitMs ?? 0) + quiet.waitedMs;
    if (quiet.otherCpuPercent !== undefined && quiet.otherCpuPercent >= p.quietPercent)
      say(`machine still busy (${quiet.otherCpuPercent}% of a core elsewhere): measuring ${what} anyway`);
  };

  await waitQuiet('idle');
  stage.name = 'idle';
  const idle = await measureIdle(server, p.idleMs);
  result.idle = idle;
  say(
    `idle: server CPU ${idle.serverCpuPercent}% of a core, RSS ${idle.serverRssMB} MB, ` +
      `other processes ${idle.otherCpuPercent ?? '?'}% of a core`,
  );

  stage.name = 'warmup';
  await measurePhase(server, fleet, 'w', false, p.drainTimeoutMs, () =>
    writeSaturated(target, 'w', p.warmupMs, p.saturatedConcurrency),
  );

  await waitQuiet('saturated');
  stage.name = 'saturated phase';
  const roundMs = p.saturatedMs / p.saturatedRounds;
  say(
    `saturated: ${p.saturatedConcurrency} concurrent writers, ${p.saturatedRounds} rounds of ${roundMs / 1000} s ...`,
  );
  const rounds: PhaseResult[] = [];
  const offRounds: PhaseResult[] = [];
  const interleaved = p.interleave && p.coalesce;
  for (let i = 0; i < (interleaved ? 2 : 1) * p.saturatedRounds; i++) {
    // On, off, off, on, on, off, ...: rounds get cheaper as the server warms up, and with on always
    // first a falling trend would bill "on" (an ABBA order cancels a linear trend). IPC keeps
    // order, so the switch lands before the round's first write.
    const off = interleaved && (i % 4 === 1 || i % 4 === 2);
    if (interleaved) server.send({ type: 'coalesce', on: !off } as { type: string });
    (off ? offRounds : rounds).push(
      await measurePhase(server, fleet, `s${i}`, false, p.drainTimeoutMs, () =>
        writeSaturated(target, `s${i}`, roundMs, p.saturatedConcurrency),
      ),
    );
  }
  if (interleaved) server.send({ type: 'coalesce', on: true } as { type: string });
  const s = combineRounds(rounds, p.quietPercent);
  result.saturated = s;
  if (interleaved) {
    const u = combineRounds(offRounds, p.quietPercent);
    result.saturatedUncoalesced = u;
    say(
      `saturated, uncoalesced rounds: ${u.writesPerSec} writes/s, server ${u.serverCpuUsPerWriteMedian} us CPU/write ` +
        `(median of ${u.medianOf}: ${offRounds.map((r) => r.serverCpuUsPerWrite).join(', ')}), lines per socket write ${u.linesPerSocketWrite}`,
    );
  }
  say(
    `saturated: ${s.writesPerSec} writes/s, ${s.eventsPerSec} events/s, server ${s.serverCpuUsPerWriteMedian} us CPU/write ` +
      `(median of ${s.medianOf}: ${rounds.map((r) => r.serverCpuUsPerWrite).join(', ')}), ` +
      `server ${s.serverCpuPercent}% / client ${s.clientCpuPercent}% / others ${s.otherCpuPercent ?? '?'}% of a core, ` +
      `missing ${s.eventsMissing}`,
  );

  await waitQuiet('fixed rate');
  stage.name = 'fixed-rate phase';
  say(`fixed rate: ${p.fixedRate} writes/s for ${p.fixedMs / 1000} s ...`);
  const f = await measurePhase(server, fleet, 'f', true, p.drainTimeoutMs, () =>
    writeFixedRate(target, 'f', p.fixedRate, p.fixedMs),
  );
  result.fixedRate = f;
  const lat = f.latencyMs?.node;
  say(
    `fixed rate: ${f.writesPerSec} writes/s, node-watch latency p50 ${lat?.p50} ms p99 ${lat?.p99} ms, ` +
      `server ${f.serverCpuUsPerWrite} us CPU/write, others ${f.otherCpuPercent ?? '?'}% of a core, missing ${f.eventsMissing}`,
  );

  stage.name = 'final sample';
  const last = await server.sample();
  const c = fleet.counters;
  result.end = {
    serverRssMB: mb(last.rssBytes),
    serverHeapMB: mb(last.heapUsedBytes),
    streamsLost: c.streamsLost,
    strayEvents: c.stray,
    unstampedEvents: c.unstamped,
    bookmarksReceived: c.byType.BOOKMARK ?? 0,
    errorEventsReceived: c.byType.ERROR ?? 0,
    clientBytesReceivedMB: mb(c.bytes),
    avgEventBytes: Math.round(
      c.bytes /
        Math.max(
          1,
          Object.values(c.byType).reduce((a, b) => a + b, 0),
        ),
    ),
  };
}
