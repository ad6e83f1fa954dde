/**
 * kube-controller-manager's disruption controller (pkg/controller/disruption/disruption.go): each
 * PodDisruptionBudget's status, from the pods its selector picks in its namespace. That status is
 * what the eviction subresource checks, so with this controller `kubectl drain` and evictions
 * behave as on a cluster.
 *
 * For each budget (`trySync`): the expected pods and the healthy ones it wants
 * (`getExpectedPodCount`: an integer minAvailable counts the pods themselves; a percentage, or
 * maxUnavailable, the replicas of the pods' controllers, found as upstream's finders find them:
 * a ReplicaSet or, when a Deployment owns it, the Deployment; a StatefulSet; a
 * ReplicationController; else any controller with a scale subresource), the healthy pods
 * (`countHealthyPods`: Ready, not being deleted, not evicted within the last two minutes), the
 * disruptions allowed, and the DisruptionAllowed condition (component-helpers
 * `UpdateDisruptionAllowedCondition`). A budget it cannot compute gets `failSafe`'s status: no
 * disruption allowed, reason SyncFailed. Events (NoPods, UnmanagedPods) are not recorded.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { type LabelSelectorObject, labelSelectorFromObject } from '../protocol/label-object.js';
import { matchesLabels } from '../protocol/labels.js';
import { isConflict, runQueueWorker } from '../protocol/queue-worker.js';
import { StatusError } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';

/** How long an evicted pod counts as going away before it counts again (disruption.go `DeletionTimeout`). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

interface PdbStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: Condition[];
}

type IntOrString = number | string;

interface Pdb extends KubeObject {
  spec?: { minAvailable?: IntOrString; maxUnavailable?: IntOrString; selector?: LabelSelectorObject };
  status?: PdbStatus;
}

interface OwnerRef {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
}

function controllerOf(o: KubeObject): OwnerRef | undefined {
  return ((o.metadata?.ownerReferences ?? []) as OwnerRef[]).find((r) => r.controller === true);
}

function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

/** `intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true)`; throws on a malformed percent. */
export function scaledValue(value: IntOrString, total: number): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(value)}`);
  return Math.ceil((Number(m[1]) * total) / 100);
}

function isReady(pod: KubeObject): boolean {
  const conditions = ((pod.status as { conditions?: Condition[] } | undefined)?.conditions ??
    []) as Condition[];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The disruption controller: {@link DisruptionController.start}, {@link DisruptionController.stop}. */
export class DisruptionController {
  private readonly queue: WorkQueue;
  private readonly pdbs: Informer<Pdb>;
  private readonly pods: Informer;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    this.pdbs = kube.informer<Pdb>('poddisruptionbudgets.policy', { allNamespaces: true });
    this.pods = kube.informer('pods', { allNamespaces: true });
    const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
    this.pdbs.on({ add: (o) => this.queue.add(key(o)), update: (_, o) => this.queue.add(key(o)) });
    const pod = (o: KubeObject) => {
      for (const pdb of this.pdbsOf(o)) this.queue.add(key(pdb));
    };
    this.pods.on({ add: pod, update: (_, o) => pod(o), delete: pod });
  }

  async start(workers = 1): Promise<void> {
    this.pdbs.start();
    this.pods.start();
    await Promise.all([this.pdbs.synced(), this.pods.synced()]);
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.pdbs.stop(), this.pods.stop()]);
  }

  /** The budgets whose selector picks `pod` (an empty selector picks every pod of the namespace). */
  private pdbsOf(pod: KubeObject): Pdb[] {
    const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
    return this.pdbs.list().filter((pdb) => {
      if (pdb.metadata?.namespace !== pod.metadata?.namespace) return false;
      try {
        return matchesLabels(labelSelectorFromObject(pdb.spec?.selector), labels);
      } catch {
        return false;
      }
    });
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.sync(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        if (!isConflict(err)) this.log(`disruption-controller: syncing ${key}: ${(err as Error).message}`);
      },
    });
  }

  private async sync(key: string): Promise<void> {
    const pdb = this.pdbs.get(key);
    if (!pdb) return;
    try {
      await this.trySync(pdb);
    } catch (err) {
      if (err instanceof StatusError && err.code === 409) throw err;
      await this.failSafe(pdb, (err as Error).message);
      throw err;
    }
  }

  private async trySync(pdb: Pdb): Promise<void> {
    const namespace = pdb.metadata?.namespace ?? '';
    const selector = labelSelectorFromObject(pdb.spec?.selector);
    const pods = this.pods
      .list()
      .filter(
        (p) =>
          p.metadata?.namespace === namespace &&
          matchesLabels(selector, (p.metadata?.labels ?? {}) as Record<string, string>),
      );
    const { expected, desired } = await this.expectedPodCount(pdb, pods);
    const now = this.clock.now();
    const { disrupted, recheckAt } = this.disruptedPodMap(pdb, pods, now);
    let healthy = 0;
    for (const pod of pods) {
      if (pod.metadata?.deletionTimestamp) continue;
      const at = disrupted[pod.metadata?.name ?? ''];
      if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > now) continue;
      if (isReady(pod)) healthy++;
    }
    await this.updateStatus(pdb, healthy, desired, expected, disrupted);
    if (recheckAt !== undefined) this.queue.addAfter(`${namespace}/${pdb.metadata?.name}`, recheckAt - now);
  }

  /** `getExpectedPodCount`. */
  private async expectedPodCount(
    pdb: Pdb,
    pods: KubeObject[],
  ): Promise<{ expected: number; desired: number }> {
    const spec = pdb.spec ?? {};
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      const expected = await this.expectedScale(pods);
      return { expected, desired: Math.max(0, expected - scaledValue(spec.maxUnavailable, expected)) };
    }
    if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
      if (typeof spec.minAvailable === 'number') return { expected: pods.length, desired: spec.minAvailable };
      const expected = await this.expectedScale(pods);
      return { expected, desired: scaledValue(spec.minAvailable, expected) };
    }
    return { expected: 0, desired: 0 };
  }

  /** `getExpectedScale`: the replicas of the pods' controllers, each counted once; unmanaged pods count none. */
  private async expectedScale(pods: KubeObject[]): Promise<number> {
    const scales = new Map<string, number>();
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (!ref?.uid || scales.has(ref.uid)) continue;
      const found = await this.controllerScale(ref, pod.metadata?.namespace ?? '');
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata?.name)}`);
      scales.set(found.uid, found.replicas);
    }
    let total = 0;
    for (const n of scales.values()) total += n;
    return total;
  }

  /** The finders, in upstream's order: ReplicaSet, StatefulSet, Deployment, ReplicationController, any scale. */
  private async controllerScale(
    ref: OwnerRef,
    namespace: string,
  ): Promise<{ uid: string; replicas: number } | undefined> {
    const group = groupOf(ref.apiVersion);
    const uid = ref.uid ?? '';
    const get = async (type: string, name: string) => this.kube.resource(type, namespace).find(name);
    const replicasOf = (o: KubeObject) => (o.spec as { replicas?: number } | undefined)?.replicas ?? 1;
    if (ref.kind === 'ReplicaSet' && (group === 'apps' || group === 'extensions')) {
      const rs = await get('replicasets.apps', ref.name ?? '');
      if (!rs || rs.metadata?.uid !== ref.uid) return undefined;
      const owner = controllerOf(rs);
      if (owner?.kind !== 'Deployment') return { uid, replicas: replicasOf(rs) };
      if (!['apps', 'extensions'].includes(groupOf(owner.apiVersion))) return undefined;
      const deployment = await get('deployments.apps', owner.name ?? '');
      if (!deployment || deployment.metadata?.uid !== owner.uid) return undefined;
      return { uid: owner.uid ?? '', replicas: replicasOf(deployment) };
    }
    if (ref.kind === 'StatefulSet' && group === 'apps') {
      const sts = await get('statefulsets.apps', ref.name ?? '');
      return sts && sts.metadata?.uid === ref.uid ? { uid, replicas: replicasOf(sts) } : undefined;
    }
    if (ref.kind === 'ReplicationController' && group === '') {
      const rc = await get('replicationcontrollers', ref.name ?? '');
      return rc && rc.metadata?.uid === ref.uid ? { uid, replicas: replicasOf(rc) } : undefined;
    }
    // `getScaleController`: any kind with a scale subresource.
    const version = (ref.apiVersion ?? '').split('/').at(-1);
    const type = group ? `${ref.kind}.${version}.${group}` : `${ref.kind}`;
    try {
      const scale = await this.kube.resource(type, namespace).getScale(ref.name ?? '');
      if (scale.metadata?.uid !== ref.uid) return undefined;
      return { uid: ref.uid ?? '', replicas: scale.spec?.replicas ?? 0 };
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }

  /** `buildDisruptedPodMap`: the evictions still expected to complete, and when to look again. */
  private disruptedPodMap(
    pdb: Pdb,
    pods: KubeObject[],
    now: number,
  ): { disrupted: Record<string, string>; recheckAt?: number } {
    const listed = pdb.status?.disruptedPods;
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    if (!listed) return { disrupted };
    for (const pod of pods) {
      if (pod.metadata?.deletionTimestamp) continue;
      const name = pod.metadata?.name ?? '';
      const at = listed[name];
      if (at === undefined) continue;
      const expectedDeletion = Date.parse(at) + DELETION_TIMEOUT_MS;
      if (expectedDeletion < now) continue;
      if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
      disrupted[name] = at;
    }
    return { disrupted, recheckAt };
  }

  /** `updatePdbStatus`: written only when something changed. */
  private async updateStatus(
    pdb: Pdb,
    currentHealthy: number,
    desiredHealthy: number,
    expectedPods: number,
    disruptedPods: Record<string, string>,
  ): Promise<void> {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const status = pdb.status ?? {};
    const generation = pdb.metadata?.generation ?? 0;
    const want = disruptionsAllowed > 0 ? ['True', 'SufficientPods'] : ['False', 'InsufficientPods'];
    const condition = (status.conditions ?? []).find((c) => c.type === 'DisruptionAllowed');
    const upToDate =
      condition !== undefined &&
      (status.observedGeneration ?? 0) === generation &&
      condition.status === want[0] &&
      condition.reason === want[1];
    const sameMap =
      JSON.stringify(Object.entries(status.disruptedPods ?? {}).sort()) ===
      JSON.stringify(Object.entries(disruptedPods).sort());
    if (
      (status.currentHealthy ?? 0) === currentHealthy &&
      (status.desiredHealthy ?? 0) === desiredHealthy &&
      (status.expectedPods ?? 0) === expectedPods &&
      (status.disruptionsAllowed ?? 0) === disruptionsAllowed &&
      sameMap &&
      upToDate
    )
      return;
    const next: PdbStatus = {
      ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
      observedGeneration: generation,
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods,
      conditions: setCondition(
        status.conditions ?? [],
        {
          type: 'DisruptionAllowed',
          status: want[0]!,
          observedGeneration: generation,
          reason: want[1],
          message: '',
        },
        this.clock.now(),
      ),
    };
    await this.writeStatus(pdb, next);
  }

  /** `failSafe`: no disruption allowed, and why, when the status cannot be computed. */
  private async failSafe(pdb: Pdb, message: string): Promise<void> {
    const status = pdb.status ?? {};
    await this.writeStatus(pdb, {
      ...status,
      disruptionsAllowed: 0,
      conditions: setCondition(
        status.conditions ?? [],
        {
          type: 'DisruptionAllowed',
          status: 'False',
          observedGeneration: status.observedGeneration ?? 0,
          reason: 'SyncFailed',
          message,
        },
        this.clock.now(),
      ),
    });
  }

  private async writeStatus(pdb: Pdb, status: PdbStatus): Promise<void> {
    await this.kube
      .resource<Pdb>('poddisruptionbudgets.policy', pdb.metadata?.namespace)
      .updateStatus({ ...pdb, status });
  }
}

/**
 * apimachinery meta `SetStatusCondition`: a new condition gets `now` as its transition time; an
 * existing one keeps its time unless its status changes, and takes the rest.
 */
export function setCondition(conditions: Condition[], next: Condition, now: number): Condition[] {
  const stamp = new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) return [...conditions, { ...next, lastTransitionTime: stamp }];
  const old = conditions[i]!;
  const merged: Condition = {
    ...old,
    status: next.status,
    reason: next.reason,
    message: next.message,
    observedGeneration: next.observedGeneration,
    lastTransitionTime: old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : stamp,
  };
  return conditions.map((c, j) => (j === i ? merged : c));
}
