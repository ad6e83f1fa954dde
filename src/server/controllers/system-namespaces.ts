/**
 * kube-apiserver's system namespaces controller (pkg/controlplane/controller/systemnamespaces,
 * `Controller.sync`): the namespaces the server keeps exist. Upstream it checks every minute
 * from its namespace informer; here the namespace controller asks again as soon as the watch
 * cache says one of them went (kube-node-lease may be deleted: it is not immortal).
 */
import { StatusError } from '../../protocol/status.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ObjectStorage } from '../registry/object-storage.js';

/**
 * Creates the namespaces of `names` that do not exist. Several servers over one etcd may race:
 * a namespace another created first is left as it is.
 */
export async function ensureNamespaces(objects: ObjectStorage, names: readonly string[]): Promise<void> {
  const kind = findByKind('v1', 'Namespace')!;
  for (const name of names) {
    const exists = await objects.get(kind, undefined, name).then(
      () => true,
      (err: unknown) => {
        if (err instanceof StatusError && err.code === 404) return false;
        throw err;
      },
    );
    if (exists) continue;
    try {
      // `createNamespaceIfNeeded`: the bootstrap controllers create them as kube-apiserver's own client.
      await objects.create(
        kind,
        undefined,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        { fieldManager: { manager: 'kube-apiserver' } },
      );
    } catch (err) {
      if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
    }
  }
}
