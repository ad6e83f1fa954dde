/**
 * Test harness for the simulated cluster: a real in-process API server, the
 * simulation against it, and a client to drive it, all closed by `close()`.
 */
import { join } from 'node:path';
import { KubeClient } from '../../src/client/client.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import {
  buildDeployment,
  type Deployment,
  type Simulation,
  type SimulationOptions,
  startSimulation,
} from '../../src/sim/index.js';
import { makeTempDir } from '../helpers/lifecycle.js';
import { eventually } from '../helpers/wait.js';

/** Timing that keeps a pod's life under ~100 ms. */
export const FAST = { pullMs: 20, createMs: 5, startMs: 5, readyMs: 10, heartbeatMs: 1000, backoffMs: 200 };

/** What a test gets. */
export interface Cluster {
  server: RunningServer;
  sim: Simulation;
  kube: KubeClient;
  namespace: string;
  lines: string[];
  close(): Promise<void>;
}

/** Starts server + simulation + a client, and creates the `demo` namespace. */
export async function startCluster(opts: Partial<SimulationOptions> = {}): Promise<Cluster> {
  const dir = await makeTempDir('watchmark-sim-');
  const kubeconfig = join(dir.path, 'kubeconfig');
  const server = await startServer({
    bookmarkInterval: 1000,
    compactionInterval: 0,
    kubeconfigOut: kubeconfig,
    // No serviceaccount controller: the plugin would refuse the simulation's pods (envtest's shape).
    disableAdmissionPlugins: ['ServiceAccount'],
  });
  const lines: string[] = [];
  let sim: Simulation | undefined;
  let kube: KubeClient | undefined;
  try {
    sim = await startSimulation({ kubeconfig, timing: FAST, log: (l) => lines.push(l), ...opts });
    kube = await KubeClient.load({ kubeconfig, qps: 0 });
    await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
  } catch (err) {
    await sim?.stop();
    await kube?.close();
    await server.close();
    await dir.remove();
    throw err;
  }
  const s = sim;
  const k = kube;
  return {
    server,
    sim: s,
    kube: k,
    namespace: 'demo',
    lines,
    async close() {
      await s.stop();
      await k.close();
      await server.close();
      await dir.remove();
    },
  };
}

/** A Deployment of `replicas` pods labelled app=<name> (nginx:1.27 unless `extra.image`; other `extra` fields go into its spec). */
export function deployment(
  name: string,
  replicas: number,
  { image, ...spec }: Partial<Deployment['spec']> & { image?: string } = {},
): Deployment {
  return buildDeployment(name, { replicas, image, spec });
}

/** A Deployment's status once it has fully rolled out (kubectl rollout status's rule). */
export async function rolledOut(
  kube: KubeClient,
  ns: string,
  name: string,
  timeoutMs = 15_000,
): Promise<any> {
  return eventually(
    async () => {
      const d = await kube.resource('deployments', ns).get(name);
      const s = (d.status ?? {}) as any;
      const n = (d.spec as any).replicas;
      const done =
        (d.metadata?.generation ?? 0) <= (s.observedGeneration ?? 0) &&
        (s.updatedReplicas ?? 0) === n &&
        (s.replicas ?? 0) === n &&
        (s.availableReplicas ?? 0) === n;
      return done ? d : undefined;
    },
    `deployment ${name} to roll out`,
    timeoutMs,
  );
}
