/**
 * StatefulSet rollout status, as kubectl's `StatefulSetStatusViewer`
 * (polymorphichelpers/rollout_status.go). `--revision` is ignored for
 * StatefulSets, as in kubectl.
 */
import type { KubeObject } from '../../protocol/events.js';
import { num, obj, type RolloutStatus, RolloutStatusError } from './status.js';

/**
 * The status of a StatefulSet's rollout. With a RollingUpdate block (always
 * present after defaulting) kubectl judges by the partition: the pods at or
 * above it must be updated; only without one does it compare revisions.
 */
export function statefulSetStatus(sts: KubeObject): RolloutStatus {
  const spec = obj(sts.spec);
  const status = obj(sts.status);
  const strategy = obj(spec.updateStrategy);
  if (strategy.type !== 'RollingUpdate') {
    throw new RolloutStatusError(
      'UnsupportedStrategy',
      'rollout status is only available for RollingUpdate strategy type',
      true,
    );
  }
  const observed = num(status.observedGeneration);
  if (observed === 0 || num(sts.metadata?.generation) > observed) {
    return { message: 'Waiting for statefulset spec update to be observed...', done: false };
  }
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : undefined;
  const ready = num(status.readyReplicas);
  if (replicas !== undefined && ready < replicas) {
    return { message: `Waiting for ${replicas - ready} pods to be ready...`, done: false };
  }
  const updated = num(status.updatedReplicas);
  if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
    const partition = obj(strategy.rollingUpdate).partition;
    if (replicas !== undefined && typeof partition === 'number' && updated < replicas - partition) {
      return {
        message: `Waiting for partitioned roll out to finish: ${updated} out of ${replicas - partition} new pods have been updated...`,
        done: false,
      };
    }
    return { message: `partitioned roll out complete: ${updated} new pods have been updated...`, done: true };
  }
  const updateRevision = String(status.updateRevision ?? '');
  const currentRevision = String(status.currentRevision ?? '');
  if (updateRevision !== currentRevision) {
    return {
      message: `waiting for statefulset rolling update to complete ${updated} pods at revision ${updateRevision}...`,
      done: false,
    };
  }
  return {
    message: `statefulset rolling update complete ${num(status.currentReplicas)} pods at revision ${currentRevision}...`,
    done: true,
  };
}
