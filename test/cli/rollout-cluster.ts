/**
 * A cluster for rollout tests: an in-process API server (bookmarks every
 * 300 ms), the simulated cluster against it, a client, and manifests.
 * Everything is closed by `close()`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../src/client/client.js';
import type { WatcherMetrics } from '../../src/client/metrics.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { type Simulation, startSimulation } from '../../src/sim/index.js';

/** A running test cluster. */
export interface TestCluster {
  dir: string;
  server: RunningServer;
  sim: Simulation;
  kube: KubeClient;
  kubeconfig: string;
  /** Writes `text` to a file in the cluster's directory; resolves with its path. */
  file(name: string, text: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts a server and a simulation of `nodes` nodes. */
export async function startCluster(
  opts: { nodes?: number; bookmarkInterval?: number } = {},
): Promise<TestCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-rollout-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startServer({
    kubeconfigOut: kubeconfig,
    bookmarkInterval: opts.bookmarkInterval ?? 300,
    bookmarkLead: 100,
    compactionInterval: 0,
  });
  const sim = await startSimulation({ kubeconfig, nodes: opts.nodes ?? 3 });
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  return {
    dir,
    server,
    sim,
    kube,
    kubeconfig,
    async file(name, text) {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
    async close() {
      await kube.close();
      await sim.stop();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A namespace and a Deployment `name` of `replicas` pods of `image`. */
export function deploymentManifest(
  namespace: string,
  name: string,
  image: string,
  opts: { replicas?: number; progressDeadlineSeconds?: number } = {},
): string {
  return `apiVersion: v1
kind: Namespace
metadata: {name: ${namespace}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  replicas: ${opts.replicas ?? 3}
  progressDeadlineSeconds: ${opts.progressDeadlineSeconds ?? 600}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - {name: main, image: "${image}"}
`;
}

/** Resolves once `condition` holds (polling every 25 ms); rejects after `ms`. */
export async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Relists (after the initial list) across watchers. */
export function relists(metrics: WatcherMetrics[]): number {
  return metrics.reduce((n, m) => n + m.lists.expired + m.lists.tooLarge + m.lists.error, 0);
}
