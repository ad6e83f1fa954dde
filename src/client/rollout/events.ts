/**
 * Which core/v1 Events belong to a Deployment's rollout, decided the way
 * Kubernetes links objects: the event's `involvedObject` (uid first, else
 * kind and name) and controller ownerReferences (Pod -> ReplicaSet ->
 * Deployment). Never by message text, which is for humans and changes
 * between versions.
 */
import type { KubeObject } from '../../protocol/events.js';

/** The fields of a core/v1 Event this reads. */
export interface CoreEvent extends KubeObject {
  involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string } | null;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
}

/**
 * The identity of one occurrence of an event: its uid and its count. A
 * recurring event is one object whose count grows, and each new count is
 * worth showing once; a relist or a resumed watch that re-delivers the same
 * count is not.
 */
export function occurrenceKey(event: CoreEvent): string {
  const count = event.count ?? event.series?.count ?? 1;
  return `${event.metadata?.uid ?? event.metadata?.name}#${count}`;
}

/** When the event (last) happened, in ms since the epoch; undefined when it carries no time at all. */
export function eventTimeMs(event: CoreEvent): number | undefined {
  const text =
    event.lastTimestamp ??
    event.series?.lastObservedTime ??
    event.eventTime ??
    event.firstTimestamp ??
    event.metadata?.creationTimestamp;
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `deployment/web`, `pod/web-6d4b7-x2x9z`: how `kubectl get events` names the object. */
export function involvedRef(event: CoreEvent): string {
  const o = event.involvedObject ?? {};
  return `${(o.kind ?? '').toLowerCase()}/${o.name ?? ''}`;
}

/** The uid of an object's controller owner of `kind`, if any. */
export function controllerOf(object: KubeObject, kind: string): string | undefined {
  const owner = object.metadata?.ownerReferences?.find((r) => r.controller && r.kind === kind);
  return owner?.uid;
}

/**
 * Remembers which ReplicaSets and Pods belong to which Deployment (by uid,
 * and by namespace/name for events that carry no uid). Nothing is forgotten
 * when an object is deleted: a terminated pod's last events (Killing) arrive
 * after the pod is gone.
 */
export class OwnershipIndex {
  private readonly ownerByUid = new Map<string, string>();
  private readonly uidByName = new Map<string, string>();

  /** Records a ReplicaSet (owned by a Deployment) or a Pod (owned by a ReplicaSet). */
  record(kind: 'ReplicaSet' | 'Pod', object: KubeObject): void {
    const uid = object.metadata?.uid;
    if (!uid) return;
    this.uidByName.set(nameKey(kind, object.metadata?.namespace, object.metadata?.name), uid);
    const owner = controllerOf(object, kind === 'Pod' ? 'ReplicaSet' : 'Deployment');
    if (owner) this.ownerByUid.set(uid, owner);
  }

  /**
   * The uid of the Deployment an event is about, directly or through its
   * ReplicaSets and Pods; `deploymentUidByName` resolves events about a
   * Deployment that carry no uid. Undefined: unknown (yet).
   */
  deploymentOf(
    event: CoreEvent,
    deploymentUidByName: (namespace: string, name: string) => string | undefined,
  ) {
    const o = event.involvedObject ?? {};
    const namespace = o.namespace ?? event.metadata?.namespace ?? '';
    if (o.kind === 'Deployment') return o.uid || deploymentUidByName(namespace, o.name ?? '');
    if (o.kind !== 'ReplicaSet' && o.kind !== 'Pod') return undefined;
    const uid = o.uid || this.uidByName.get(nameKey(o.kind, namespace, o.name));
    if (!uid) return undefined;
    const owner = this.ownerByUid.get(uid);
    return o.kind === 'Pod' && owner ? this.ownerByUid.get(owner) : owner;
  }
}

function nameKey(kind: string, namespace: string | undefined, name: string | undefined): string {
  return `${kind}/${namespace ?? ''}/${name ?? ''}`;
}
