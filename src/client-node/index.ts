/**
 * `watchmark/client-node`: a drop-in for `@kubernetes/client-node`'s
 * informer and watch. Change the import, keep the code:
 *
 * ```ts
 * import { makeInformer } from 'watchmark/client-node';
 * const informer = makeInformer(kc, '/api/v1/namespaces/default/pods', listFn);
 * ```
 *
 * It takes client-node's own KubeConfig (read through its public methods)
 * and never imports `@kubernetes/client-node`. docs/from-client-node.md
 * has what is the same and what is deliberately better.
 */

import type { KubernetesObject } from './cache.js';
import type {
  ADD,
  CHANGE,
  CONNECT,
  DELETE,
  ERROR,
  ErrorCallback,
  ObjectCallback,
  UPDATE,
} from './callbacks.js';
import type { KubeConfigLike } from './kubeconfig.js';
import { type DropInOptions, type ListPromise, ListWatch } from './list-watch.js';
import { Watch } from './watch.js';

export type { KubernetesObject } from './cache.js';
export {
  ADD,
  CHANGE,
  CONNECT,
  DELETE,
  ERROR,
  type ErrorCallback,
  InformerHandlerError,
  type ObjectCallback,
  UPDATE,
} from './callbacks.js';
export type { ClusterLike, HttpsOptionsLike, KubeConfigLike } from './kubeconfig.js';
export { type DropInOptions, type ListPromise, ListWatch, type WatchLike } from './list-watch.js';
export { type DoneCallback, Watch, type WatchCallback, type WatchOptions } from './watch.js';

/** client-node's `Informer` interface: callbacks, start and stop. */
export interface Informer<T extends KubernetesObject> {
  on(verb: typeof ADD | typeof UPDATE | typeof DELETE | typeof CHANGE, cb: ObjectCallback<T>): void;
  on(verb: typeof ERROR | typeof CONNECT, cb: ErrorCallback): void;
  off(verb: typeof ADD | typeof UPDATE | typeof DELETE | typeof CHANGE, cb: ObjectCallback<T>): void;
  off(verb: typeof ERROR | typeof CONNECT, cb: ErrorCallback): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** client-node's `ObjectCache` interface: the informer's cache. */
export interface ObjectCache<T> {
  get(name: string, namespace?: string): T | undefined;
  list(namespace?: string): ReadonlyArray<T>;
}

/**
 * client-node's `makeInformer`, not started: call `start()`. The fifth
 * argument, a field selector (client-node's has none and drops it), applies
 * to the list and every watch; `options` is watchmark's own. `listFn` is
 * accepted and never called: the informer lists `path` itself.
 */
export function makeInformer<T extends KubernetesObject>(
  kubeconfig: KubeConfigLike,
  path: string,
  listPromiseFn?: ListPromise,
  labelSelector?: string,
  fieldSelector?: string,
  options?: DropInOptions,
): ListWatch<T> {
  const watch = new Watch(kubeconfig, { transport: options?.transport });
  return new ListWatch<T>(path, watch, listPromiseFn, false, labelSelector, fieldSelector, options);
}
