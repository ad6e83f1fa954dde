/**
 * The Website type (crd.yaml) and the objects the operator derives from it.
 * Plain data: both Kubernetes clients (watchmark's and
 * @kubernetes/client-node) read and write these shapes as JSON.
 */

export const GROUP = 'demo.watchmark.dev';
export const VERSION = 'v1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'Website';
export const PLURAL = 'websites';
/** The finalizer that keeps a deleted Website until its registry entry is removed. */
export const FINALIZER = `${GROUP}/cleanup`;
/** The label that names the Website a Deployment or registry entry belongs to. */
export const WEBSITE_LABEL = `${GROUP}/website`;
/** The namespace the operator keeps its registry in: one ConfigMap per Website (`<namespace>.<name>`). */
export const DEFAULT_REGISTRY_NAMESPACE = 'website-registry';

/** metav1.ObjectMeta, the fields the operator reads and writes. */
export interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  deletionTimestamp?: string;
  finalizers?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  [field: string]: unknown;
}

/** metav1.OwnerReference. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** metav1.Condition: every field kube's API conventions require of a condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface WebsiteSpec {
  host: string;
  image?: string;
  replicas?: number;
}

export interface WebsiteStatus {
  observedGeneration?: number;
  readyReplicas?: number;
  conditions?: Condition[];
}

export interface Website {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: WebsiteSpec;
  status?: WebsiteStatus;
}

/** The fields of an apps/v1 Deployment the operator owns or reads. */
export interface Deployment {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> };
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: { containers?: Array<{ name: string; image?: string; [field: string]: unknown }> };
    };
    [field: string]: unknown;
  };
  status?: { readyReplicas?: number; observedGeneration?: number; [field: string]: unknown };
}

export interface ConfigMap {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  data?: Record<string, string>;
}

/** `namespace/name`, the work queue's key. */
export function keyOf(o: { metadata: Meta }): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const at = key.indexOf('/');
  return { namespace: key.slice(0, at), name: key.slice(at + 1) };
}
