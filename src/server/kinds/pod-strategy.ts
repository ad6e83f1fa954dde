/**
 * What the Pod strategy (pkg/registry/core/pod/strategy.go) does beyond defaulting and
 * validation: the status a new pod starts with, and the mark of a graceful delete.
 */
import type { KubeObject } from '../../protocol/events.js';
import { child, type JsonObject } from './access.js';

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
