/** The core/v1 Event as the simulated components write it. */
import type { KubeObject } from '../../protocol/events.js';

/** core/v1 ObjectReference: what an event is about. */
export interface ObjectReference {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  /** `spec.containers{c}` for container events. */
  fieldPath?: string;
}

/** core/v1 EventSource. */
export interface EventSource {
  component: string;
  host?: string;
}

/** Normal or Warning. */
export type EventType = 'Normal' | 'Warning';

/** core/v1 Event (the fields client-go's recorder sets). */
export interface KubeEvent extends KubeObject {
  metadata: { name: string; namespace: string; resourceVersion?: string; [k: string]: unknown };
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: EventSource;
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type: EventType;
  reportingComponent: string;
  reportingInstance: string;
}
