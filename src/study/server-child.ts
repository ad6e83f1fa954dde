/**
 * The study's API server, alone in its own process: its CPU time is then the
 * server's and the study process's is the clients' (on a 2-core machine the
 * two would otherwise be billed together). Forked by {@link spawnStudyServer};
 * options arrive in WATCHMARK_STUDY_SERVER, messages over the IPC channel.
 *
 * In:  {type:'sample', id} | {type:'reset-delay'} | {type:'close'}
 * Out: {type:'ready', url} | {type:'sample', id, sample} | {type:'failed', error}
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type RunningServer, type ServerOptions, startServer } from '../server/index.js';
import type { ServerSample } from './server-process.js';

let server: RunningServer | undefined;
let exiting = false;
/** How late the server's timers run: a stall here is a stall of every watch, scaled up by the study. */
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

function send(message: unknown): void {
  if (process.connected) process.send?.(message);
}

function sample(running: RunningServer): ServerSample {
  const cpu = process.cpuUsage();
  return {
    cpuUs: cpu.user + cpu.system,
    rssBytes: process.memoryUsage().rss,
    stats: structuredClone(running.stats),
    delayMaxMs: delay.max / 1e6,
    delayP99Ms: delay.percentile(99) / 1e6,
    latestRevision: running.latestRevision(),
  };
}

/** Closes the server (every watch ends cleanly) and exits, once, from whichever path asks first. */
async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  // A server that cannot close in 5 s must not keep the study waiting.
  setTimeout(() => process.exit(code), 5_000).unref();
  try {
    await server?.close();
  } catch (err) {
    process.stderr.write(`study server: close failed: ${(err as Error).message}\n`);
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const options = JSON.parse(process.env.WATCHMARK_STUDY_SERVER ?? '{}') as ServerOptions;
  process.on('message', (message: { type: string; id?: number }) => {
    if (message.type === 'sample' && server) send({ type: 'sample', id: message.id, sample: sample(server) });
    else if (message.type === 'reset-delay') delay.reset();
    else if (message.type === 'close') void shutdown(0);
  });
  // The parent is gone (crashed, killed): nobody will ask us to close.
  process.on('disconnect', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(143));
  server = await startServer({ ...options, log: (line) => process.stderr.write(`study server: ${line}\n`) });
  send({ type: 'ready', url: server.url });
}

main().catch((err: Error) => {
  send({ type: 'failed', error: err.stack ?? err.message });
  void shutdown(1);
});
