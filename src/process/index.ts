/**
 * Process plumbing that the bookmark study and the benchmarks share: an API
 * server (or any helper) forked into a child process of its own so that its
 * CPU is measured apart from its clients', the child's side of that
 * protocol, machine-wide CPU and steal from /proc, seeded randomness so that
 * runs replay, polling a condition that has no event to wait on, and the
 * HA cluster of `watchmark cluster up` (etcd members and API servers).
 * This index is the module's one entry point; bench/ imports it and the
 * package's public entry points only. It imports the server through its
 * public entry point, and nothing of the study.
 */
export {
  type HaCluster,
  type HaClusterOptions,
  type HaServer,
  haKubeconfig,
  startHaCluster,
} from './ha-cluster.js';
export { type MachineCpu, MS_PER_TICK, readMachineCpu, stealPercent } from './machine-cpu.js';
export { type Random, randomInt, seededRandom, streamRandom } from './random.js';
export {
  findReferenceBinaries,
  REFERENCE_RELEASE,
  type ReferenceBinaries,
  referenceCacheDir,
} from './reference-binaries.js';
export {
  CLUSTER_CONTROLLERS,
  type ReferenceMemory,
  type ReferenceProfile,
  type ReferenceServer,
  type ReferenceServerOptions,
  startReferenceServer,
} from './reference-server.js';
export { runServerChild, type ServerChildSpec, sendToParent } from './server-child-runtime.js';
export {
  type ForkedServer,
  type ForkSpec,
  forkServer,
  killAllForkedServers,
  siblingScript,
} from './server-fork.js';
export { type ServerSample, type StudyServer, spawnStudyServer } from './server-process.js';
export { ETCD_MAX_REQUEST_BYTES } from './spawn/etcd-launcher.js';
export { type PollOptions, pollUntil, WaitTimeoutError, waitUntil } from './wait.js';
