/**
 * The ReplicaSet controller (kube's pkg/controller/replicaset): keeps the
 * number of active pods a ReplicaSet controls equal to spec.replicas, in
 * slow-start batches (1, 2, 4 ... at most 500 per sync), guarded by
 * expectations so a lagging cache never doubles a create or a delete; and
 * writes replicas/fullyLabeled/ready/available counts through `status`.
 *
 * The same controller serves ReplicationControllers, as kube-controller-manager's replication
 * manager is this controller over a conversion (pkg/controller/replication/replication_controller.go
 * `NewReplicationManager`: the ReplicaSet controller given the v1 ReplicationController's kind,
 * informer and client): {@link REPLICATION_CONTROLLERS} says what differs, the kind in owner
 * references, the resource written, the component named in events, and the selector, a plain
 * label map on an RC (conversion.go: `matchLabels`).
 */
import type { Informer } from '../client/informer/informer.js';
import type { ResourceClient } from '../client/rest.js';
import type { OwnerReference } from '../protocol/events.js';
import type { LabelSelectorObject } from '../protocol/labels.js';
import { isConflict, isNotFound } from '../protocol/status.js';
import { claimObjects, recheckOwner } from './core/claim.js';
import { Controller, type SimContext } from './core/controller.js';
import { Expectations } from './core/expectations.js';
import {
  type Condition,
  controllerOf,
  controllerRef,
  findCondition,
  type GroupVersionKind,
  isDeleting,
  keyOf,
  type Pod,
  REPLICA_SET_KIND,
  type ReplicaSet,
  type ReplicaSetStatus,
  rfc3339,
  selectorMatches,
  semanticEqual,
  typed,
} from './core/objects.js';
import { deletionOrder, isPodActive, isPodAvailable, isPodReady } from './core/pods.js';
import { Semaphore } from './core/semaphore.js';
import type { EventRecorder } from './events/recorder.js';

/** kube's `BurstReplicas`: the most pods one sync creates or deletes. */
const BURST_REPLICAS = 500;
/** Pod creates/deletes in flight: slow-start batches grow to 256, the connection pool need not. */
const REQUESTS_IN_FLIGHT = 32;

/** The informers the ReplicaSet controller reads (`replicaSets`: the kind's own, ReplicationControllers for {@link REPLICATION_CONTROLLERS}). */
export interface ReplicaSetInformers {
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
}

/** The kind a {@link ReplicaSetController} keeps the pods of. */
export interface ReplicatedKind {
  /** kube-controller-manager's name of the controller, for logs, stats and events. */
  controller: string;
  /** The component its events name (`EventSource.Component`). */
  component: string;
  gvk: GroupVersionKind;
  /** The resource its status is written to. */
  resource: string;
  /** The pods it selects. */
  selector(owner: ReplicaSet): LabelSelectorObject | undefined;
}

/** apps/v1 ReplicaSets. */
export const REPLICA_SETS: ReplicatedKind = {
  controller: 'replicaset-controller',
  component: 'replicaset-controller',
  gvk: REPLICA_SET_KIND,
  resource: 'replicasets',
  selector: (rs) => rs.spec.selector,
};

/** v1 ReplicationControllers: a selector is a label map (replication's conversion.go). */
export const REPLICATION_CONTROLLERS: ReplicatedKind = {
  controller: 'replicationcontroller-controller',
  component: 'replication-controller',
  gvk: { apiVersion: 'v1', kind: 'ReplicationController' },
  resource: 'replicationcontrollers',
  selector: (rc) => {
    const labels = rc.spec.selector as Record<string, string> | undefined;
    return labels ? { matchLabels: labels } : undefined;
  },
};

/** `slowStartBatch`: run `fn` count times in doubling batches, stopping at the first failing batch. */
export async function slowStartBatch(
  count: number,
  initial: number,
  fn: () => Promise<void>,
): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}

/** See the module comment. */
export class ReplicaSetController extends Controller {
  private readonly informers: ReplicaSetInformers;
  private readonly recorder: EventRecorder;
  private readonly expectations: Expectations;
  private readonly slots = new Semaphore(REQUESTS_IN_FLIGHT);
  private readonly removers: Array<() => void> = [];

  constructor(
    ctx: SimContext,
    informers: ReplicaSetInformers,
    recorder: EventRecorder,
    private readonly kind: ReplicatedKind = REPLICA_SETS,
  ) {
    super(kind.controller, ctx);
    this.informers = informers;
    this.recorder = recorder;
    this.expectations = new Expectations(ctx.clock);
    this.removers.push(
      informers.replicaSets.on({
        add: (rs) => this.enqueue(keyOf(rs)),
        update: (_, rs) => this.enqueue(keyOf(rs)),
        delete: (rs) => {
          this.expectations.delete(keyOf(rs));
          this.enqueue(keyOf(rs));
        },
      }),
      informers.pods.on({
        add: (pod) => this.podAdded(pod),
        update: (old, pod) => this.podUpdated(old, pod),
        delete: (pod) => this.podDeleted(pod),
      }),
    );
  }

