/**
 * The chaos test's API server in a process of its own, so that it can be
 * SIGKILLed mid-schedule as a crashed kube-apiserver is, and a fresh one
 * started over the same etcd data. Started by {@link WarmChild}
 * (warm-child.ts): the process loads its code and says `loaded`, then waits
 * for `start` before it touches etcd or binds its port, so a successor can
 * be loaded while its predecessor still serves (loading is most of a start
 * on a busy machine) and still start as a fresh server once it is gone.
 *
 * Messages in:  {type:'start', spec: ChaosChildSpec} | {type:'close'}
 * Messages out: {type:'loaded'} | {type:'ready', url, pid} | {type:'failed', error}
 */
import { appendFileSync } from 'node:fs';
import { runServerChild, sendToParent } from '../../src/process/index.js';
import { preloadServerModules, type ServerOptions, startServer } from '../../src/server/index.js';

// What the server loads on demand, loaded while the process waits: the etcd client for the
// start, the patch engine for the first PATCH. A start then costs the server's own work only.
await preloadServerModules();

/** What the parent sends with `start`. */
export interface ChaosChildSpec {
  /** startServer's options (plain data: they travel over IPC). */
  options: ServerOptions;
  /** Where the server's log lines go (failure reports quote them). */
  logPath: string;
}

let go: (spec: ChaosChildSpec) => void = () => {};
const started = new Promise<ChaosChildSpec>((resolve) => {
  go = resolve;
});

runServerChild({
  label: 'chaos-server-child',
  onMessage(message) {
    if (message.type === 'start') go((message as { type: string; spec: ChaosChildSpec }).spec);
  },
  async start(own) {
    const spec = await started;
    // Synchronous, so the lines before a SIGKILL are on disk when it lands.
    const log = (line: string) =>
      appendFileSync(spec.logPath, `${new Date().toISOString()} pid ${process.pid}: ${line}\n`);
    // No serviceaccount controller fills the chaos namespaces: the ServiceAccount plugin is off (as envtest).
    const server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      ...spec.options,
      insecureHttp: true,
      insecureNoAuth: true,
      log,
    });
    own(server);
    log(`listening at ${server.url}`);
    return { url: server.url, pid: process.pid };
  },
});
sendToParent({ type: 'loaded' });
