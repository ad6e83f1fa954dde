/**
 * `watchmark/testing`: a real Kubernetes API per test or per file, in
 * milliseconds. See README.md and docs/testing.md.
 */

export type {
  AdmissionAnswer,
  AdmissionHooks,
  AdmissionRequest,
  FailRule,
  FaultHandle,
  RequestRecord,
  RequestVerb,
  ServerFaults,
  ServerSnapshot,
} from '../server/index.js';
export { type KubeconfigObject, type TestCluster, type TestClusterOptions, testCluster } from './cluster.js';
export { DEFAULT_TEST_CONTROLLERS } from './controllers.js';
export { type RequestFilter, RequestLog } from './requests.js';
export { forgetSetups } from './setup-cache.js';
export {
  DEFAULT_WAIT_TIMEOUT_MS,
  type WaitForDeletionOptions,
  type WaitForOptions,
  type WaitTarget,
  WaitTimeoutError,
} from './wait.js';
