/**
 * The simulated cluster: deployment, ReplicaSet and ReplicationController controllers, a scheduler,
 * the garbage collector and N kubelets, each a client of a watchmark (or any
 * Kubernetes) API server through watchmark's own client library, exactly as
 * the real ones are: shared informers feed work queues, writes go through
 * the REST API (status through `status`), events are core/v1 Events. The
 * garbage collector is src/controllers' (kube-controller-manager's, for
 * every deletable kind), the one `watchmark serve --controllers` runs.
 *
 * ```ts
 * const sim = await startSimulation({ kubeconfig: server.kubeconfigPath, nodes: 3 });
 * // kubectl apply a Deployment: pods get scheduled, pulled, started, Ready
 * await sim.stop();
 * ```
 */
import { setMaxListeners } from 'node:events';
import { KubeClient } from '../client/client.js';
import { loadConnection } from '../client/config/index.js';
import { type RunningControllers, startControllers } from '../controllers/index.js';
import { type Clock, systemClock } from '../protocol/clock.js';
import { isAlreadyExists } from '../protocol/status.js';
import type { Controller, SimContext } from './core/controller.js';
import { findCondition } from './core/objects.js';
import { Semaphore } from './core/semaphore.js';
import { DEFAULT_TIMING, type SimulationTiming } from './core/timing.js';
import { DeploymentController } from './deployment/controller.js';
import { EventBroadcaster, type EventStats } from './events/recorder.js';
import { controlPlaneInformers } from './informers.js';
import { Kubelet } from './kubelet/kubelet.js';
import { KubeletLogServer } from './kubelet/logs.js';
import { KUBELET_VERSION, NODE_LEASE_NAMESPACE } from './kubelet/node.js';
import { ImageRegistry } from './kubelet/registry.js';
import { NodeLifecycleController } from './node-lifecycle.js';
import { REPLICATION_CONTROLLERS, ReplicaSetController } from './replicaset.js';
import { Scheduler } from './scheduler.js';

export type { Deployment, Pod } from './core/objects.js';
export { DEFAULT_TIMING, type SimulationTiming } from './core/timing.js';
export { KUBELET_VERSION } from './kubelet/node.js';
export { ImageRegistry, parseImagesFile } from './kubelet/registry.js';
export { BUILT_IN_IMAGES } from './kubelet/registry-data.js';
export {
  buildDeployment,
  buildNamespace,
  buildPod,
  type ContainerOptions,
  DEFAULT_IMAGE,
  type DeploymentOptions,
  type MetadataOptions,
  type PodOptions,
} from './workloads.js';

/** Options of {@link startSimulation}. */
export interface SimulationOptions {
  /** Path of a kubeconfig reaching the server. */
  kubeconfig: string;
  /** Number of nodes (default 3), named node-0..node-(N-1). */
  nodes?: number;
  /** Pods per node (default 110, the kubelet's); pods beyond it stay Pending with FailedScheduling. */
  nodeCapacity?: number;
  /** Kubelet step delays (see {@link SimulationTiming}; defaults ~300 ms per pod). */
  timing?: SimulationTiming;
  /**
   * The simulated registry: images it lacks fail to pull (ErrImagePull, then
   * ImagePullBackOff). Default {@link ImageRegistry.builtIn}, common public images.
   */
  registry?: ImageRegistry;
  /** Time source for the simulation's timers and timestamps (informers keep the system clock). */
  clock?: Clock;
  /** Receives one-line log messages (failed syncs and writes). */
  log?: (line: string) => void;
  /** Stops the simulation when aborted. */
  signal?: AbortSignal;
  /**
   * Checkpoint the controllers' shared informers in this directory and resume
   * from it on the next start (a controller-manager restart without relists,
   * when the server's storage and history still hold the checkpoints' resourceVersions).
   */
  checkpointDir?: string;
  /**
   * Run the garbage collector (default true). Leave it out when the same
   * server already has one, e.g. `watchmark serve --controllers gc`: two
   * collectors would only race each other's deletes.
   */
  garbageCollector?: boolean;
  /**
   * Run the scheduler (default true). Off, pods stay unbound, as on a control plane without
   * kube-scheduler (with `nodes: 0`: kube-controller-manager's workload controllers alone).
   */
  scheduler?: boolean;
  /**
   * The serving key and certificate (PEM) of the kubelets' API: when given, the kubelets serve
   * their containers' logs (kubelet/logs.ts) on one loopback port, and the Nodes report it
   * (`Hostname: localhost`, the kubelet port), so kube-apiserver's pods/log reads them there.
   */
  kubeletServing?: { key: string; cert: string };
}

