/**
 * The TaintNodesByCondition admission plugin (plugin/pkg/admission/nodetaint, `Plugin.Admit`,
 * on by default): a Node is created with the `node.kubernetes.io/not-ready:NoSchedule` taint,
 * so nothing is scheduled onto it before it reports Ready; the node lifecycle controller takes
 * the taint off then. Creates of the main resource only, and a taint of the same key and
 * effect already there is kept as it is (`Taint.MatchTaint`).
 */
import type { KubeObject } from '../../protocol/events.js';
import { child, objects, str } from './access.js';

/** `v1.TaintNodeNotReady`. */
export const NOT_READY_TAINT_KEY = 'node.kubernetes.io/not-ready';

export function taintNewNode(obj: KubeObject): void {
  const spec = child(obj as Record<string, unknown>, 'spec');
  if (!spec) return;
  const taints = spec.taints;
  // A non-list is the client's error, which validation reports.
  if (taints !== undefined && taints !== null && !Array.isArray(taints)) return;
  const held = objects(taints);
  if (held.some((t) => str(t.key) === NOT_READY_TAINT_KEY && str(t.effect) === 'NoSchedule')) return;
  spec.taints = [
    ...(Array.isArray(taints) ? taints : []),
    { key: NOT_READY_TAINT_KEY, effect: 'NoSchedule' },
  ];
}
