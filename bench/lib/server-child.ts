/**
 * The API server under test, alone in its own process so that its CPU time
 * (`process.cpuUsage()`) is the server's and nothing else's: on a 2-core
 * machine the watch clients would otherwise be billed to it. Started by
 * {@link spawnServer} with `node --import tsx`; talks over the IPC channel.
 *
 * Messages in:  {type:'sample', id} | {type:'close'}
 * Messages out: {type:'ready', url} | {type:'sample', id, sample} | {type:'failed', error}
 */
import { performance } from 'node:perf_hooks';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/index.js';
import type { ServerSample } from './server-process.js';

type Incoming = { type: 'sample'; id: number } | { type: 'close' };

let server: RunningServer | undefined;
let exiting = false;

function send(message: unknown): void {
  if (process.connected) process.send?.(message);
}

function sample(running: RunningServer): ServerSample {
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  const elu = performance.eventLoopUtilization();
  return {
    at: performance.now(),
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    rssBytes: mem.rss,
    heapUsedBytes: mem.heapUsed,
    eluActiveMs: elu.active,
    stats: structuredClone(running.stats),
    latestRevision: running.latestRevision(),
  };
}

/** Closes the server (every watch ends) and exits; safe to call from any path, once. */
async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  // A server that cannot close within 5 s must not keep the benchmark alive.
  const force = setTimeout(() => process.exit(code), 5000);
  force.unref();
  try {
    await server?.close();
  } catch (err) {
    process.stderr.write(`server-child: close failed: ${(err as Error).message}\n`);
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const options = JSON.parse(process.env.WATCHMARK_BENCH_SERVER_OPTIONS ?? '{}') as ServerOptions;
  process.on('message', (message: Incoming) => {
    // Samples are asked for only after 'ready', when the server exists.
    if (message.type === 'sample' && server) send({ type: 'sample', id: message.id, sample: sample(server) });
    else if (message.type === 'close') void shutdown(0);
  });
  // The parent is gone (crashed, killed, Ctrl-C): nobody will ever ask us to close.
  process.on('disconnect', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));
  server = await startServer({
    ...options,
    insecureHttp: true,
    insecureNoAuth: true,
    log: (line) => process.stderr.write(`server: ${line}\n`),
  });
  send({ type: 'ready', url: server.url, pid: process.pid });
}

main().catch((err: Error) => {
  send({ type: 'failed', error: err.stack ?? err.message });
  void shutdown(1);
});