  override async stop(): Promise<void> {
    for (const remove of this.removers.splice(0)) remove();
    await super.stop();
  }

  // --- pod events: find the ReplicaSet, note expectations, queue it ---

  private resolve(pod: Pod, ref: OwnerReference | undefined): ReplicaSet | undefined {
    if (ref?.kind !== this.kind.gvk.kind) return undefined;
    const rs = this.informers.replicaSets.get(`${pod.metadata?.namespace}/${ref.name}`);
    return rs?.metadata?.uid === ref.uid ? rs : undefined;
  }

  private enqueueMatching(pod: Pod): void {
    for (const rs of this.informers.replicaSets.byIndex('namespace', pod.metadata?.namespace ?? '')) {
      if (selectorMatches(this.kind.selector(rs), pod.metadata?.labels)) this.enqueue(keyOf(rs));
    }
  }

  private podAdded(pod: Pod): void {
    // A pod already being deleted (seen on a relist) is no creation.
    if (isDeleting(pod)) {
      this.podDeleted(pod);
      return;
    }
    const ref = controllerOf(pod);
    if (!ref) {
      this.enqueueMatching(pod);
      return;
    }
    const rs = this.resolve(pod, ref);
    if (!rs) return;
    this.expectations.creationObserved(keyOf(rs));
    this.enqueue(keyOf(rs));
  }

