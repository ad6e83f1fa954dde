/**
 * What pods/eviction writes and answers beside its flow (pod-eviction.ts): the conditions it
 * sets (the budget's DisruptionAllowed, the pod's DisruptionTarget) and its errors, worded as
 * pkg/registry/core/pod/storage/eviction.go words them.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { objects, rec, str } from '../kinds/access.js';
import { rfc3339 } from '../registry/meta.js';

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/**
 * pdbhelper `UpdateDisruptionAllowedCondition` once no disruption is left: the DisruptionAllowed
 * condition False with reason InsufficientPods (apimeta `SetStatusCondition`: the transition
 * time moves only when the status does).
 */
export function setDisruptionAllowedCondition(status: Record<string, unknown>, now: number): void {
  const conditions = objects(status.conditions).map((c) => ({ ...c }));
  const observedGeneration = num(status.observedGeneration);
  const at = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  if (at < 0) {
    conditions.push({
      type: 'DisruptionAllowed',
      status: 'False',
      ...(observedGeneration ? { observedGeneration } : {}),
      lastTransitionTime: rfc3339(now),
      reason: 'InsufficientPods',
      message: '',
    });
  } else {
    const c = conditions[at];
    if (c.status !== 'False') c.lastTransitionTime = rfc3339(now);
    c.status = 'False';
    c.reason = 'InsufficientPods';
    c.message = '';
    if (observedGeneration) c.observedGeneration = observedGeneration;
    else delete c.observedGeneration;
  }
  status.conditions = conditions;
}

/** `createTooManyRequestsError` and the 429 of a budget at zero: Retry-After as given. */
export function tooManyRequests(
  budgetName: string,
  retryAfterSeconds: number,
  message?: string,
): StatusError {
  return StatusError.of(
    'TooManyRequests',
    "Cannot evict pod as it would violate the pod's disruption budget.",
    {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: message ?? `The disruption budget ${budgetName} is still being processed by the server.`,
        },
      ],
      ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    },
  );
}

/** The 429 of a budget that allows no disruption, with the cause checkAndDecrement words. */
export function noDisruptionAllowed(budgetName: string, status: Record<string, unknown>): StatusError {
  const condition = objects(status.conditions).find((c) => c.type === 'DisruptionAllowed');
  const falseWithMessage = condition?.status === 'False' && str(condition.message) !== '';
  let message: string;
  if (falseWithMessage && condition?.reason === 'SyncFailed') {
    message = `The disruption budget ${budgetName} does not allow evicting pods currently because it failed sync: ${str(condition.message)}`;
  } else if (num(status.currentHealthy) <= num(status.desiredHealthy)) {
    message = `The disruption budget ${budgetName} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`;
  } else if (falseWithMessage) {
    message = `The disruption budget ${budgetName} does not allow evicting pods currently (${str(condition?.reason)}): ${str(condition?.message)}`;
  } else {
    message = `The disruption budget ${budgetName} does not allow evicting pods currently`;
  }
  return tooManyRequests(budgetName, 0, message);
}

/** errors.NewForbidden on poddisruptionbudget.policy, with the budget's cause. */
export function budgetForbidden(budgetName: string, why: string, cause: string): StatusError {
  return StatusError.of(
    'Forbidden',
    `poddisruptionbudget.policy ${JSON.stringify(budgetName)} is forbidden: ${why}`,
    {
      name: budgetName,
      group: 'policy',
      kind: 'poddisruptionbudget',
      causes: [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${budgetName} does not allow evicting pods currently: ${cause}`,
        },
      ],
    },
  );
}

/** errors.NewConflict on the resource `Pod` (as eviction.go names it). */
export function podConflict(name: string, why: string): StatusError {
  return StatusError.of('Conflict', `Operation cannot be fulfilled on Pod ${JSON.stringify(name)}: ${why}`, {
    name,
    kind: 'Pod',
  });
}

/**
 * podutil `UpdatePodCondition` with DisruptionTarget True, reason EvictionByEvictionAPI: the
 * transition time kept when the status was already True; nothing changes when the condition is
 * there as it would be written.
 */
export function setDisruptionTarget(pod: KubeObject, now: number): void {
  const status = rec(pod.status);
  const conditions = objects(status.conditions).map((c) => ({ ...c }));
  const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  const old = at < 0 ? undefined : conditions[at];
  const condition = {
    type: 'DisruptionTarget',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : rfc3339(now),
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  };
  if (at < 0) conditions.push(condition);
  else conditions[at] = condition;
  pod.status = { ...status, conditions };
}
