/** Watch event shapes shared by the server (writes them) and the client (reads them). */

/** The `type` of a watch event line. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One line of a watch stream: `{"type": T, "object": {...}}`. */
export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T;
}

/**
 * The annotation on the BOOKMARK that ends a streaming list's initial events
 * (KEP-3157). Only the value "true" counts.
 */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** The minimal shape of any Kubernetes object, as far as list-watch cares. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** The parts of ObjectMeta that list-watch machinery reads or sets. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [field: string]: unknown;
}

/** metadata.ownerReferences[] */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** A list answer (`PodList` etc.). */
export interface KubeList<T = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** True when a BOOKMARK object marks the end of a streaming list's initial events. */
export function isInitialEventsEnd(object: KubeObject | undefined): boolean {
  return object?.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true';
}
