/**
 * Everything the operator asks of Kubernetes, as one small interface, so the
 * reconciler is the same code over watchmark (watchmark-kube.ts) and over
 * @kubernetes/client-node (client-node-kube.ts).
 *
 * Reads come from informer caches; writes go to the API server and carry the
 * resourceVersion they were based on, so a stale cache shows up as a 409
 * Conflict the work queue retries (client-go's optimistic concurrency).
 */
import type { ConfigMap, Deployment, Website } from './types.js';

/** An API error reduced to what the reconciler branches on: the HTTP code. */
export class ApiError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

/** What the informers tell the controller. */
export interface KubeEvents {
  /** A Website was added, changed or deleted (key `namespace/name`). */
  website(key: string): void;
  /** A Deployment changed; `owner` is the Website key its controller reference names, if any. */
  deployment(ownerKey: string | undefined): void;
}

/** The operator's access to Kubernetes. */
export interface OperatorKube {
  /** Which implementation (for logs and test names). */
  readonly name: string;
  /** Starts the informers (Websites and Deployments in all namespaces); resolves once both listed. */
  start(events: KubeEvents): Promise<void>;
  /** Stops the informers; nothing of theirs stays open. */
  stop(): Promise<void>;

  /** The cached Website, if any. */
  website(namespace: string, name: string): Website | undefined;
  /** The cached Deployment, if any. */
  deployment(namespace: string, name: string): Deployment | undefined;

  createDeployment(d: Deployment): Promise<Deployment>;
  /** PUT with the resourceVersion in `d.metadata` (409 when stale). */
  replaceDeployment(d: Deployment): Promise<Deployment>;
  /** PUT of the Website's main resource (finalizers) with its resourceVersion. */
  replaceWebsite(w: Website): Promise<Website>;
  /** PUT of `websites/status` with the resourceVersion in `w.metadata`. */
  replaceWebsiteStatus(w: Website): Promise<Website>;

  /** Creates the namespace unless it exists. */
  ensureNamespace(name: string): Promise<void>;
  /** The ConfigMap, or undefined (404). */
  getConfigMap(namespace: string, name: string): Promise<ConfigMap | undefined>;
  createConfigMap(cm: ConfigMap): Promise<ConfigMap>;
  replaceConfigMap(cm: ConfigMap): Promise<ConfigMap>;
  /** Deletes the ConfigMap; true if it was there. */
  deleteConfigMap(namespace: string, name: string): Promise<boolean>;
}
