/**
 * A cluster for rollout tests: an in-process API server (bookmarks every
 * 300 ms), the simulated cluster against it, a client, and manifests.
 * Everything is closed by `close()`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeClient } from '../../src/client/client.js';
import type { WatcherMetrics } from '../../src/client/watch/metrics.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { buildDeployment, buildNamespace, type Simulation, startSimulation } from '../../src/sim/index.js';
import { makeTempDir } from '../helpers/lifecycle.js';

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
  const temp = await makeTempDir('watchmark-rollout-');
  const dir = temp.path;
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startServer({
    disableAdmissionPlugins: ['ServiceAccount'],
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
      await temp.remove();
    },
  };
}

/**
 * A namespace and a Deployment `name` of `replicas` pods of `image`, as a
 * manifest file's text (JSON documents, which are YAML too).
 */
export function deploymentManifest(
  namespace: string,
  name: string,
  image: string,
  opts: { replicas?: number; progressDeadlineSeconds?: number; paused?: boolean } = {},
): string {
  const deployment = buildDeployment(name, {
    namespace,
    replicas: opts.replicas ?? 3,
    image,
    container: 'main',
    spec: {
      progressDeadlineSeconds: opts.progressDeadlineSeconds ?? 600,
      ...(opts.paused !== undefined && { paused: opts.paused }),
    },
  });
  return `${JSON.stringify(buildNamespace(namespace))}\n---\n${JSON.stringify(deployment)}\n`;
}

/** Relists (after the initial list) across watchers. */
export function relists(metrics: WatcherMetrics[]): number {
  return metrics.reduce((n, m) => n + m.lists.expired + m.lists.tooLarge + m.lists.error, 0);
}
