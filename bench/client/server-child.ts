/**
 * The API server of the client benchmark, alone in its own process (started
 * by {@link spawnClientBenchServer} with `node --import tsx`) so that its CPU
 * never mixes with the clients'. Plain HTTP, no authentication.
 *
 * Before listening it seeds its in-memory store directly (pods of one
 * namespace per sync size, plus a churn namespace): the clients, not the
 * write path, are under test. Once listening it replays `churnEvents` status
 * updates of the churn pods through the store, so the watch cache's history
 * holds them all: a watch from `baseRevision` then streams them back-to-back,
 * which measures pure client throughput.
 *
 * Messages in:  {type:'close'}
 * Messages out: {type:'ready', ...ServerInfo} | {type:'failed', error}
 */
import { performance } from 'node:perf_hooks';
import { runServerChild, waitUntil } from '../../src/process/index.js';
import { MemoryStore, startServer } from '../../src/server/index.js';
import { churnPod, makePod } from '../lib/pods.js';
import { CHURN_NAMESPACE, type ServerInfo, type ServerPlan, syncNamespace } from './plan.js';

const podKey = (namespace: string, name: string) => `/core/pods/${namespace}/${name}`;

async function seed(store: MemoryStore, plan: ServerPlan): Promise<number> {
  let bytes = 0;
  let count = 0;
  const namespaces = [...plan.syncSizes.map((n) => [syncNamespace(n), n] as const)];
  namespaces.push([CHURN_NAMESPACE, plan.churnPods]);
  for (const [namespace, n] of namespaces) {
    await store.create(
      `/core/namespaces/${namespace}`,
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }),
    );
    for (let i = 0; i < n; i++) {
      const pod = makePod(namespace, i);
      const json = JSON.stringify(pod);
      bytes += json.length;
      count++;
      await store.create(podKey(namespace, pod.metadata!.name!), json);
    }
  }
  // Served pods also carry `"resourceVersion":"<7 digits>"`.
  return count ? bytes / count + 29 : 0;
}

/** `events` updates, round robin over the churn pods, through the store (so into the watch cache). */
async function churn(store: MemoryStore, plan: ServerPlan): Promise<void> {
  const pods = Array.from({ length: plan.churnPods }, (_, i) => makePod(CHURN_NAMESPACE, i));
  const revisions = new Map<string, number>();
  for (const pod of pods) {
    const key = podKey(CHURN_NAMESPACE, pod.metadata!.name!);
    revisions.set(key, (await store.get(key))!.modRevision);
  }
  for (let e = 0; e < plan.churnEvents; e++) {
    const pod = pods[e % pods.length];
    const key = podKey(CHURN_NAMESPACE, pod.metadata!.name!);
    const generation = Math.floor(e / pods.length) + 1;
    const kv = await store.update(key, JSON.stringify(churnPod(pod, generation)), revisions.get(key)!);
    revisions.set(key, kv.modRevision);
  }
}

runServerChild({
  label: 'client-server-child',
  exitOnSigint: true,
  async start(own) {
    const plan = JSON.parse(process.env.WATCHMARK_BENCH_CLIENT_PLAN ?? '{}') as ServerPlan;
    const store = new MemoryStore();
    const t0 = performance.now();
    const podBytes = await seed(store, plan);
    const seedMs = performance.now() - t0;
    const server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      store,
      insecureHttp: true,
      insecureNoAuth: true,
      // The churn history must survive the whole run: no compaction, a window and
      // capacity that hold every update, and no "too slow" cut while a client
      // reads a replay that the server queued at once.
      compactionInterval: 0,
      historyWindow: 3_600_000,
      historyCapacity: plan.churnEvents + 1_000,
      maxWatcherBufferBytes: 4 * 1024 ** 3,
      log: (line) => process.stderr.write(`server: ${line}\n`),
    });
    own(server);
    const baseRevision = server.latestRevision();
    const t1 = performance.now();
    await churn(store, plan);
    const finalRevision = await store.currentRevision();
    // The watch cache follows the store asynchronously: wait until it holds every update.
    await waitUntil(
      () => server.latestRevision() >= finalRevision,
      `the watch cache to reach ${finalRevision}`,
      {
        intervalMs: 10,
      },
    );
    const info: ServerInfo = {
      url: server.url,
      pid: process.pid,
      baseRevision,
      finalRevision,
      seedMs,
      churnMs: performance.now() - t1,
      podBytes,
    };
    return { ...info };
  },
});
