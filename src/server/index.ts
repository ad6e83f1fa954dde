/** The watchmark API server as a library: `import { startServer } from 'watchmark/server'`. */
import type { EtcdStore, EtcdStoreOptions } from './stores/etcd.js';

export {
  ETCD_MAX_REQUEST_BYTES,
  type EtcdCluster,
  type EtcdClusterOptions,
  type EtcdMember,
  findEtcdBinary,
  PortTakenError,
  startEtcdCluster,
} from '../process/spawn/etcd-launcher.js';
export { freePort } from '../process/spawn/free-port.js';
export { TetheredProcess } from '../process/spawn/tethered-process.js';
export {
  type AdmissionAnswer,
  type AdmissionHook,
  type AdmissionHooks,
  type AdmissionOperation,
  type AdmissionRequest,
  type AdmissionStatus,
  type AdmissionUserInfo,
  IN_PROCESS_MUTATING_NAME,
  IN_PROCESS_VALIDATING_NAME,
  type JsonPatchOperation,
} from './admission/types.js';
export type { FailRule, FaultHandle } from './faults/fail-rules.js';
export type { RequestRecord, RequestVerb } from './faults/request-attributes.js';
export type { ServerFaults } from './faults/server-faults.js';
export { generateToken } from './http/auth.js';
export {
  DISABLEABLE_ADMISSION_PLUGINS,
  disabledAdmissionPlugins,
} from './kinds/admission-plugins.js';
export { DEFAULTS, type ServerOptions } from './options.js';
export { buildKubeconfig, type KubeconfigOptions, writeKubeconfig } from './pki/kubeconfig.js';
export {
  type CertificateAuthority,
  type ClientCertificate,
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
  type ServingCertificates,
} from './pki/tls.js';
export type { RunningServer, ServerSnapshot } from './running-server.js';
export { startServer } from './start-server.js';
export type { ServerStats } from './stats/stats.js';
export type { EtcdStore, EtcdStoreOptions } from './stores/etcd.js';
export { MemoryStore, type MemoryStoreSnapshot } from './stores/memory.js';
export { type Store, StoreError, type StoreEvent, type StoreKV } from './stores/types.js';

/**
 * An etcd store of its own, as `ServerOptions.etcd` opens one: to share one
 * store among servers (`ServerOptions.store`, which the servers never close)
 * or to read the store beside them. The etcd client loads on the first call,
 * not with this module: it takes most of a second. Closing it is the caller's.
 */
export async function createEtcdStore(options: EtcdStoreOptions): Promise<EtcdStore> {
  const { EtcdStore } = await import('./stores/etcd.js');
  return new EtcdStore(options);
}

/**
 * Loads now what a server otherwise loads on first use (the etcd client, the
 * patch engine), for a process that must start a server fast later: a
 * standby loaded while the server it replaces still serves.
 */
export async function preloadServerModules(): Promise<void> {
  await Promise.all([import('./stores/etcd.js'), import('../protocol/patch/index.js')]);
}
