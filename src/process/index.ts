/**
 * Process plumbing that the bookmark study and the benchmarks share: an API
 * server (or any helper) forked into a child process of its own so that its
 * CPU is measured apart from its clients', the child's side of that
 * protocol, machine-wide CPU and steal from /proc, seeded randomness so that
 * runs replay, and polling a condition that has no event to wait on.
 * This index is the module's one entry point; bench/ imports it and the
 * package's public entry points only. It imports the server through its
 * public entry point, and nothing of the study.
 */
export { type MachineCpu, MS_PER_TICK, readMachineCpu, stealPercent } from './machine-cpu.js';
export { type Random, randomInt, seededRandom, streamRandom } from './random.js';
export {
  CLUSTER_CONTROLLERS,
  findReferenceBinaries,
  REFERENCE_RELEASE,
  type ReferenceBinaries,
  type ReferenceMemory,
  type ReferenceProfile,
  type ReferenceServer,
  type ReferenceServerOptions,
  referenceCacheDir,
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
export { type PollOptions, pollUntil, WaitTimeoutError, waitUntil } from './wait.js';
