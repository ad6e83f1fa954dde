/**
 * `POST /api/v1/namespaces/NS/pods/NAME/eviction`: a pod deleted only as far as its
 * PodDisruptionBudget allows (kubectl drain, the node lifecycle). kube-apiserver's EvictionREST
 * (pkg/registry/core/pod/storage/eviction.go `Create`) is the model: a pod that is not running
 * (Pending, Succeeded, Failed) or already being deleted goes at once; otherwise the one budget
 * that selects it must allow a disruption, which the eviction takes (status.disruptionsAllowed
 * decremented, the pod recorded in status.disruptedPods) before the pod is marked with the
 * DisruptionTarget condition and deleted with the Eviction's deleteOptions.
 */
import type { KubeObject } from '../../protocol/events.js';
import { labelSelectorFromObject, matchesLabels, SelectorError } from '../../protocol/labels.js';
import { type Status, StatusError } from '../../protocol/status.js';
import { isObject, objects, rec, str } from '../kinds/access.js';
import { podDisruptionBudgetKind } from '../kinds/policy/poddisruptionbudget.js';
import type { ResourceKind } from '../kinds/types.js';
import { formatInvalidMessage, invalid } from '../kinds/validation.js';
import { rfc3339 } from '../registry/meta.js';
import type { DeleteOptions } from '../registry/object-storage.js';
import { reply } from './reply.js';
import type { NamedScope } from './request-scope.js';
import { dryRun, readObject } from './write-input.js';

/** eviction.go `MaxDisruptedPodSize`: evictions the disruption controller has not confirmed yet. */
const MAX_DISRUPTED_PODS = 2000;

/** The field manager of the budget's status writes: kube-apiserver's loopback client. */
const KUBE_APISERVER = { fieldManager: { manager: 'kube-apiserver' } };

/** The Eviction's `deleteOptions`, as far as the eviction reads them. */
interface EvictionDeleteOptions {
  dryRun?: string[];
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: DeleteOptions['propagationPolicy'];
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

/** EvictionREST.Create: evicts the pod the path names, answering a Success Status (201). */
export async function evictPod(scope: NamedScope): Promise<void> {
  const { server, kind, namespace, name, query } = scope;
  const eviction = await readObject(scope.req);
  if (str(eviction.metadata?.name) !== name) {
    throw StatusError.of('BadRequest', 'name in URL does not match name in Eviction object');
  }
  const sent = isObject(eviction.deleteOptions)
    ? (eviction.deleteOptions as EvictionDeleteOptions)
    : undefined;
  if (sent?.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const errors = [
      invalid(
        'deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential',
        true,
        'can not be set for pod eviction, try after removing the option',
      ),
    ];
    throw StatusError.of(
      'Invalid',
      formatInvalidMessage({ kind: 'Eviction', group: 'policy' }, name, errors),
      {
        name,
        group: 'policy',
        kind: 'Eviction',
        causes: errors.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
      },
    );
  }
  const options = propagateDryRun(sent, dryRun(query) ? ['All'] : []);
  const pod = await server.objects.get(kind, namespace, name);
  if (canIgnoreBudget(pod)) {
    const opts = { ...options };
    if (enforcesResourceVersion(pod) && opts.preconditions?.resourceVersion === undefined) {
      opts.preconditions = { ...opts.preconditions, resourceVersion: pod.metadata?.resourceVersion };
    }
    await markAndDeletePod(scope, opts);
    return answer(scope, successStatus());
  }
  const budgets = (await server.objects.list(podDisruptionBudgetKind, namespace!)).filter((b) =>
    selects(b, pod),
  );
  if (budgets.length > 1) {
    // Answered, not thrown: the REST storage returns this Status as its result.
    return answer(scope, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    });
  }
  let unhealthyGoesAnyway = false;
  if (budgets.length === 1) {
    const budget = budgets[0];
    const spec = rec(budget.spec);
    const status = rec(budget.status);
    if (!podReady(pod)) {
      // An unready pod counts for nothing a budget protects: AlwaysAllow lets it go, as does a
      // budget that already has the healthy pods it wants.
      if (
        spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
        (num(status.currentHealthy) >= num(status.desiredHealthy) && num(status.desiredHealthy) > 0)
      ) {
        unhealthyGoesAnyway = true;
      }
    }
    if (!unhealthyGoesAnyway) await takeDisruption(scope, budget, pod, options.dryRun.length > 0);
  }
  let opts = options;
  if (unhealthyGoesAnyway) {
    opts = {
      ...options,
      preconditions: { ...options.preconditions, resourceVersion: pod.metadata?.resourceVersion },
    };
  }
  try {
    await markAndDeletePod(scope, opts);
  } catch (err) {
    // The unready pod changed meanwhile (it may be ready now): the budget decides again.
    if (
      err instanceof StatusError &&
      err.code === 409 &&
      unhealthyGoesAnyway &&
      options.preconditions?.resourceVersion === undefined
    ) {
      throw tooManyRequests(str(budgets[0].metadata?.name), 10);
    }
    throw err;
  }
  return answer(scope, successStatus());
}

