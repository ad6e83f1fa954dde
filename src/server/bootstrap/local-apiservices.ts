/**
 * The local APIServices kube-apiserver's aggregator registers as it starts
 * (pkg/controlplane/apiserver/aggregator.go: the `apiservice-registration-controller` makes one
 * per built-in group-version served, `makeAPIService` with `DefaultGenericAPIServicePriorities`,
 * labelled `kube-aggregator.kubernetes.io/automanaged: onstart`), as the reference writes them
 * (apiservices.generated.ts). Their Available condition is the APIService strategy's.
 */
import { findByKind } from '../kinds/served/registry.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { BootstrapWrites } from './create-missing.js';

/** Writes the local APIServices that are missing. */
export async function writeLocalAPIServices(objects: ObjectStorage): Promise<void> {
  // Loaded when a server starts, not when this module is imported.
  const { LOCAL_APISERVICES } = await import('./apiservices.generated.js');
  const kind = findByKind('apiregistration.k8s.io/v1', 'APIService');
  if (!kind) throw new Error('bootstrap: APIService is not served');
  await new BootstrapWrites(objects).createMissing(LOCAL_APISERVICES, { kind, onlyManager: true });
}
