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
import type { ResourceKind } from '../kinds/types.js';
import { formatInvalidMessage, invalid } from '../kinds/validation.js';
import { rfc3339 } from '../registry/meta.js';
import type { DeleteOptions } from '../registry/object-storage.js';
import {
  budgetForbidden,
  noDisruptionAllowed,
  podConflict,
  setDisruptionAllowedCondition,
  setDisruptionTarget,
  tooManyRequests,
} from './eviction-status.js';
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
  const budgets = (await server.objects.list(budgetKind(scope), namespace!)).filter((b) => selects(b, pod));
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
    budgetKind(scope),
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

/** The served policy/v1 PodDisruptionBudget kind. */
function budgetKind(scope: NamedScope): ResourceKind {
  const kind = scope.server.kinds.findByPlural('policy', 'v1', 'poddisruptionbudgets');
  if (!kind) throw new Error('pods/eviction: policy/v1 poddisruptionbudgets is not served');
  return kind;
}

/** The pods/eviction subresource: the core group's pods. */
export function servesEviction(kind: ResourceKind): boolean {
  return kind.group === '' && kind.plural === 'pods';
}
