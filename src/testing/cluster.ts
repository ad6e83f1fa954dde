/**
 * A test's own Kubernetes API: {@link testCluster}. See README.md and
 * docs/testing.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { KubeClient } from '../client/client.js';
import { loadConnection } from '../client/config/index.js';
import {
  createObjects,
  installCustomResourceDefinitions,
  readManifestSources,
} from '../client/kubectl/sources.js';
import type { ResourceType } from '../client/watch/resources.js';
import { USER_AGENT as GC_USER_AGENT } from '../controllers/index.js';
import type { KubeObject } from '../protocol/events.js';
import {
  type AdmissionHooks,
  type RunningServer,
  type ServerFaults,
  type ServerOptions,
  type ServerSnapshot,
  startServer,
} from '../server/index.js';
import { SIMULATION_USER_AGENT_MARK } from '../sim/index.js';
import {
  admissionPluginsOff,
  type ControllerChoice,
  chooseControllers,
  type RunningTestControllers,
  runControllers,
} from './controllers.js';
import { RequestLog } from './requests.js';
import { cachedSetup, rememberSetup, setupKey } from './setup-cache.js';
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
   * Without `serviceaccount` the ServiceAccount admission plugin is off, as envtest has it, unless
   * `server.disableAdmissionPlugins` is given.
   */
  controllers?: string | readonly string[];
  /** Simulated nodes when the simulation runs (default 1). */
  nodes?: number;
  /** Serve HTTPS with a generated CA and a bearer token, as a real cluster (default: plain HTTP, no authentication). */
  tls?: boolean;
  /**
   * In-process admission: `mutate` and `validate` see each write as kube-apiserver's webhooks
   * see it (an AdmissionRequest) and allow, deny or patch it (docs/admission.md).
   */
  admission?: AdmissionHooks;
  /** Server settings passed through (clock, historyWindow, bookmarkInterval, ...). */
  server?: ServerOptions;
  /**
   * Start over a copy of the state an earlier cluster of this process reached with the same
   * `crds` and `objects` (same files, unchanged, or equal objects), instead of installing them
   * again: the same objects, uids and resourceVersions, in a fraction of the time. Default true;
   * off with a store or etcd of your own, or with admission hooks (they may change what is stored).
   */
  reuseSetup?: boolean;
  /** Receives one-line messages of background work (failed controller syncs). */
  log?: (line: string) => void;
}

/** A kubeconfig as its YAML reads (apiVersion v1, kind Config). */
export interface KubeconfigObject {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
  users: Array<{ name: string; user: Record<string, unknown> }>;
  contexts: Array<{ name: string; context: { cluster: string; user: string; namespace?: string } }>;
  'current-context': string;
}

