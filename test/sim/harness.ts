/**
 * Test harness for the simulated cluster: a real in-process API server, the
 * simulation against it, and a client to drive it, all closed by `close()`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../src/client/client.js';
import type { KubeObject } from '../../src/protocol/events.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { type Simulation, type SimulationOptions, startSimulation } from '../../src/sim/index.js';

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
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-sim-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startServer({
    bookmarkInterval: 1000,
    compactionInterval: 0,
    kubeconfigOut: kubeconfig,
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
    await rm(dir, { recursive: true, force: true });
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
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A Deployment of `replicas` nginx pods labelled app=<name>. */
export function deployment(name: string, replicas: number, extra: Record<string, unknown> = {}): KubeObject {
  const { image = 'nginx:1.27', ...spec } = extra as { image?: string };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image }] },
      },
      ...spec,
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a truthy value (returned), or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`,
      );
    await sleep(25);
  }
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
