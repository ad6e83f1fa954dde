/**
 * The READY, STATUS and RESTARTS cells of `kubectl get pods`: the `printPod`
 * logic of pkg/printers/internalversion, including sidecars (init containers
 * with restartPolicy Always count as containers) and the `2 (5m ago)` form
 * of RESTARTS.
 */

import { isObject, type JsonObject, num, objects, rec, str } from '../../access.js';
import { humanDuration, parseTimestamp } from '../../age.js';

/** The three pod cells that need the container walk. */
export interface PodSummary {
  /** `ready/total`, e.g. `1/2`. */
  ready: string;
  /** The STATUS column: a reason such as `CrashLoopBackOff`, `Init:0/1`, `Terminating`, or the phase. */
  status: string;
  /** `3`, or `3 (5m ago)` when the last termination time is known. */
  restarts: string;
}

function isRestartable(container: JsonObject | undefined): boolean {
  return str(container?.restartPolicy) === 'Always';
}

function conditionTrue(status: JsonObject, type: string): boolean {
  return objects(status.conditions).some((c) => c.type === type && c.status === 'True');
}

/** The first condition of `type` decides, as `isPodInitializedConditionTrue` reads it. */
function firstConditionTrue(status: JsonObject, type: string): boolean {
  const found = objects(status.conditions).find((c) => c.type === type);
  return found?.status === 'True';
}

/** The finish time of a container's last termination, when known. */
function lastTerminated(cs: JsonObject): number | undefined {
  return parseTimestamp(rec(rec(cs.lastState).terminated).finishedAt);
}

function later(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

/** A terminated container's reason, or `Signal:N` / `ExitCode:N` when it gave none. */
function terminatedReason(t: JsonObject, prefix: string): string {
  const reason = str(t.reason);
  if (reason !== '') return prefix + reason;
  const signal = num(t.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${num(t.exitCode)}`;
}

/** Computes READY, STATUS and RESTARTS of one pod at `now`. */
export function podSummary(pod: JsonObject, now: number): PodSummary {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  // A pod held back by scheduling gates says so instead of Pending.
  if (objects(status.conditions).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) {
    reason = 'SchedulingGated';
  }
  const initSpecs = new Map<string, JsonObject>();
  let total = objects(spec.containers).length;
  for (const c of objects(spec.initContainers)) {
    initSpecs.set(str(c.name), c);
    if (isRestartable(c)) total++;
  }

  let restarts = 0;
  let sidecarRestarts = 0;
  let ready = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;
  let initializing = false;
  const initStatuses = objects(status.initContainerStatuses);
  const initCount = objects(spec.initContainers).length;
  for (const [i, cs] of initStatuses.entries()) {
    restarts += num(cs.restartCount);
    lastRestart = later(lastRestart, lastTerminated(cs));
    const sidecar = isRestartable(initSpecs.get(str(cs.name)));
    if (sidecar) {
      sidecarRestarts += num(cs.restartCount);
      lastSidecarRestart = later(lastSidecarRestart, lastTerminated(cs));
    }
    const state = rec(cs.state);
    const terminated = rec(state.terminated);
    const waiting = rec(state.waiting);
    if (isObject(state.terminated) && num(terminated.exitCode) === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready === true) ready++;
      continue;
    }
    if (isObject(state.terminated)) reason = terminatedReason(terminated, 'Init:');
    else if (str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else reason = `Init:${i}/${initCount}`;
    initializing = true;
    break;
  }

  if (!initializing || firstConditionTrue(status, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    // Walked backwards so the first container's reason wins, as in kubectl.
    const statuses = objects(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i];
      restarts += num(cs.restartCount);
      lastRestart = later(lastRestart, lastTerminated(cs));
      const state = rec(cs.state);
      const waiting = rec(state.waiting);
      const terminated = rec(state.terminated);
      if (str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (isObject(state.terminated)) reason = terminatedReason(terminated, '');
      else if (cs.ready === true && isObject(state.running)) {
        hasRunning = true;
        ready++;
      }
    }
    // One container finished but another still runs: the pod is not Completed.
    if (reason === 'Completed' && hasRunning) {
      reason = conditionTrue(status, 'Ready') ? 'Running' : 'NotReady';
    }
  }

  const deleting = str(rec(pod.metadata).deletionTimestamp) !== '';
  if (deleting && str(status.reason) === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  const restartText =
    restarts !== 0 && lastRestart !== undefined
      ? `${restarts} (${humanDuration(now - lastRestart)} ago)`
      : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartText };
}

/** The READINESS GATES cell: `true/total` of the gates' conditions, `<none>` without gates. */
export function readinessGates(pod: JsonObject): string {
  const gates = objects(rec(pod.spec).readinessGates);
  if (gates.length === 0) return '<none>';
  const status = rec(pod.status);
  let trueCount = 0;
  for (const gate of gates) {
    const cond = objects(status.conditions).find((c) => c.type === gate.conditionType);
    if (cond?.status === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}
