/**
 * What the controller tests share: a real server with the controllers
 * running against it, a client of their own, and waits built on watches
 * (an informer over the objects in question), never on sleeps or polls.
 */
import { join } from 'node:path';
import { KubeClient } from '../../src/client/client.js';
import { type RunningControllers, startControllers } from '../../src/controllers/index.js';
import type { KubeObject, OwnerReference } from '../../src/protocol/events.js';
import type { RunningServer } from '../../src/server/index.js';
import { makeTempDir, type TempDir } from '../helpers/lifecycle.js';
import { startTestServer } from '../helpers/server.js';

/** A server, the controllers on it, and a client. */
export interface ControllerCluster {
  server: RunningServer;
  controllers: RunningControllers;
  kube: KubeClient;
  close(): Promise<void>;
}

/** Starts a plain-HTTP server, the garbage collector against it (synced), and a test client. */
export async function startControllerCluster(): Promise<ControllerCluster> {
  const dir: TempDir = await makeTempDir('watchmark-controllers-');
  const kubeconfig = join(dir.path, 'kubeconfig');
  const server = await startTestServer({ kubeconfigOut: kubeconfig });
  const controllers = await startControllers({ kubeconfig, controllers: ['namespace', 'gc'] });
  await controllers.synced();
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  return {
    server,
    controllers,
    kube,
    close: async () => {
      await kube.close();
      await controllers.close();
      await server.close();
      await dir.remove();
    },
  };
}

/** An owner reference to `owner` (its apiVersion and kind as given). */
export function refTo(owner: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? 'v1',
    kind: owner.kind ?? 'ConfigMap',
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    ...extra,
  };
}

/** A ConfigMap body with these owners (and finalizers). */
export function configMap(name: string, owners: OwnerReference[] = [], finalizers?: string[]): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ownerReferences: owners.length > 0 ? owners : undefined, finalizers },
    data: { k: 'v' },
  };
}

/**
 * Resolves once `holds` is true of the objects of `type` in `namespace`
 * (all namespaces when undefined), checked on the informer's list and on
 * every event after it; rejects after `timeoutMs`, naming `what`.
 */
export async function waitFor(
  kube: KubeClient,
  type: string,
  namespace: string | undefined,
  holds: (objects: Map<string, KubeObject>) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const informer = kube.informer(type, namespace ? { namespace } : { allNamespaces: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const objects = new Map(informer.list().map((o) => [o.metadata?.name ?? '', o]));
        if (informer.isSynced && holds(objects)) resolve();
      };
      informer.on({ add: check, update: check, delete: check });
      informer.synced().then(check, reject);
      timer = setTimeout(() => {
        const names = informer.list().map((o) => o.metadata?.name);
        reject(
          new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${type}: ${names.join(', ')})`),
        );
      }, timeoutMs);
    });
  } finally {
    clearTimeout(timer);
    await informer.stop();
  }
}

/** Every delete event of `type` in `namespace`, in order, until stopped. */
export async function recordDeletions(kube: KubeClient, type: string, namespace: string, into: string[]) {
  const informer = kube.informer(type, { namespace });
  informer.on({ delete: (o) => void into.push(`${o.kind ?? type}/${o.metadata?.name}`) });
  await informer.synced();
  return () => informer.stop();
}
