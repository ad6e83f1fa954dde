/**
 * watchmark: Kubernetes list-watch done right. The client library: connect,
 * REST verbs, a list-watch state machine with bookmarks, informers, metrics.
 * The API server lives in `watchmark/server`.
 */

export {
  Checkpoint,
  type CheckpointOptions,
  type CheckpointStatus,
  identityMismatch,
} from './client/checkpoint/checkpoint.js';
export {
  CHECKPOINT_VERSION,
  CheckpointFileError,
  type CheckpointIdentity,
  readCheckpointFile,
  writeCheckpointFile,
} from './client/checkpoint/checkpoint-file.js';
export {
  checkpointFileName,
  checkpointIdentity,
  clusterUid,
} from './client/checkpoint/checkpoint-identity.js';
export {
  AmbiguousResourceError,
  KubeClient,
  NoKindMatchError,
  NoResourceTypeError,
  RESTMapper,
  type RESTMapperOptions,
  type Selection,
} from './client/client.js';
export {
  type ClusterConnection,
  ConfigError,
  type CredentialSource,
  type LoadOptions,
  loadConnection,
} from './client/config/index.js';
export {
  type ApiRequest,
  Transport,
  TransportError,
  type TransportOptions,
} from './client/http/transport.js';
export {
  Informer,
  type InformerHandlers,
  type InformerOptions,
  objectKey,
} from './client/informer/informer.js';
export {
  type InformerKey,
  SharedInformerFactory,
  type SharedInformerFactoryOptions,
} from './client/informer/informer-factory.js';
export {
  type ApplyAction,
  type ApplyAllOptions,
  ApplyError,
  type ApplyOptions,
  type ApplyResult,
  applyAll,
  applyObject,
  LAST_APPLIED_ANNOTATION,
} from './client/kubectl/apply.js';
export { DEFAULT_CRD_WAIT_MS, waitForCustomKind } from './client/kubectl/crd-wait.js';
export { ManifestError, parseManifests } from './client/kubectl/manifest.js';
export {
  CONFLICT_ADVICE,
  LAST_APPLIED_MANAGER,
  SERVER_SIDE_APPLY_MANAGER,
  type ServerSideApplyObjectOptions,
  serverSideApplyObject,
} from './client/kubectl/server-side-apply.js';
export { type DeferredType, ResourceClient } from './client/rest.js';
export {
  type DeleteOptions,
  type FieldValidation,
  type ListOptions,
  PATCH_TYPES,
  type PatchType,
  type Scale,
  type ServerSideApplyOptions,
} from './client/rest-options.js';
export { type RetryOptions, retryOnConflict } from './client/retry.js';
export { type FollowerOptions, RolloutFollower, type RolloutTarget } from './client/rollout/follow.js';
export {
  daemonSetStatus,
  deploymentStatus,
  type RolloutStatus,
  RolloutStatusError,
  statefulSetStatus,
  statusViewerFor,
} from './client/rollout/index.js';
export {
  RolloutAbortedError,
  RolloutDeletedError,
  type WatchRolloutOptions,
  watchRolloutStatus,
} from './client/rollout/watch.js';
export { Backoff, type BackoffOptions, DEFAULT_BACKOFF } from './client/watch/backoff.js';
export {
  HttpListWatch,
  type ListParams,
  type ListWatchSource,
  type WatchParams,
  type WatchStream,
} from './client/watch/listwatch.js';
export {
  type ListCause,
  registerWatcherMetrics,
  type WatchEndCause,
  type WatcherMetrics,
} from './client/watch/metrics.js';
export { BUILTIN_RESOURCES, findBuiltin, ResourcePath, type ResourceType } from './client/watch/resources.js';
export {
  type InitCause,
  type InitialState,
  type Logger,
  Watcher,
  type WatcherEvent,
  type WatcherFailure,
  type WatcherNextAction,
  type WatcherOptions,
} from './client/watch/watcher.js';
export { type Clock, ManualClock, systemClock } from './protocol/clock.js';
export {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeList,
  type KubeObject,
  type WatchEvent,
  type WatchEventType,
} from './protocol/events.js';
export {
  failureStatus,
  isExpired,
  isTooLargeResourceVersion,
  type Status,
  StatusError,
  type StatusReason,
} from './protocol/status.js';
