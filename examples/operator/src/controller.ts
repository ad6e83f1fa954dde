/**
 * The Website controller: informers feed a work queue of Website keys; one
 * or more workers reconcile each key against the caches (controller-runtime's
 * shape). A failed reconcile (409 Conflict from a stale cache, a 5xx, a
 * dropped connection) puts the key back with backoff; nothing is lost
 * because the next attempt reads the newest cache.
 *
 * Per Website:
 * - without the finalizer: add it (and stop: the update event brings it back);
 * - deleted (deletionTimestamp set): remove its registry entry, then the
 *   finalizer; the Deployment goes with the Website through its owner
 *   reference (the garbage collector);
 * - otherwise: registry entry, Deployment (created, or updated to the spec),
 *   then status.
 */
import { ApiError, type OperatorKube } from './kube.js';
import {
  controllerOf,
  deploymentUpdate,
  desiredDeployment,
  desiredStatus,
  registryEntry,
  registryName,
  sameStatus,
} from './reconcile.js';
import { DEFAULT_REGISTRY_NAMESPACE, FINALIZER, keyOf, splitKey, type Website } from './types.js';
import { WorkQueue } from './workqueue.js';

export interface ControllerOptions {
  /** Where the registry ConfigMaps live (created if missing); default `website-registry`. */
  registryNamespace?: string;
  /** Concurrent reconciles (distinct keys); default 2. */
  workers?: number;
  /** One-line log sink; default none. */
  log?: (line: string) => void;
  now?: () => Date;
}

/** A running controller. */
export interface RunningController {
  readonly kube: OperatorKube;
  /** Reconciles done, by outcome (tests and metrics read these). */
  readonly stats: { reconciles: number; conflicts: number; errors: number; cleanups: number };
  stop(): Promise<void>;
}

/** Starts the controller: informers synced, workers running. */
export async function startController(
  kube: OperatorKube,
  opts: ControllerOptions = {},
): Promise<RunningController> {
  const registry = opts.registryNamespace ?? DEFAULT_REGISTRY_NAMESPACE;
  const log = opts.log ?? (() => undefined);
  const now = opts.now ?? (() => new Date());
  const queue = new WorkQueue();
  const stats = { reconciles: 0, conflicts: 0, errors: 0, cleanups: 0 };

  await kube.ensureNamespace(registry);
  await kube.start({
    website: (key) => queue.add(key),
    deployment: (owner) => {
      if (owner) queue.add(owner);
    },
  });

  const reconcile = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const w = kube.website(namespace, name);
    if (!w) return; // gone: its Deployment is the garbage collector's, its registry entry was cleaned up
    if (w.metadata.deletionTimestamp) {
      await finalize(w);
      return;
    }
    if (!w.metadata.finalizers?.includes(FINALIZER)) {
      const next = structuredClone(w);
      next.metadata.finalizers = [...(w.metadata.finalizers ?? []), FINALIZER];
      await kube.replaceWebsite(next);
      return;
    }
    await ensureRegistry(w);
    const { deployment, problem } = await ensureDeployment(w);
    const status = desiredStatus(w, deployment, problem, now);
    if (!sameStatus(w.status, status)) await kube.replaceWebsiteStatus({ ...w, status });
  };

  const finalize = async (w: Website): Promise<void> => {
    if (!w.metadata.finalizers?.includes(FINALIZER)) return;
    const removed = await kube.deleteConfigMap(
      registry,
      registryName(w.metadata.namespace ?? '', w.metadata.name ?? ''),
    );
    if (removed) stats.cleanups++;
    log(`${keyOf(w)}: registry entry ${removed ? 'removed' : 'already gone'}; releasing the finalizer`);
    const next = structuredClone(w);
    next.metadata.finalizers = w.metadata.finalizers.filter((f) => f !== FINALIZER);
    await kube.replaceWebsite(next);
  };

  const ensureRegistry = async (w: Website): Promise<void> => {
    const want = registryEntry(w, registry);
    const have = await kube.getConfigMap(registry, want.metadata.name ?? '');
    if (!have) {
      try {
        await kube.createConfigMap(want);
      } catch (err) {
        // Created by an earlier attempt whose answer was lost: compare on the next pass.
        if (!(err instanceof ApiError && err.code === 409)) throw err;
        throw new ApiError(409, `registry entry ${want.metadata.name} appeared meanwhile`);
      }
      return;
    }
    if (JSON.stringify(have.data ?? {}) !== JSON.stringify(want.data))
      await kube.replaceConfigMap({ ...have, data: want.data });
  };

  const ensureDeployment = async (w: Website) => {
    const existing = kube.deployment(w.metadata.namespace ?? '', w.metadata.name ?? '');
    if (!existing)
      return { deployment: await kube.createDeployment(desiredDeployment(w)), problem: undefined };
    const owner = controllerOf(existing);
    if (owner?.uid !== w.metadata.uid)
      return {
        deployment: undefined,
        problem: {
          reason: 'DeploymentConflict',
          message: `Deployment ${existing.metadata.name} exists and is not controlled by this Website`,
        },
      };
    const update = deploymentUpdate(w, existing);
    return { deployment: update ? await kube.replaceDeployment(update) : existing, problem: undefined };
  };

  let stopping = false;
  const worker = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await reconcile(key);
        stats.reconciles++;
        queue.forget(key);
      } catch (err) {
        if (stopping) {
          queue.done(key);
          return;
        }
        const code = err instanceof ApiError ? err.code : undefined;
        if (code === 409) stats.conflicts++;
        else stats.errors++;
        log(`${key}: ${code ?? ''} ${(err as Error).message}; retry ${queue.retries(key) + 1}`);
        queue.addRateLimited(key);
      }
      queue.done(key);
    }
  };
  const workers = Array.from({ length: opts.workers ?? 2 }, () => worker());

  return {
    kube,
    stats,
    stop: async () => {
      stopping = true;
      queue.shutDown();
      await kube.stop();
      await Promise.all(workers);
    },
  };
}
