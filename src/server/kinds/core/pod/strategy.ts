/**
 * What the Pod strategy (pkg/registry/core/pod/strategy.go) does beyond defaulting and
 * validation: the status a new pod starts with, the observed generations a status write keeps,
 * and the mark of a graceful delete. The pod's own metadata.generation (1 at create, +1 on a
 * spec change: `PrepareForCreate`, `updatePodGeneration`) is the registry's generation rule.
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { child, isObject, type JsonObject, objects, rec } from '../../access.js';

/**
 * `PrepareForCreate`: a new pod's status is phase `Pending` (and its QoS class, which
 * defaulting sets). Not a default: a status written through pods/status keeps the phase it was
 * sent with, none included (`podStatusStrategy.PrepareForUpdate` keeps the new status).
 */
export function preparePodCreate(obj: KubeObject): void {
  const status = child(obj as JsonObject, 'status');
  if (status) status.phase = 'Pending';
}

/**
 * The first phase of a pod's graceful delete (rest.BeforeDelete with `CheckGracefulDelete`):
 * the pod is written with its deletionTimestamp and grace period before it is removed, and the
 * DELETE answers (and watchers see) it so. The grace period is 0, as upstream gives a pod that
 * is not bound to a node or has finished: this server removes every pod at once, having no
 * kubelet of its own to wait for.
 */
export function markPodDeleted(obj: KubeObject, now: string): void {
  const meta = child(obj as JsonObject, 'metadata');
  if (!meta) return;
  meta.deletionTimestamp = now;
  meta.deletionGracePeriodSeconds = 0;
}

/** An int64 `omitempty` field the Go type would read as 0. */
function unset(value: unknown): boolean {
  return value === undefined || value === null || value === 0;
}

/** Sets `obj[key]` to `value`, or drops the key when `value` is Go's zero (`omitempty`). */
function setOrDrop(obj: JsonObject, key: string, value: unknown): void {
  if (unset(value)) delete obj[key];
  else obj[key] = value;
}

/**
 * A pods/status write that leaves out `status.observedGeneration`, or a condition's, keeps the
 * stored one: an older kubelet that does not know the field cannot clear it
 * (`podStatusStrategy.PrepareForUpdate`, `preserveOldObservedGeneration`). Conditions are paired
 * by type, in order, as a status may hold several of one type.
 */
export function preservePodObservedGeneration(obj: KubeObject, old: KubeObject): void {
  const status = obj.status;
  if (!isObject(status)) return;
  const oldStatus = rec(old.status);
  if (unset(status.observedGeneration)) setOrDrop(status, 'observedGeneration', oldStatus.observedGeneration);
  const oldByType = new Map<unknown, unknown[]>();
  for (const c of objects(oldStatus.conditions)) {
    oldByType.set(c.type, [...(oldByType.get(c.type) ?? []), c.observedGeneration]);
  }
  for (const c of objects(status.conditions)) {
    const kept = oldByType.get(c.type)?.shift();
    if (unset(c.observedGeneration)) setOrDrop(c, 'observedGeneration', kept);
  }
}