/** A running test cluster: see {@link testCluster}. */
export interface TestCluster {
  /** The server's URL. */
  readonly url: string;
  /** A kubeconfig (YAML) reaching the cluster with full rights. */
  readonly kubeconfig: string;
  /** The same kubeconfig as an object (`clusters`, `users`, `contexts`, `current-context`), for clients configured in memory. */
  readonly kubeconfigObject: KubeconfigObject;
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
  /** Every API request the server answered, for assertions (`requests.count({ verb: 'list' })`). */
  readonly requests: RequestLog;
  /** Fault injection: fail the next requests, stall or drop watches, compact, pause (see ServerFaults). */
  readonly faults: ServerFaults;
  /** The whole state (objects, resourceVersions, served kinds), for {@link TestCluster.restore}. */
  snapshot(): Promise<ServerSnapshot>;
  /**
   * Puts a snapshot's state back, as a kube-apiserver restarted over a restored etcd: every
   * watch ends, and the next write gets the snapshot's resourceVersion + 1. The cluster's own
   * controllers start again over it; a controller of the test's own must relist.
   */
  restore(snapshot: ServerSnapshot): Promise<void>;
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
  const crdSources = opts.crds ?? [];
  const objectSources = opts.objects ?? [];
  const reusable =
    opts.reuseSetup !== false &&
    crdSources.length + objectSources.length > 0 &&
    !opts.server?.store &&
    !opts.server?.startFrom &&
    !opts.server?.etcd &&
    !opts.admission &&
    !opts.server?.admission;
  const key = reusable
    ? await setupKey(
        crdSources,
        objectSources,
        opts.server?.systemNamespaces !== false,
        opts.server?.disableAdmissionPlugins ?? admissionPluginsOff(choice),
      )
    : undefined;
  const template = key === undefined ? undefined : cachedSetup(key);
  // Read the manifests before anything starts: a bad file fails fast and leaves nothing behind.
  const setup = template
    ? { template }
    : {
        crds: crdSources.length ? await readManifestSources(crdSources) : [],
        objects: objectSources.length ? await readManifestSources(objectSources) : [],
        key,
      };
  const dir = await mkdtemp(join(tmpdir(), 'watchmark-test-'));
  const cluster = new Cluster(dir);
  try {
    await cluster.start(opts, setup, choice);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

/** The User-Agent of the waits' connection (the fixture's own requests). */
const WAIT_USER_AGENT = 'watchmark-testing/0.1.0 (waitFor)';

/**
 * Requests the cluster makes itself: its controllers' (kube-controller-manager's collector, the
 * simulated components) and its waits'. The record leaves them out: it is the test's.
 */
function isClusterOwn(userAgent: string | undefined): boolean {
  return (
    userAgent !== undefined &&
    (userAgent === WAIT_USER_AGENT ||
      userAgent === GC_USER_AGENT ||
      userAgent.includes(SIMULATION_USER_AGENT_MARK))
  );
}

/** How a cluster gets its CRDs and objects: from an earlier cluster's snapshot, or installed (then kept under `key`). */
type Setup =
  | { template: ServerSnapshot }
  | { crds: KubeObject[]; objects: KubeObject[]; key: string | undefined; template?: undefined };

class Cluster implements TestCluster {
  server!: RunningServer;
  client!: KubeClient;
  readonly kubeconfigPath: string;
  readonly requests = new RequestLog(isClusterOwn);
  /** The waits' own connection: its requests are the fixture's, not the test's, and stay out of the record. */
  private waits!: KubeClient;
  private controllers: RunningTestControllers | undefined;
  private choice: ControllerChoice = { core: [], simulation: false };
  private opts: TestClusterOptions = {};
  private closing: Promise<void> | undefined;

  constructor(private readonly dir: string) {
    this.kubeconfigPath = join(dir, 'kubeconfig');
    // So that `const { waitFor, faults } = cluster` works as it reads.
    for (const m of ['kubeConfig', 'waitFor', 'waitForDeletion', 'snapshot', 'restore', 'close'] as const)
      this[m] = this[m].bind(this) as never;
  }

  get url(): string {
    return this.server.url;
  }

  get kubeconfig(): string {
    return this.server.kubeconfig;
  }

  get kubeconfigObject(): KubeconfigObject {
    return parseYaml(this.kubeconfig) as KubeconfigObject;
  }

  get faults(): ServerFaults {
    return this.server.faults;
  }

  async start(opts: TestClusterOptions, setup: Setup, choice: ControllerChoice): Promise<void> {
    this.opts = opts;
    this.choice = choice;
    const transport = opts.tls ? {} : { insecureHttp: true, insecureNoAuth: true };
    const onRequest = opts.server?.onRequest;
    this.server = await startServer({
      ...transport,
      log: opts.log,
      ...opts.server,
      disableAdmissionPlugins: opts.server?.disableAdmissionPlugins ?? admissionPluginsOff(choice),
      startFrom: setup.template ?? opts.server?.startFrom,
      admission: opts.admission ?? opts.server?.admission,
      port: opts.server?.port ?? 0,
      kubeconfigOut: this.kubeconfigPath,
      onRequest: onRequest
        ? (r) => {
            this.requests.record(r);
            onRequest(r);
          }
        : this.requests.record,
    });
    // One read of the kubeconfig for both connections.
    const connection = await loadConnection({ kubeconfig: this.kubeconfigPath, env: {} });
    this.client = new KubeClient(connection, { qps: 0 });
    this.waits = new KubeClient(connection, { qps: 0, userAgent: WAIT_USER_AGENT });
    // With the ServiceAccount plugin on, a pod needs its namespace's account, which the
    // serviceaccount controller makes: seed pods wait until the controllers run (the plugin
    // retries the `default` account a while, as kube-apiserver's does).
    const pluginOff = (opts.server?.disableAdmissionPlugins ?? admissionPluginsOff(choice)).includes(
      'ServiceAccount',
    );
    const podsLater =
      setup.template || pluginOff
        ? []
        : setup.objects.filter((o) => o.kind === 'Pod' && o.apiVersion === 'v1');
    if (!setup.template) {
      if (setup.crds.length > 0) await installCustomResourceDefinitions(this.client, setup.crds);
      const now = setup.objects.filter((o) => !podsLater.includes(o));
      if (now.length > 0) await createObjects(this.client, now);
      if (setup.key !== undefined && podsLater.length === 0)
        rememberSetup(setup.key, await this.server.snapshot());
    }
    await this.startControllers();
    if (!setup.template && podsLater.length > 0) {
      await createObjects(this.client, podsLater);
      if (setup.key !== undefined) rememberSetup(setup.key, await this.server.snapshot());
    }
    // The setup's requests are not the test's.
    this.requests.clear();
  }

  private async startControllers(): Promise<void> {
    if (this.choice.core.length === 0 && !this.choice.simulation) return;
    this.controllers = await runControllers(this.choice, this.kubeconfigPath, {
      nodes: this.opts.nodes,
      log: this.opts.log,
    });
  }

  snapshot(): Promise<ServerSnapshot> {
    return this.server.snapshot();
  }

  async restore(snapshot: ServerSnapshot): Promise<void> {
    // The controllers' caches would hold objects of another history: they start again, as a
    // kube-controller-manager does when its apiserver comes back over a restored etcd.
    const running = this.controllers;
    this.controllers = undefined;
    await running?.close();
    await this.server.restore(snapshot);
    // Kinds may have come or gone with the CRDs.
    this.client.mapper.reset();
    this.waits.mapper.reset();
    await this.startControllers();
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
    kc.loadFromString(this.kubeconfig);
    return kc;
  }

  waitFor<T extends KubeObject = KubeObject>(
    type: string | ResourceType,
    target: WaitTarget<T>,
    opts?: WaitForOptions<T>,
  ): Promise<T> {
    return waitForObject<T>(this.waits, type, target, opts);
  }

  waitForDeletion(type: string | ResourceType, name: string, opts?: WaitForDeletionOptions): Promise<void> {
    return waitForDeletion(this.waits, type, name, opts);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.controllers?.close();
      this.controllers = undefined;
      await this.client?.close();
      await this.waits?.close();
      await this.server?.close();
      await rm(this.dir, { recursive: true, force: true });
    })();
    return this.closing;
  }
}
