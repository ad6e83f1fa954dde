/**
 * The API server under test, alone in its own process so that its CPU time
 * (`process.cpuUsage()`) is the server's and nothing else's: on a 2-core
 * machine the watch clients would otherwise be billed to it. Started by
 * {@link spawnServer} with `node --import tsx`; talks over the IPC channel.
 * Serves plain HTTP, or HTTPS with a generated certificate when
 * `WATCHMARK_BENCH_TRANSPORT=tls`; never authenticates.
 *
 * Messages in:  {type:'sample', id} | {type:'close'}
 * Messages out: {type:'ready', url} | {type:'sample', id, sample} | {type:'failed', error}
 */
import { performance } from 'node:perf_hooks';
import { runServerChild } from '../../src/process/index.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/index.js';
import type { ServerSample } from './server-process.js';

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
    watchWrites: { lines: running.stats.watchLinesWritten, writes: running.stats.watchWrites },
  };
}

runServerChild({
  label: 'server-child',
  sample,
  exitOnSigint: true,
  // {type:'coalesce', on}: the fan-out benchmark alternates write coalescing between rounds.
  onMessage(message, server) {
    if (message.type === 'coalesce')
      server?.tune({ watchWriteCoalescing: (message as { on?: boolean }).on !== false });
  },
  async start(own) {
    const options = JSON.parse(process.env.WATCHMARK_BENCH_SERVER_OPTIONS ?? '{}') as ServerOptions;
    const server = await startServer({
      ...options,
      // The fan-out benchmark measures watch writes with and without per-turn coalescing.
      watchWriteCoalescing: process.env.WATCHMARK_BENCH_COALESCE !== '0',
      // TLS: the server makes its own serving certificate (options.tls is unset) and
      // writes its CA into the kubeconfig spawnServer asked for.
      insecureHttp: process.env.WATCHMARK_BENCH_TRANSPORT !== 'tls',
      insecureNoAuth: true,
      log: (line) => process.stderr.write(`server: ${line}\n`),
    });
    own(server);
    return { url: server.url, pid: process.pid };
  },
});