/** Counters of a running simulation. */
export interface SimulationStats {
  /** Events written by every component, summed. */
  events: EventStats;
  /** Syncs done and failed (then retried), per controller. */
  controllers: Record<string, { syncs: number; failures: number }>;
  /** Pods bound by the scheduler. */
  scheduled: number;
}

/** A running simulated cluster. */
export interface Simulation {
  /** The node names, `node-0` .. `node-(N-1)`. */
  readonly nodes: string[];
  /** Counters (for benchmarks and tests). */
  stats(): SimulationStats;
  /** Stops every controller, kubelet, informer, timer and connection; idempotent. */
  stop(): Promise<void>;
}

/** The simulation could not start (the cause says why). */
export class SimulationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SimulationError';
  }
}

/**
 * A component's User-Agent as client-go builds it (`rest.DefaultKubernetesUserAgent`:
 * `kube-scheduler/v1.33.1 (linux/amd64) kubernetes/<commit>`), with the sim named in place of the platform.
 */
function userAgent(component: 'kube-controller-manager' | 'kube-scheduler' | 'kubelet'): string {
  return `${component}/${KUBELET_VERSION} ${SIMULATION_USER_AGENT_MARK}`;
}

/** What every simulated component's User-Agent holds, telling its requests apart from a client's. */
export const SIMULATION_USER_AGENT_MARK = '(watchmark-sim)';

/** Kubelets' requests in flight, all nodes together. */
const KUBELET_REQUESTS_IN_FLIGHT = 64;

