/**
 * The Job's rules about finished pods: the pod failure policy (pkg/controller/job/pod_failure_policy.go
 * `matchPodFailurePolicy`), the success policy (success_policy.go `matchSuccessPolicy`) and the
 * exponential back-off before a failed pod is replaced (backoff_utils.go).
 */

import { type Intervals, parseIndexes, totalIndexes } from './indexes.js';
import type { ContainerStatus, Pod } from './pods.js';
import { finishedTime } from './pods.js';

/** A Job's `spec.podFailurePolicy`. */
export interface PodFailurePolicy {
  rules?: Array<{
    action?: string;
    onExitCodes?: { containerName?: string; operator?: string; values?: number[] };
    onPodConditions?: Array<{ type?: string; status?: string }>;
  }>;
}

/** What a failed pod means under the policy: a message failing the Job, whether it counts, the action taken. */
export interface PolicyMatch {
  failJobMessage?: string;
  countFailed: boolean;
  action?: string;
}

/** `matchPodFailurePolicy`: the first rule matching the failed pod decides. */
export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, pod: Pod): PolicyMatch {
  if (!policy) return { countFailed: true };
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    const action = rule.action ?? '';
    let matched: string | undefined;
    if (rule.onExitCodes) {
      const c = matchOnExitCodes(pod, rule.onExitCodes);
      if (!c) continue;
      matched = `Container ${c.name} for pod ${pod.metadata?.namespace}/${pod.metadata?.name} failed with exit code ${c.state?.terminated?.exitCode} matching ${action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const cond = (pod.status?.conditions ?? []).find((pc) =>
        rule.onPodConditions!.some((p) => p.type === pc.type && p.status === pc.status),
      );
      if (!cond) continue;
      matched = `Pod ${pod.metadata?.namespace}/${pod.metadata?.name} has condition ${cond.type} matching ${action} rule at index ${index}`;
    } else continue;
    switch (action) {
      case 'Ignore':
        return { countFailed: false, action };
      case 'FailIndex':
      case 'Count':
        return { countFailed: true, action };
      case 'FailJob':
        return { failJobMessage: matched, countFailed: true, action };
    }
  }
  return { countFailed: true };
}

function matchOnExitCodes(
  pod: Pod,
  req: NonNullable<NonNullable<PodFailurePolicy['rules']>[number]['onExitCodes']>,
): ContainerStatus | undefined {
  const pick = (list: ContainerStatus[] | undefined) =>
    (list ?? []).find((s) => {
      const code = s.state?.terminated?.exitCode;
      if (code === undefined || code === 0) return false;
      if (req.containerName !== undefined && req.containerName !== s.name) return false;
      const values = req.values ?? [];
      if (req.operator === 'In') return values.includes(code);
      if (req.operator === 'NotIn') return !values.includes(code);
      return false;
    });
  return pick(pod.status?.containerStatuses) ?? pick(pod.status?.initContainerStatuses);
}

/** A Job's `spec.successPolicy`. */
export interface SuccessPolicy {
  rules?: Array<{ succeededIndexes?: string; succeededCount?: number }>;
}

/** `matchSuccessPolicy`: the message of the first rule the succeeded indexes satisfy. */
export function matchSuccessPolicy(
  policy: SuccessPolicy | undefined,
  completions: number,
  succeeded: Intervals,
): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      let contains = 0;
      for (const r of required)
        for (const s of succeeded)
          contains += Math.max(0, Math.min(r.last, s.last) - Math.max(r.first, s.first) + 1);
      if (
        contains === totalIndexes(required) ||
        (rule.succeededCount !== undefined && contains >= rule.succeededCount)
      )
        return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && totalIndexes(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}

/** How many failures in a row since the last success, and when the last was (`backoffRecord`). */
export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

/** `newBackoffRecord`: the record after these newly finished pods. */
export function nextBackoffRecord(old: BackoffRecord, succeeded: Pod[], failed: Pod[]): BackoffRecord {
  const s = succeeded.map(finishedTime).sort((a, b) => a - b);
  const f = failed.map(finishedTime).sort((a, b) => a - b);
  if (s.length === 0) {
    if (f.length === 0) return { ...old };
    return { failuresAfterLastSuccess: old.failuresAfterLastSuccess + f.length, lastFailureTime: f.at(-1) };
  }
  const out: BackoffRecord = { failuresAfterLastSuccess: 0 };
  const lastSuccess = s.at(-1)!;
  for (let i = f.length - 1; i >= 0 && f[i]! > lastSuccess; i--) {
    out.lastFailureTime ??= f[i];
    out.failuresAfterLastSuccess++;
  }
  return out;
}

/** The first delay after a failure (`DefaultJobPodFailureBackOff`) and its cap (`MaxJobPodFailureBackOff`). */
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/** The delay after `failures` failures in a row: 10 s doubling per failure, capped at 10 min. */
export function backoffForFailures(failures: number): number {
  let delay = POD_FAILURE_BACKOFF_MS;
  for (let i = 1; i < failures; i++) {
    delay *= 2;
    if (delay >= MAX_POD_FAILURE_BACKOFF_MS) return MAX_POD_FAILURE_BACKOFF_MS;
  }
  return delay;
}

/** `getRemainingTimeForFailuresCount`: the delay for the failures since the last success, less the time since the last failure. */
export function backoffRemaining(record: BackoffRecord, now: number): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
  const delay = backoffForFailures(record.failuresAfterLastSuccess);
  const elapsed = now - record.lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}