/** The options the pod is deleted with. */
interface EvictionOptions {
  dryRun: string[];
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: DeleteOptions['propagationPolicy'];
}

/**
 * eviction.go `propagateDryRun`: the request's dryRun and the Eviction's deleteOptions' must
 * agree when both are given; either one alone counts.
 */
function propagateDryRun(sent: EvictionDeleteOptions | undefined, request: string[]): EvictionOptions {
  const own = Array.isArray(sent?.dryRun) ? sent.dryRun.map(String) : [];
  if (own.length > 0 && request.length > 0 && own.join('\0') !== request.join('\0')) {
    // A plain error upstream: answered as a bare 500 Status (no reason, no details).
    const message = `Non-matching dry-run options in request and content: [${request.join(' ')}] and [${own.join(' ')}]`;
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      code: 500,
    });
  }
  return {
    dryRun: own.length > 0 ? own : request,
    ...(isObject(sent?.preconditions) ? { preconditions: { ...sent.preconditions } } : {}),
    ...(sent?.propagationPolicy ? { propagationPolicy: sent.propagationPolicy } : {}),
  };
}

/** `canIgnorePDB`: a pod that is not running, or already going, is no budget's concern. */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = str(rec(pod.status).phase);
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp
  );
}

/** `shouldEnforceResourceVersion`: a pending pod is deleted only as it was read. */
function enforcesResourceVersion(pod: KubeObject): boolean {
  const phase = str(rec(pod.status).phase);
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp);
}

