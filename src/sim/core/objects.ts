/**
 * The shapes of the objects the simulated cluster reads and writes, narrowed
 * to the fields it uses, and small helpers over them (owner references,
 * selectors, conditions, timestamps). Everything else passes through
 * untouched: the sim never drops a field it does not know.
 */
import type { KubeObject, OwnerReference } from '../../protocol/events.js';
import { type LabelSelectorObject, labelSelectorFromObject, matchesLabels } from '../../protocol/labels.js';

/** A status condition (Deployment, ReplicaSet, Pod, Node). */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
}

/** core/v1 PodTemplateSpec, as far as the controllers look into it. */
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  spec?: PodSpec;
}

/** core/v1 Container. */
export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  [k: string]: unknown;
}

/** core/v1 PodSpec. */
export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  nodeName?: string;
  schedulerName?: string;
  [k: string]: unknown;
}

/** apps/v1 Deployment. */
export interface Deployment extends KubeObject {
  spec: {
    replicas?: number;
    selector?: LabelSelectorObject;
    template?: PodTemplate;
    strategy?: {
      type?: 'RollingUpdate' | 'Recreate';
      rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: DeploymentStatus;
}

/** apps/v1 DeploymentStatus. */
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

/** apps/v1 ReplicaSet. */
export interface ReplicaSet extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelectorObject;
    template?: PodTemplate;
  };
  status?: ReplicaSetStatus;
}

/** apps/v1 ReplicaSetStatus. */
export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

/** core/v1 Pod. */
export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: {
    phase?: string;
    conditions?: Condition[];
    containerStatuses?: Array<{ name: string; restartCount?: number; ready?: boolean; [k: string]: unknown }>;
    [k: string]: unknown;
  };
}

/** core/v1 Node. */
export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; [k: string]: unknown };
  status?: {
    conditions?: Condition[];
    allocatable?: Record<string, string>;
    capacity?: Record<string, string>;
    [k: string]: unknown;
  };
}

/** `namespace/name` (or `name`), the work-queue key of an object. */
export function keyOf(obj: KubeObject): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? '');
}

/** Splits a work-queue key back into namespace and name. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** The owner reference with `controller: true`, if any. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** An apiVersion and kind, as a controller names the kind it controls (client-go's controllerKind). */
export interface GroupVersionKind {
  apiVersion: string;
  kind: string;
}

export const POD_KIND: GroupVersionKind = { apiVersion: 'v1', kind: 'Pod' };
export const REPLICA_SET_KIND: GroupVersionKind = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };
export const DEPLOYMENT_KIND: GroupVersionKind = { apiVersion: 'apps/v1', kind: 'Deployment' };

/**
 * `obj` with its apiVersion and kind, filled from `gvk` when absent. Items of a
 * built-in list carry neither (kube-apiserver omits them), so an informer's
 * cache holds objects without them after a list; client-go's ref.GetReference
 * then takes the kind from the scheme, as this does from the caller.
 */
export function typed<T extends KubeObject>(obj: T, gvk: GroupVersionKind): T {
  return obj.kind ? obj : { ...obj, apiVersion: obj.apiVersion || gvk.apiVersion, kind: gvk.kind };
}

/**
 * The controller reference a controller puts on what it creates
 * (metav1.NewControllerRef(owner, gvk)): the kind comes from the controller,
 * not the owner object, which has none when it came from a list.
 */
export function controllerRef(owner: KubeObject, gvk: GroupVersionKind): OwnerReference {
  return {
    apiVersion: gvk.apiVersion,
    kind: gvk.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Index values for "who controls this": `uid:<controller uid>`, or
 * `orphan:<namespace>` for objects without a controller, so a controller
 * finds its own objects and the adoptable ones without scanning a namespace.
 */
export function controllerIndex(obj: KubeObject): string[] {
  const ref = controllerOf(obj);
  return ref ? [`uid:${ref.uid}`] : [`orphan:${obj.metadata?.namespace ?? ''}`];
}

/** Whether `labels` match a metav1.LabelSelector; an absent or invalid selector matches nothing. */
export function selectorMatches(
  selector: LabelSelectorObject | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  try {
    return matchesLabels(labelSelectorFromObject(selector), labels);
  } catch {
    // An invalid selector selects nothing (the server validates them, so this is defensive).
    return false;
  }
}

/** A timestamp as the API writes metav1.Time: RFC 3339, whole seconds, UTC. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** metav1.MicroTime (Lease renewTime, Event eventTime): microseconds. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The condition of `type`, if present. */
export function findCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * JSON with object keys sorted and empty values (null, {}, []) dropped: two
 * objects that Go would consider semantically equal after a round trip
 * through omitempty fields compare (and hash) the same.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? '';
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === null ? undefined : value;
}

/** Semantic equality (see {@link canonicalJson}). */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The object's annotations, created empty when absent (for writing). */
export function annotationsOf(obj: KubeObject): Record<string, string> {
  if (!obj.metadata) obj.metadata = {};
  if (!obj.metadata.annotations) obj.metadata.annotations = {};
  return obj.metadata.annotations;
}

/** Whether the object has been marked for deletion. */
export function isDeleting(obj: KubeObject): boolean {
  return Boolean(obj.metadata?.deletionTimestamp);
}
