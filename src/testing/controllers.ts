/**
 * Which controllers a test cluster runs: kube-controller-manager's
 * (controllers/: namespace, garbage collector) by default, because a real
 * cluster runs them; the simulated cluster's (sim/: Deployment and
 * ReplicaSet and ReplicationController controllers, scheduler, kubelets) on request, as one unit,
 * since none of them does anything useful without the others.
 */
import { ControllerListError, parseControllerList, startControllers } from '../controllers/index.js';
import { generateServingCertificates } from '../server/index.js';
import { startSimulation } from '../sim/index.js';

/** Names that start the simulated cluster (kube-controller-manager's and the components' names). */
const SIMULATION_NAMES = new Set([
  'deployment',
  'deployment-controller',
  'replicaset',
  'replicaset-controller',
  'replicationcontroller',
  'replicationcontroller-controller',
  'scheduler',
  'kube-scheduler',
  'kubelet',
  'simulation',
]);

/**
 * The default: the controllers deletion needs, which every real cluster runs (namespace,
 * garbage collector). The per-namespace defaults (`serviceaccount`, `root-ca-cert-publisher`)
 * are opt-in, or `*`: a test cluster starts as envtest's kube-apiserver does, with no
 * `default` ServiceAccount or `kube-root-ca.crt` in a new namespace unless asked for.
 */
export const DEFAULT_TEST_CONTROLLERS: readonly string[] = ['namespace', 'garbagecollector'];

/**
 * The admission plugins a test cluster turns off when the test names none
 * (`server.disableAdmissionPlugins`): ServiceAccount unless the `serviceaccount` controller runs,
 * since the plugin refuses every pod of a namespace without its `default` account, and envtest
 * starts kube-apiserver without it.
 */
export function admissionPluginsOff(choice: ControllerChoice): string[] {
  return choice.core.includes('serviceaccount') ? [] : ['ServiceAccount'];
}

/** The parsed choice: kube-controller-manager's controllers, and whether the simulation runs. */
export interface ControllerChoice {
  core: string[];
  simulation: boolean;
}

/** Reads a `controllers` option (a list or a `--controllers`-style string); throws ControllerListError on unknown names. */
export function chooseControllers(option: string | readonly string[] | undefined): ControllerChoice {
  const items =
    option === undefined
      ? [...DEFAULT_TEST_CONTROLLERS]
      : typeof option === 'string'
        ? option.split(',').map((s) => s.trim())
        : [...option];
  const simulation = items.some((n) => SIMULATION_NAMES.has(n));
  const rest = items.filter((n) => n !== '' && !SIMULATION_NAMES.has(n));
  if (rest.length === 0) return { core: [], simulation };
  try {
    return { core: parseControllerList(rest.join(',')), simulation };
  } catch (err) {
    if (err instanceof ControllerListError)
      throw new ControllerListError(
        `${err.message}; for the simulated cluster: deployment, replicaset, scheduler, kubelet`,
      );
    throw err;
  }
}

/** Controllers running for a test cluster; `close()` stops them all. */
export interface RunningTestControllers {
  close(): Promise<void>;
}

/** Starts the chosen controllers against the cluster a kubeconfig file reaches, synced before it resolves. */
export async function runControllers(
  choice: ControllerChoice,
  kubeconfig: string,
  opts: { nodes?: number; log?: (line: string) => void },
): Promise<RunningTestControllers> {
  const parts: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    await Promise.all(parts.map((p) => p.close()));
  };
  try {
    if (choice.core.length > 0) {
      const core = await startControllers({ kubeconfig, controllers: choice.core, log: opts.log });
      parts.push(core);
      await core.synced();
    }
    if (choice.simulation) {
      // One garbage collector per cluster: the simulation runs its own only when the core one is off.
      // The kubelets' API (their containers' logs) over a certificate of their own.
      const serving = await generateServingCertificates({ hosts: ['localhost'] });
      const sim = await startSimulation({
        kubeconfig,
        nodes: opts.nodes ?? 1,
        // No nodes: the workload controllers alone, no scheduler marking every pod unschedulable.
        scheduler: (opts.nodes ?? 1) > 0,
        log: opts.log,
        kubeletServing: { key: serving.keyPem, cert: serving.certPem },
        garbageCollector: !choice.core.includes('garbagecollector'),
      });
      parts.push({ close: () => sim.stop() });
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { close };
}
