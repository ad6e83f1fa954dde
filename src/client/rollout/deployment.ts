/**
 * Deployment rollout status, rule for rule and message for message as
 * kubectl's `DeploymentStatusViewer` (polymorphichelpers/rollout_status.go,
 * kubectl 1.27 - 1.33).
 */
import type { KubeObject } from '../../protocol/events.js';
import { num, obj, type RolloutStatus, RolloutStatusError } from './status.js';

/** The annotation the deployment controller keeps the current revision number in. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';

/** The Progressing condition reason meaning the deployment gave up (deploymentutil.TimedOutReason). */
export const PROGRESS_DEADLINE_EXCEEDED = 'ProgressDeadlineExceeded';

/**
 * The revision a Deployment runs (its revision annotation; 0 when absent, as
 * kubectl's `deploymentutil.Revision`).
 */
export function deploymentRevision(deployment: KubeObject): number {
  const raw = deployment.metadata?.annotations?.[REVISION_ANNOTATION];
  if (raw === undefined) return 0;
  // Go's strconv.ParseInt: an optional sign and decimal digits, nothing else.
  if (!/^[+-]?\d+$/.test(raw)) {
    throw new RolloutStatusError(
      'BadRevision',
      `cannot get the revision of deployment ${JSON.stringify(deployment.metadata?.name ?? '')}: strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`,
    );
  }
  return Number(raw);
}

/**
 * The status of a Deployment's rollout. Until the controller has observed the
 * latest spec (generation <= observedGeneration) nothing in status can be
 * trusted, so that comes first; a deployment past its progress deadline is an
 * error, never "waiting".
 */
export function deploymentStatus(deployment: KubeObject, revision = 0): RolloutStatus {
  const name = JSON.stringify(deployment.metadata?.name ?? '');
  if (revision > 0) {
    const running = deploymentRevision(deployment);
    if (running !== revision) {
      throw new RolloutStatusError(
        'RevisionMismatch',
        `desired revision (${revision}) is different from the running revision (${running})`,
      );
    }
  }
  const spec = obj(deployment.spec);
  const status = obj(deployment.status);
  if (num(deployment.metadata?.generation) <= num(status.observedGeneration)) {
    const conditions = Array.isArray(status.conditions) ? status.conditions : [];
    const progressing = conditions.map(obj).find((c) => c.type === 'Progressing');
    if (progressing?.reason === PROGRESS_DEADLINE_EXCEEDED) {
      throw new RolloutStatusError(
        'ProgressDeadlineExceeded',
        `deployment ${name} exceeded its progress deadline`,
      );
    }
    const updated = num(status.updatedReplicas);
    const waiting = `Waiting for deployment ${name} rollout to finish:`;
    // spec.replicas nil (never after defaulting) skips this rule, as in kubectl.
    if (typeof spec.replicas === 'number' && updated < spec.replicas) {
      return {
        message: `${waiting} ${updated} out of ${spec.replicas} new replicas have been updated...`,
        done: false,
      };
    }
    const replicas = num(status.replicas);
    if (replicas > updated) {
      return {
        message: `${waiting} ${replicas - updated} old replicas are pending termination...`,
        done: false,
      };
    }
    const available = num(status.availableReplicas);
    if (available < updated) {
      return {
        message: `${waiting} ${available} of ${updated} updated replicas are available...`,
        done: false,
      };
    }
    return { message: `deployment ${name} successfully rolled out`, done: true };
  }
  return { message: 'Waiting for deployment spec update to be observed...', done: false };
}
