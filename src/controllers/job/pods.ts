/**
 * What the Job controller reads of its pods (pkg/controller/controller_utils.go `IsPodActive`,
 * `IsPodTerminating`, `ActivePods`; pkg/controller/job/backoff_utils.go `getFinishedTime`) and
 * how it makes a pod from the Job's template (`GetPodFromTemplate`, `CreatePodsWithGenerateName`).
 */
import type { KubeObject } from '../../protocol/events.js';
import { COMPLETION_INDEX, generateNameWithIndex } from './indexes.js';

/** The finalizer that keeps a finished pod until the Job counted it. */
export const TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

/** The pod fields the controller reads. */
export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    restartPolicy?: string;
    hostname?: string;
    initContainers?: Array<{ name: string; restartPolicy?: string; env?: unknown[] }>;
    containers?: Array<{ name: string; env?: unknown[] }>;
    [k: string]: unknown;
  };
  status?: PodStatus;
}

/** A container's status, as far as the controller reads it. */
export interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { terminated?: { exitCode?: number; finishedAt?: string } };
}

/** The pod status fields the controller reads. */
export interface PodStatus {
  phase?: string;
  conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }>;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

/** Whether the pod is neither finished nor being deleted (`IsPodActive`). */
export function isActive(p: Pod): boolean {
  const phase = p.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !p.metadata?.deletionTimestamp;
}

/** Whether the pod is being deleted and not finished (`IsPodTerminating`). */
export function isTerminating(p: Pod): boolean {
  const phase = p.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && Boolean(p.metadata?.deletionTimestamp);
}

/** Whether the pod's Ready condition is True (`podutil.IsPodReady`). */
export function isReady(p: Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Whether the pod carries the tracking finalizer. */
export function hasTrackingFinalizer(p: Pod): boolean {
  return (p.metadata?.finalizers ?? []).includes(TRACKING_FINALIZER);
}

/** The pod's controller owner reference's uid. */
export function controllerUid(p: KubeObject): string | undefined {
  const refs = (p.metadata?.ownerReferences ?? []) as Array<{ uid?: string; controller?: boolean }>;
  return refs.find((r) => r.controller === true)?.uid;
}

/** `getFinishedTime`: the containers' last finish, else the Ready=False transition, else the deletion, else creation. */
export function finishedTime(p: Pod): number {
  const containers = latestFinish(undefined, p.status?.containerStatuses ?? [], () => true);
  if (containers !== undefined) {
    const sidecars = new Set(
      (p.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
    );
    const all = latestFinish(containers, p.status?.initContainerStatuses ?? [], (s) => sidecars.has(s.name));
    if (all !== undefined) return all;
  }
  const ready = (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
  if (ready && ready.status === 'False' && ready.lastTransitionTime)
    return Date.parse(ready.lastTransitionTime);
  if (p.metadata?.deletionTimestamp) {
    return Date.parse(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  }
  return Date.parse(p.metadata?.creationTimestamp ?? '') || 0;
}

function latestFinish(
  prev: number | undefined,
  statuses: ContainerStatus[],
  check: (s: ContainerStatus) => boolean,
): number | undefined {
  let out = prev;
  for (const s of statuses) {
    if (!check(s)) continue;
    const at = s.state?.terminated?.finishedAt;
    if (!at) return undefined;
    const t = Date.parse(at);
    if (out === undefined || out < t) out = t;
  }
  return out;
}

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * `controller.ActivePods`' order, the pods to delete first: unscheduled before scheduled,
 * Pending before Unknown before Running, not ready before ready, more restarts before fewer,
 * newer before older.
 */
export function compareForRemoval(a: Pod, b: Pod): number {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const pa = PHASE_ORDER[a.status?.phase ?? ''] ?? 0;
  const pb = PHASE_ORDER[b.status?.phase ?? ''] ?? 0;
  if (pa !== pb) return pa - pb;
  if (isReady(a) !== isReady(b)) return isReady(a) ? 1 : -1;
  const ra = maxRestarts(a);
  const rb = maxRestarts(b);
  if (ra !== rb) return rb - ra;
  const ca = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const cb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  return cb - ca;
}

function maxRestarts(p: Pod): number {
  return Math.max(0, ...(p.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
}

/** The Job fields pod creation reads. */
export interface JobForPods extends KubeObject {
  spec?: {
    template?: {
      metadata?: {
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
        finalizers?: string[];
      };
      spec?: Record<string, unknown>;
    };
    [k: string]: unknown;
  };
}

/**
 * The pod `CreatePodsWithGenerateName` sends for one new pod: the template's labels, annotations
 * and finalizers (plus the tracking finalizer), the Job as controller owner, the template's spec;
 * for an Indexed Job the index annotation and label, the hostname `<job>-<index>`, the
 * `JOB_COMPLETION_INDEX` variable in every container (`addCompletionIndexEnvVariables`) and the
 * generate name `<job>-<index>-`.
 */
export function podFromTemplate(job: JobForPods, index: number | undefined): Pod {
  const name = job.metadata?.name ?? '';
  const template = job.spec?.template ?? {};
  const meta = template.metadata ?? {};
  const labels = { ...(meta.labels ?? {}) };
  const annotations = { ...(meta.annotations ?? {}) };
  const finalizers = [...(meta.finalizers ?? [])];
  if (!finalizers.includes(TRACKING_FINALIZER)) finalizers.push(TRACKING_FINALIZER);
  const spec = structuredClone(template.spec ?? {}) as NonNullable<Pod['spec']>;
  let generateName = `${name}-`;
  if (index !== undefined) {
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      const env = (c.env ?? []) as Array<{ name?: string }>;
      if (env.some((e) => e.name === 'JOB_COMPLETION_INDEX')) continue;
      c.env = [
        ...env,
        {
          name: 'JOB_COMPLETION_INDEX',
          valueFrom: { fieldRef: { fieldPath: `metadata.labels['${COMPLETION_INDEX}']` } },
        },
      ];
    }
    annotations[COMPLETION_INDEX] = String(index);
    labels[COMPLETION_INDEX] = String(index);
    spec.hostname = `${name}-${index}`;
    generateName = generateNameWithIndex(name, index);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName,
      labels,
      annotations,
      finalizers,
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name,
          uid: job.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec,
  };
}
