/**
 * The study's API server, alone in its own process: its CPU time is then the
 * server's and the parent's is the clients' (on a 2-core machine the two
 * would otherwise be billed together). Forked by {@link spawnStudyServer};
 * options arrive in WATCHMARK_STUDY_SERVER, messages over the IPC channel.
 *
 * In:  {type:'sample', id} | {type:'reset-delay'} | {type:'close'}
 * Out: {type:'ready', url} | {type:'sample', id, sample} | {type:'failed', error}
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type RunningServer, type ServerOptions, startServer } from '../server/index.js';
import { runServerChild } from './server-child-runtime.js';
import type { ServerSample } from './server-process.js';

/** How late the server's timers run: a stall here is a stall of every watch, scaled up by the study. */
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

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

runServerChild({
  label: 'study server',
  sample,
  onMessage(message) {
    if (message.type === 'reset-delay') delay.reset();
  },
  async start(own) {
    const options = JSON.parse(process.env.WATCHMARK_STUDY_SERVER ?? '{}') as ServerOptions;
    const server = await startServer({
      // The study's simulated cluster runs no serviceaccount controller: the ServiceAccount
      // plugin, which would require each namespace's account of every pod, is off (as envtest).
      disableAdmissionPlugins: ['ServiceAccount'],
      ...options,
      log: (line) => process.stderr.write(`study server: ${line}\n`),
    });
    own(server);
    return { url: server.url };
  },
});
