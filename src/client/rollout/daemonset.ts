/**
 * DaemonSet rollout status, as kubectl's `DaemonSetStatusViewer`
 * (polymorphichelpers/rollout_status.go). DaemonSets keep no revision
 * history kubectl reads, so `--revision` is ignored.
 */
import type { KubeObject } from '../../protocol/events.js';
import { num, obj, type RolloutStatus, RolloutStatusError } from './status.js';

/** The status of a DaemonSet's rollout: every scheduled pod updated, then available. */
export function daemonSetStatus(ds: KubeObject): RolloutStatus {
  const name = JSON.stringify(ds.metadata?.name ?? '');
  const spec = obj(ds.spec);
  const status = obj(ds.status);
  if (obj(spec.updateStrategy).type !== 'RollingUpdate') {
    throw new RolloutStatusError(
      'UnsupportedStrategy',
      'rollout status is only available for RollingUpdate strategy type',
      true,
    );
  }
  if (num(ds.metadata?.generation) <= num(status.observedGeneration)) {
    const desired = num(status.desiredNumberScheduled);
    const updated = num(status.updatedNumberScheduled);
    const waiting = `Waiting for daemon set ${name} rollout to finish:`;
    if (updated < desired) {
      return {
        message: `${waiting} ${updated} out of ${desired} new pods have been updated...`,
        done: false,
      };
    }
    const available = num(status.numberAvailable);
    if (available < desired) {
      return { message: `${waiting} ${available} of ${desired} updated pods are available...`, done: false };
    }
    return { message: `daemon set ${name} successfully rolled out`, done: true };
  }
  return { message: 'Waiting for daemon set spec update to be observed...', done: false };
}