  private podUpdated(old: Pod, pod: Pod): void {
    const labelsChanged = !semanticEqual(old.metadata?.labels, pod.metadata?.labels);
    if (isDeleting(pod)) {
      this.podDeleted(pod);
      if (labelsChanged) this.podDeleted(old);
      return;
    }
    const ref = controllerOf(pod);
    const oldRef = controllerOf(old);
    const refChanged = ref?.uid !== oldRef?.uid;
    if (refChanged && oldRef) {
      const rs = this.resolve(old, oldRef);
      if (rs) this.enqueue(keyOf(rs));
    }
    if (ref) {
      const rs = this.resolve(pod, ref);
      if (!rs) return;
      this.enqueue(keyOf(rs));
      // With minReadySeconds, a pod that just became ready becomes available later: look again then.
      const minReady = rs.spec.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod))
        this.queue.addAfter(keyOf(rs), minReady * 1000 + 50);
      return;
    }
    if (labelsChanged || refChanged) this.enqueueMatching(pod);
  }

  private podDeleted(pod: Pod): void {
    const rs = this.resolve(pod, controllerOf(pod));
    if (!rs) return;
    this.expectations.deletionObserved(keyOf(rs), keyOf(pod));
    this.enqueue(keyOf(rs));
  }

  // --- sync ---

  protected async sync(key: string): Promise<void> {
    const cached = this.informers.replicaSets.get(key);
    if (!cached) {
      this.expectations.delete(key);
      return;
    }
    const rs = structuredClone(cached);
    const ns = rs.metadata?.namespace ?? '';
    const needsSync = this.expectations.satisfied(key);
    const candidates = [
      ...this.informers.pods.byIndex('controller', `uid:${rs.metadata?.uid}`),
      ...this.informers.pods.byIndex('controller', `orphan:${ns}`),
    ].filter(isPodActive);
    const rsClient = this.ctx.kube.resource<ReplicaSet>(this.kind.resource, ns);
    const pods = await claimObjects(
      {
        owner: rs,
        ownerKind: this.kind.gvk,
        selector: this.kind.selector(rs),
        client: this.podClient(ns),
        signal: this.ctx.signal,
      },
      candidates,
      recheckOwner(rsClient, rs, this.ctx.signal),
    );
    let manageError: unknown;
    if (needsSync && !isDeleting(rs)) {
      try {
        await this.manageReplicas(pods, rs);
      } catch (err) {
        if (this.ctx.signal.aborted) throw err;
        manageError = err;
      }
    }
    const status = this.calculateStatus(rs, pods, manageError);
    const updated = await this.updateStatus(rsClient, rs, status);
    const wanted = updated.spec.replicas ?? 0;
    const s = updated.status ?? {};
    if (
      !manageError &&
      (updated.spec.minReadySeconds ?? 0) > 0 &&
      s.readyReplicas === wanted &&
      s.availableReplicas !== wanted
    ) {
      this.queue.addAfter(key, (updated.spec.minReadySeconds ?? 0) * 1000);
    }
    if (manageError) throw manageError;
  }

  private podClient(namespace: string): ResourceClient<Pod> {
    return this.ctx.kube.resource<Pod>('pods', namespace);
  }

  private async manageReplicas(pods: Pod[], rs: ReplicaSet): Promise<void> {
    const key = keyOf(rs);
    const diff = pods.length - (rs.spec.replicas ?? 0);
    if (diff < 0) {
      const count = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, count);
      const { successes, error } = await slowStartBatch(count, 1, () => this.createPod(rs));
      // Creations that failed or never ran will never be observed.
      for (let i = successes; i < count; i++) this.expectations.creationObserved(key);
      if (error) throw error;
    } else if (diff > 0) {
      const victims = [...pods].sort(deletionOrder).slice(0, Math.min(diff, BURST_REPLICAS));
      this.expectations.expectDeletions(key, victims.map(keyOf));
      const results = await Promise.allSettled(victims.map((pod) => this.deletePod(rs, pod)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  private async createPod(rs: ReplicaSet): Promise<void> {
    const template = rs.spec.template ?? {};
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${rs.metadata?.name}-`,
        namespace: rs.metadata?.namespace,
        labels: { ...template.metadata?.labels },
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
        ownerReferences: [controllerRef(rs, this.kind.gvk)],
      },
      spec: structuredClone(template.spec ?? {}),
    };
    try {
      const pods = this.podClient(rs.metadata?.namespace ?? '');
      const created = await this.slots.run(() => pods.create(pod, { signal: this.ctx.signal }));
      this.recorder.event(
        typed(rs, this.kind.gvk),
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${created.metadata?.name}`,
      );
    } catch (err) {
      if (!this.ctx.signal.aborted)
        this.recorder.event(
          typed(rs, this.kind.gvk),
          'Warning',
          'FailedCreate',
          `Error creating: ${(err as Error).message}`,
        );
      throw err;
    }
  }

  private async deletePod(rs: ReplicaSet, pod: Pod): Promise<void> {
    const name = pod.metadata?.name ?? '';
    try {
      const pods = this.podClient(pod.metadata?.namespace ?? '');
      await this.slots.run(() =>
        pods.delete(name, { preconditions: { uid: pod.metadata?.uid }, signal: this.ctx.signal }),
      );
      this.recorder.event(typed(rs, this.kind.gvk), 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
    } catch (err) {
      // Either way no deletion event will come for it from this request.
      this.expectations.deletionObserved(keyOf(rs), keyOf(pod));
      if (isNotFound(err)) return;
      if (!this.ctx.signal.aborted)
        this.recorder.event(
          typed(rs, this.kind.gvk),
          'Warning',
          'FailedDelete',
          `Error deleting: ${(err as Error).message}`,
        );
      throw err;
    }
  }

  private calculateStatus(rs: ReplicaSet, pods: Pod[], manageError: unknown): ReplicaSetStatus {
    const now = this.ctx.clock.now();
    const templateLabels = rs.spec.template?.metadata?.labels ?? {};
    const minReady = rs.spec.minReadySeconds ?? 0;
    const fullyLabeled = pods.filter((p) =>
      Object.entries(templateLabels).every(([k, v]) => p.metadata?.labels?.[k] === v),
    ).length;
    const status: ReplicaSetStatus = {
      replicas: pods.length,
      fullyLabeledReplicas: fullyLabeled,
      readyReplicas: pods.filter(isPodReady).length,
      availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, now)).length,
      observedGeneration: rs.metadata?.generation,
    };
    let conditions: Condition[] = [...(rs.status?.conditions ?? [])];
    const failure = findCondition(conditions, 'ReplicaFailure');
    if (manageError && !failure) {
      const reason = pods.length < (rs.spec.replicas ?? 0) ? 'FailedCreate' : 'FailedDelete';
      const message = (manageError as Error).message ?? String(manageError);
      conditions.push({
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: rfc3339(now),
        reason,
        message,
      });
    } else if (!manageError && failure) {
      conditions = conditions.filter((c) => c.type !== 'ReplicaFailure');
    }
    if (conditions.length > 0) status.conditions = conditions;
    // Go's omitempty: every count but replicas disappears at zero.
    for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
      if (status[k] === 0) delete status[k];
    }
    return status;
  }

  /** Writes status unless unchanged; one retry from a fresh read on conflict (as kube). */
  private async updateStatus(
    client: ResourceClient<ReplicaSet>,
    rs: ReplicaSet,
    status: ReplicaSetStatus,
  ): Promise<ReplicaSet> {
    if (semanticEqual(rs.status ?? {}, status)) return rs;
    try {
      return await client.updateStatus({ ...rs, status }, { signal: this.ctx.signal });
    } catch (err) {
      if (!isConflict(err)) throw err;
      const fresh = await client.get(rs.metadata?.name ?? '', { signal: this.ctx.signal });
      if (fresh.metadata?.uid !== rs.metadata?.uid) return fresh;
      // observedGeneration stays the one this sync acted on: a newer spec is not observed yet.
      return client.updateStatus({ ...fresh, status }, { signal: this.ctx.signal });
    }
  }
}