/** podutil `IsPodReady`: the Ready condition is True. */
function podReady(pod: KubeObject): boolean {
  return objects(rec(pod.status).conditions).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** `getPodDisruptionBudgets`: whether the budget's selector (nil selects nothing) takes the pod. */
function selects(budget: KubeObject, pod: KubeObject): boolean {
  try {
    const selector = labelSelectorFromObject(rec(budget.spec).selector as never);
    return matchesLabels(selector, pod.metadata?.labels);
  } catch (err) {
    if (err instanceof SelectorError) return false;
    throw err;
  }
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/**
 * `checkAndDecrement`, on the budget as stored now (a conflict re-reads it, as the retry does):
 * refuses while the disruption controller has not seen the budget's generation, when no
 * disruption is allowed, or when too many evictions wait for it; otherwise takes one and
 * records the pod, unless this is a dry run.
 */
async function takeDisruption(
  scope: NamedScope,
  found: KubeObject,
  pod: KubeObject,
  dry: boolean,
): Promise<void> {
  const budgetName = str(found.metadata?.name);
  const check = (budget: KubeObject): Record<string, unknown> => {
    const status = { ...rec(budget.status) };
    if (num(status.observedGeneration) < num(budget.metadata?.generation))
      throw tooManyRequests(budgetName, 10);
    const allowed = num(status.disruptionsAllowed);
    if (allowed < 0) {
      throw budgetForbidden(
        budgetName,
        'pdb disruptions allowed is negative',
        'pdb disruptions allowed is negative',
      );
    }
    if (Object.keys(rec(status.disruptedPods)).length > MAX_DISRUPTED_PODS) {
      throw budgetForbidden(
        budgetName,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
        'too many pending evictions not confirmed by PDB controller',
      );
    }
    if (allowed === 0) throw noDisruptionAllowed(budgetName, status);
    status.disruptionsAllowed = allowed - 1;
    if (status.disruptionsAllowed === 0) setDisruptionAllowedCondition(status, scope.server.clock.now());
    return status;
  };
  if (dry) {
    check(found);
    return;
  }
  await scope.server.objects.guaranteedUpdate(
    podDisruptionBudgetKind,
    scope.namespace,
    budgetName,
    'status',
    KUBE_APISERVER,
    (budget) => {
      const status = check(budget);
      status.disruptedPods = {
        ...rec(status.disruptedPods),
        [str(pod.metadata?.name)]: rfc3339(scope.server.clock.now()),
      };
      return { ...budget, status };
    },
  );
}

/**
 * pdbhelper `UpdateDisruptionAllowedCondition` once no disruption is left: the DisruptionAllowed
 * condition False with reason InsufficientPods (apimeta `SetStatusCondition`: the transition
 * time moves only when the status does).
 */
function setDisruptionAllowedCondition(status: Record<string, unknown>, now: number): void {
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
function tooManyRequests(budgetName: string, retryAfterSeconds: number, message?: string): StatusError {
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
function noDisruptionAllowed(budgetName: string, status: Record<string, unknown>): StatusError {
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
function budgetForbidden(budgetName: string, why: string, cause: string): StatusError {
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

/**
 * `addConditionAndDeletePod`: unless a dry run, the pod gets the DisruptionTarget condition
 * (through the pod status strategy, checking the options' preconditions as it reads it), then
 * is deleted with the options, its resourceVersion precondition moved to the marked pod's.
 */
async function markAndDeletePod(scope: NamedScope, options: EvictionOptions): Promise<void> {
  const { server, kind, namespace, name } = scope;
  const dry = options.dryRun.length > 0;
  let preconditions = options.preconditions;
  if (!dry) {
    const marked = await server.objects.guaranteedUpdate(kind, namespace, name, 'status', {}, (pod) => {
      const uid = preconditions?.uid;
      if (uid && uid !== pod.metadata?.uid) {
        throw podConflict(
          name,
          `the UID in the precondition (${uid}) does not match the UID in record (${pod.metadata?.uid}). The object might have been deleted and then recreated`,
        );
      }
      const rv = preconditions?.resourceVersion;
      if (rv && rv !== pod.metadata?.resourceVersion) {
        throw podConflict(
          name,
          `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${pod.metadata?.resourceVersion}). The object might have been modified`,
        );
      }
      setDisruptionTarget(pod, server.clock.now());
      return pod;
    });
    if (preconditions?.resourceVersion !== undefined) {
      preconditions = { ...preconditions, resourceVersion: marked.metadata?.resourceVersion };
    }
  }
  await server.objects.delete(kind, namespace, name, {
    dryRun: dry,
    ...(preconditions ? { preconditions } : {}),
    ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
  });
}

/** errors.NewConflict on the resource `Pod` (as eviction.go names it). */
function podConflict(name: string, why: string): StatusError {
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
function setDisruptionTarget(pod: KubeObject, now: number): void {
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

function successStatus(): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

/**
 * create.go: the REST storage's Status gets the create's 201 as its code when it has none, and
 * the response writer answers a Status with its own code (the 500 of two budgets).
 */
function answer(scope: NamedScope, status: Status): void {
  reply(scope, status.code, status);
}

/** The pods/eviction subresource: the core group's pods. */
export function servesEviction(kind: ResourceKind): boolean {
  return kind.group === '' && kind.plural === 'pods';
}