async function ensureNamespace(ctx: SimContext, name: string): Promise<void> {
  try {
    await ctx.kube.resource('namespaces').create({ metadata: { name } }, { signal: ctx.signal });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

/**
 * Starts the simulated cluster against the server `opts.kubeconfig` reaches;
 * resolves when every node is registered and Ready and every controller's
 * informers have synced.
 */
export async function startSimulation(opts: SimulationOptions): Promise<Simulation> {
  if (opts.signal?.aborted) throw new SimulationError('the simulated cluster did not start: aborted');
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? (() => undefined);
  const abort = new AbortController();
  // Every request in flight listens on this one signal: thousands at a time is normal here.
  setMaxListeners(0, abort.signal);
  const timing = { ...DEFAULT_TIMING, ...opts.timing };
  const count = opts.nodes ?? 3;
  const capacity = opts.nodeCapacity ?? 110;
  const logger = { error: (obj: object, msg: string) => log(`informer: ${msg} ${JSON.stringify(obj)}`) };
  // Three connections, as three kinds of process: kube-controller-manager, kube-scheduler and the
  // kubelets. Each writes under its process's name, as the real ones do: they send no fieldManager,
  // and kube-apiserver names the manager after the User-Agent's part before the first `/`
  // (apiserver pkg/endpoints/handlers/rest.go, `prefixFromUserAgent`), so managedFields read
  // `kube-controller-manager`, `kube-scheduler` and `kubelet` as on a real cluster.
  const connection = await loadConnection({ kubeconfig: opts.kubeconfig });
  // No client-side rate limit: the sim must keep up with thousands of pods; bounded concurrency paces it instead.
  const control = new KubeClient(connection, {
    qps: 0,
    userAgent: userAgent('kube-controller-manager'),
    informerDefaults: { logger },
    informerFactory: opts.checkpointDir ? { checkpoint: { dir: opts.checkpointDir } } : {},
  });
  // The scheduler reads through the controller manager's informers (reads own no fields) and writes as itself.
  const schedulerClient = new KubeClient(connection, { qps: 0, userAgent: userAgent('kube-scheduler') });
  const nodeClient = new KubeClient(connection, {
    qps: 0,
    userAgent: userAgent('kubelet'),
    informerDefaults: { logger },
  });
  const ctx = (kube: KubeClient): SimContext => ({ kube, clock, signal: abort.signal, log });
  const broadcasters: EventBroadcaster[] = [];
  const broadcaster = (kube: KubeClient) => {
    const b = new EventBroadcaster(ctx(kube));
    broadcasters.push(b);
    return b;
  };
  const controllers: Controller[] = [];
  const kubelets: Kubelet[] = [];
  let gc: RunningControllers | undefined;
  let logServer: KubeletLogServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      abort.abort();
      await gc?.close();
      await Promise.all(controllers.map((c) => c.stop()));
      await Promise.all(kubelets.map((k) => k.stop()));
      await logServer?.close();
      await Promise.all(broadcasters.map((b) => b.stop()));
      await control.close();
      await schedulerClient.close();
      await nodeClient.close();
    })());
  const onAbort = () => void stop();
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const c = ctx(control);
    await ensureNamespace(c, 'default');
    await ensureNamespace(c, NODE_LEASE_NAMESPACE);
    // kube-controller-manager's collector, through the controller manager's connection: its
    // monitors list while the nodes register; its workers start once they have.
    if (opts.garbageCollector !== false)
      gc = await startControllers({ client: control, controllers: ['garbagecollector'], clock, log });
    const informers = controlPlaneInformers(control);
    controllers.push(
      new DeploymentController(
        c,
        informers,
        broadcaster(control).recorder({ component: 'deployment-controller' }),
      ),
      new ReplicaSetController(
        c,
        informers,
        broadcaster(control).recorder({ component: 'replicaset-controller' }),
      ),
      new ReplicaSetController(
        c,
        { replicaSets: informers.replicationControllers, pods: informers.pods },
        broadcaster(control).recorder({ component: REPLICATION_CONTROLLERS.component }),
        REPLICATION_CONTROLLERS,
      ),
      new NodeLifecycleController(c, informers.nodes),
    );
    if (opts.scheduler !== false)
      controllers.push(
        new Scheduler(
          ctx(schedulerClient),
          informers,
          broadcaster(schedulerClient).recorder({ component: 'default-scheduler' }),
        ),
      );
    const slots = new Semaphore(KUBELET_REQUESTS_IN_FLIGHT);
    const registry = opts.registry ?? ImageRegistry.builtIn();
    let endpoint: { hostname: string; port: number } | undefined;
    if (opts.kubeletServing) {
      logServer = new KubeletLogServer({
        tls: opts.kubeletServing,
        clock,
        findPod: (namespace, name) => {
          for (const k of kubelets) {
            const pod = k.pod(namespace, name);
            if (pod) return pod;
          }
          return undefined;
        },
      });
      endpoint = { hostname: 'localhost', port: await logServer.listen() };
    }
    for (let i = 0; i < count; i++) {
      kubelets.push(
        new Kubelet(ctx(nodeClient), {
          name: `node-${i}`,
          index: i,
          podCapacity: capacity,
          timing,
          registry,
          slots,
          events: broadcaster(nodeClient),
          endpoint,
        }),
      );
    }
    const nodeController = broadcaster(control).recorder({ component: 'node-controller' });
    await Promise.all(
      kubelets.map(async (k) => {
        const node = await k.register();
        const name = node.metadata?.name;
        nodeController.event(
          node,
          'Normal',
          'RegisteredNode',
          `Node ${name} event: Registered Node ${name} in Controller`,
        );
      }),
    );
    await Promise.all(kubelets.map((k) => k.runPods()));
    await control.informers.synced();
    await untilNodesReady(informers.nodes, count, abort.signal);
    await gc?.synced();
    for (const controller of controllers) controller.start();
  } catch (err) {
    opts.signal?.removeEventListener('abort', onAbort);
    await stop();
    throw new SimulationError(`the simulated cluster did not start: ${(err as Error).message}`, {
      cause: err,
    });
  }

  return {
    nodes: kubelets.map((k) => k.nodeName),
    stats: () => ({
      events: broadcasters.reduce(
        (sum, b) => {
          for (const k of Object.keys(sum) as Array<keyof EventStats>) sum[k] += b.stats[k];
          return sum;
        },
        { created: 0, patched: 0, filtered: 0, dropped: 0, failed: 0 },
      ),
      controllers: {
        ...Object.fromEntries(controllers.map((c) => [c.name, { syncs: c.syncs, failures: c.failures }])),
        ...gc?.stats(),
      },
      scheduled: controllers.reduce((n, c) => n + (c instanceof Scheduler ? c.bound : 0), 0),
    }),
    stop: () => {
      opts.signal?.removeEventListener('abort', onAbort);
      return stop();
    },
  };
}

/** Waits until the node informer holds `count` Ready nodes (it follows the registrations). */
async function untilNodesReady(
  nodes: ReturnType<typeof controlPlaneInformers>['nodes'],
  count: number,
  signal: AbortSignal,
): Promise<void> {
  const ready = () =>
    nodes.list().filter((n) => findCondition(n.status?.conditions, 'Ready')?.status === 'True').length >=
    count;
  if (ready()) return;
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!ready()) return;
      remove();
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      remove();
      reject(new Error('stopped'));
    };
    const remove = nodes.on({ add: check, update: check });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
