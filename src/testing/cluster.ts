/**
 * A test's own Kubernetes API: {@link testCluster}. See README.md and
 * docs/testing.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../client/client.js';
import {
  createObjects,
  installCustomResourceDefinitions,
  readManifestSources,
} from '../client/kubectl/sources.js';
import type { ResourceType } from '../client/watch/resources.js';
import type { KubeObject } from '../protocol/events.js';
import { type RunningServer, type ServerOptions, startServer } from '../server/index.js';
import { chooseControllers, type RunningTestControllers, runControllers } from './controllers.js';
import {
  type WaitForDeletionOptions,
  type WaitForOptions,
  type WaitTarget,
  waitForDeletion,
  waitForObject,
} from './wait.js';

/** Options of {@link testCluster}. */
export interface TestClusterOptions {
  /** CustomResourceDefinitions: files, folders (read recursively) or objects; Established before testCluster returns. */
  crds?: ReadonlyArray<string | KubeObject>;
  /** Objects to create after the CRDs (namespaces first): files, folders or objects. */
  objects?: ReadonlyArray<string | KubeObject>;
  /**
   * Controllers to run in this process: kube-controller-manager's `namespace` and
   * `garbagecollector` (`gc`) — the default, as in every real cluster — and, on request,
   * the simulated cluster (`deployment`, `replicaset`, `scheduler`, `kubelet`: any of them
   * starts all four). `[]` runs none (the namespace controller lives in the server and is always on).
   */
  controllers?: string | readonly string[];
  /** Simulated nodes when the simulation runs (default 1). */
  nodes?: number;
  /** Serve HTTPS with a generated CA and a bearer token, as a real cluster (default: plain HTTP, no authentication). */
  tls?: boolean;
  /** Server settings passed through (clock, historyWindow, bookmarkInterval, admission, ...). */
  server?: ServerOptions;
  /** Receives one-line messages of background work (failed controller syncs). */
  log?: (line: string) => void;
}

/** A running test cluster: see {@link testCluster}. */
export interface TestCluster {
  /** The server's URL. */
  readonly url: string;
  /** A kubeconfig (YAML) reaching the cluster with full rights. */
  readonly kubeconfig: string;
  /** The same kubeconfig as a file (removed on close): for KUBECONFIG, kubectl and other languages' clients. */
  readonly kubeconfigPath: string;
  /** A watchmark client of the cluster (closed on close). */
  readonly client: KubeClient;
  /** The server itself (its store, stats and everything `watchmark/server` offers). */
  readonly server: RunningServer;
  /** A `@kubernetes/client-node` KubeConfig for the cluster; fails with how to install the package when it is missing. */
  kubeConfig(): Promise<import('@kubernetes/client-node').KubeConfig>;
  /** Resolves with the first object of `type` that `target` names or accepts (and `until` accepts), on a watch. */
  waitFor<T extends KubeObject = KubeObject>(
    type: string | ResourceType,
    target: WaitTarget<T>,
    opts?: WaitForOptions<T>,
  ): Promise<T>;
  /** Resolves once the object is gone (at once when it never existed). */
  waitForDeletion(type: string | ResourceType, name: string, opts?: WaitForDeletionOptions): Promise<void>;
  /** Stops the controllers, the client and the server; nothing is left open once it resolves. */
  close(): Promise<void>;
}

/**
 * Starts an isolated Kubernetes API server for a test (in-memory, its own port),
 * installs `crds` and `objects`, starts the controllers and resolves once all of
 * it is ready: CRDs Established, controllers' caches synced.
 *
 * ```ts
 * const cluster = await testCluster({ crds: ['config/crd'] });
 * await cluster.client.resource('widgets', 'default').create(widget);
 * await cluster.waitFor('widgets', 'w1', { until: (w) => w.status?.ready === true });
 * await cluster.close();
 * ```
 */
export async function testCluster(opts: TestClusterOptions = {}): Promise<TestCluster> {
  const choice = chooseControllers(opts.controllers);
  // Read the manifests before anything starts: a bad file fails fast and leaves nothing behind.
  const crds = opts.crds?.length ? await readManifestSources(opts.crds) : [];
  const objects = opts.objects?.length ? await readManifestSources(opts.objects) : [];
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-test-'));
  const cluster = new Cluster(dir, choice.core.length > 0 || choice.simulation);
  try {
    await cluster.start(opts, crds, objects, choice);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

class Cluster implements TestCluster {
  server!: RunningServer;
  client!: KubeClient;
  readonly kubeconfigPath: string;
  private controllers: RunningTestControllers | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    readonly hasControllers: boolean,
  ) {
    this.kubeconfigPath = join(dir, 'kubeconfig');
  }

  get url(): string {
    return this.server.url;
  }

  get kubeconfig(): string {
    return this.server.kubeconfig;
  }

  async start(
    opts: TestClusterOptions,
    crds: KubeObject[],
    objects: KubeObject[],
    choice: ReturnType<typeof chooseControllers>,
  ): Promise<void> {
    const transport = opts.tls ? {} : { insecureHttp: true, insecureNoAuth: true };
    this.server = await startServer({
      ...transport,
      log: opts.log,
      ...opts.server,
      port: opts.server?.port ?? 0,
      kubeconfigOut: this.kubeconfigPath,
    });
    this.client = await KubeClient.load({ kubeconfig: this.kubeconfigPath, env: {}, qps: 0 });
    if (crds.length > 0) await installCustomResourceDefinitions(this.client, crds);
    if (objects.length > 0) await createObjects(this.client, objects);
    if (this.hasControllers)
      this.controllers = await runControllers(choice, this.kubeconfigPath, {
        nodes: opts.nodes,
        log: opts.log,
      });
  }

  async kubeConfig(): Promise<import('@kubernetes/client-node').KubeConfig> {
    let mod: typeof import('@kubernetes/client-node');
    try {
      mod = await import('@kubernetes/client-node');
    } catch (err) {
      throw new Error(
        `kubeConfig() needs @kubernetes/client-node, which could not be loaded (${(err as Error).message}): npm install --save-dev @kubernetes/client-node`,
      );
    }
    const kc = new mod.KubeConfig();
    if (this.server.caPem) {
      kc.loadFromString(this.kubeconfig);
      return kc;
    }
    // client-node refuses an http:// server unless skipTLSVerify is set (its createAgent),
    // though there is nothing to verify: set it, so plain-HTTP clusters work unchanged.
    const name = 'watchmark-test';
    kc.loadFromOptions({
      clusters: [{ name, server: this.url, skipTLSVerify: true }],
      users: [{ name }],
      contexts: [{ name, cluster: name, user: name, namespace: 'default' }],
      currentContext: name,
    });
    return kc;
  }

  waitFor<T extends KubeObject = KubeObject>(
    type: string | ResourceType,
    target: WaitTarget<T>,
    opts?: WaitForOptions<T>,
  ): Promise<T> {
    return waitForObject<T>(this.client, type, target, opts);
  }

  waitForDeletion(type: string | ResourceType, name: string, opts?: WaitForDeletionOptions): Promise<void> {
    return waitForDeletion(this.client, type, name, opts);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.controllers?.close();
      await this.client?.close();
      await this.server?.close();
      await rm(this.dir, { recursive: true, force: true });
    })();
    return this.closing;
  }
}
