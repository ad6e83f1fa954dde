/**
 * Rollout status for the kinds kubectl knows how to judge: Deployment,
 * StatefulSet and DaemonSet (apps group). Pure functions of one object.
 */
import { daemonSetStatus } from './daemonset.js';
import { deploymentStatus } from './deployment.js';
import { statefulSetStatus } from './statefulset.js';
import type { StatusViewer } from './status.js';

export { daemonSetStatus } from './daemonset.js';
export {
  deploymentRevision,
  deploymentStatus,
  PROGRESS_DEADLINE_EXCEEDED,
  REVISION_ANNOTATION,
} from './deployment.js';
export { statefulSetStatus } from './statefulset.js';
export {
  type RolloutFailureReason,
  type RolloutStatus,
  RolloutStatusError,
  type StatusViewer,
} from './status.js';

/**
 * The status viewer for a kind of the `apps` group (kubectl also accepts the
 * retired `extensions` group for Deployments and DaemonSets), or undefined:
 * kubectl then says `no status viewer has been implemented for <Kind>.<group>`.
 */
export function statusViewerFor(group: string, kind: string): StatusViewer | undefined {
  const apps = group === 'apps';
  const extensions = group === 'extensions';
  if (kind === 'Deployment' && (apps || extensions)) return deploymentStatus;
  if (kind === 'DaemonSet' && (apps || extensions)) return daemonSetStatus;
  if (kind === 'StatefulSet' && apps) return (o) => statefulSetStatus(o);
  return undefined;
}
