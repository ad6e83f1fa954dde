/**
 * The garbage collector's workers, as kube-controller-manager's
 * pkg/controller/garbagecollector/garbagecollector.go: `attemptToDelete`
 * workers decide for one object at a time whether its owners are gone
 * (Background), waiting for their dependents (Foreground), or alive, and
 * act; `attemptToOrphan` workers strip an orphaning owner's reference from
 * its dependents, then its `orphan` finalizer.
 */

import type { Clock } from '../protocol/clock.js';
import type { KubeObject, OwnerReference } from '../protocol/events.js';
import { isConflict, isNotFound } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';
import { coordinatesOf, type GraphNode, type ObjectIdentity } from './graph.js';
import { FOREGROUND_FINALIZER, GraphBuilder, hasFinalizer, ORPHAN_FINALIZER } from './graph-builder.js';
import {
  deleteOwnerRefsMerge,
  deleteOwnerRefsStrategic,
  type Operations,
  type Propagation,
  unblockOwnerRefsMerge,
  unblockOwnerRefsStrategic,
} from './operations.js';

/** A virtual delete was queued instead (`enqueuedVirtualDeleteEventErr`): no retry. */
const VIRTUAL_DELETE_QUEUED = Symbol('enqueued virtual delete event');
/** `namespacedOwnerOfClusterScopedObjectErr`: will not resolve on retry. */
class NamespacedOwnerOfClusterScopedObject extends Error {}

/** Options of {@link GarbageCollector}. */
export interface GarbageCollectorOptions {
  ops: Operations;
  clock: Clock;
  /** attemptToDelete and attemptToOrphan workers each (kube-controller-manager's `--concurrent-gc-syncs`, 20). */
  workers?: number;
  log: (line: string) => void;
}

/** The collector's queues, graph and workers. */
export class GarbageCollector {
  readonly attemptToDelete: WorkQueue;
  readonly attemptToOrphan: WorkQueue;
  readonly graph: GraphBuilder;
  /** Work items that failed and were retried. */
  failures = 0;
  /** Work items done with (forgotten by their queue). */
  syncs = 0;
  private readonly ops: Operations;
  private readonly log: (line: string) => void;
  private readonly workers: Promise<void>[] = [];
  private readonly workerCount: number;
  /** Events being recorded: stop() waits for them. */
  private readonly recording = new Set<Promise<void>>();
  private stopped = false;

  constructor(opts: GarbageCollectorOptions) {
    this.ops = opts.ops;
    this.log = opts.log;
    this.attemptToDelete = new WorkQueue(opts.clock);
    this.attemptToOrphan = new WorkQueue(opts.clock);
    this.graph = new GraphBuilder({
      attemptToDelete: this.attemptToDelete,
      attemptToOrphan: this.attemptToOrphan,
      onInvalidNamespaceOwnerRef: (dep, ref) => this.reportInvalidNamespaceOwnerRef(dep, ref),
    });
    this.workerCount = opts.workers ?? 20;
  }

  /**
   * Starts the workers (once). `Run` starts them only after the monitors have
   * listed, or its initial sync timeout has passed: before that the graph may
   * lack dependents, and an orphaning owner would let go of its finalizer
   * with dependents still referring to it.
   */
  startWorkers(): void {
    if (this.workers.length > 0 || this.stopped) return;
    for (let i = 0; i < this.workerCount; i++) {
      this.workers.push(this.loop(this.attemptToDelete, (uid) => this.attemptToDeleteWorker(uid)));
      this.workers.push(this.loop(this.attemptToOrphan, (uid) => this.attemptToOrphanWorker(uid)));
    }
  }

  /** Stops the workers; resolves when the items under way are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
    await Promise.all(this.workers);
    await Promise.all(this.recording);
  }

  private async loop(queue: WorkQueue, work: (uid: string) => Promise<'forget' | 'requeue'>): Promise<void> {
    for (;;) {
      const uid = await queue.get();
      if (uid === undefined) return;
      let action: 'forget' | 'requeue';
      try {
        action = await work(uid);
      } catch (err) {
        action = 'requeue';
        if (this.stopped) return;
        if (!isConflict(err)) this.log(`garbage collector: ${uid}: ${(err as Error).message}`);
      }
      if (action === 'forget') {
        this.syncs++;
        queue.forget(uid);
      } else {
        this.failures++;
        queue.addRateLimited(uid);
      }
      queue.done(uid);
    }
  }

  /** `attemptToDeleteWorker`. */
  private async attemptToDeleteWorker(uid: string): Promise<'forget' | 'requeue'> {
    const node = this.graph.nodes.get(uid);
    if (!node) return 'forget';
    const wasVirtual = node.virtual;
    try {
      if ((await this.attemptToDeleteItem(node)) === VIRTUAL_DELETE_QUEUED) return 'forget';
    } catch (err) {
      if (err instanceof NamespacedOwnerOfClusterScopedObject) return 'forget';
      throw err;
    }
    // Not observed through an informer yet: look again (kubernetes#56121).
    return wasVirtual && node.virtual ? 'requeue' : 'forget';
  }

  /**
   * `isDangling`: whether the owner `ref` names is absent (absent-owner
   * cache, then a live read: 404 or another uid), else the owner read.
   */
  private async isDangling(ref: OwnerReference, item: GraphNode): Promise<KubeObject | undefined> {
    const key: ObjectIdentity = { ...coordinatesOf(ref), namespace: '' };
    if (this.graph.absentOwners.has(key)) return undefined;
    key.namespace = item.identity.namespace;
    if (this.graph.absentOwners.has(key)) return undefined;
    const type = await this.ops.apiResource(ref.apiVersion, ref.kind);
    if (!type.namespaced) key.namespace = '';
    if (item.identity.namespace === '' && type.namespaced) {
      this.log(
        `garbage collector: cluster-scoped ${item.identity.kind} ${item.identity.name} refers to a namespaced owner ${ref.kind} ${ref.name}`,
      );
      throw new NamespacedOwnerOfClusterScopedObject();
    }
    let owner: KubeObject;
    try {
      owner = await this.ops.getObject({ ...key, namespace: item.identity.namespace });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.graph.absentOwners.add(key);
      return undefined;
    }
    if (owner.metadata?.uid !== ref.uid) {
      this.graph.absentOwners.add(key);
      return undefined;
    }
    return owner;
  }

  /** `attemptToDeleteItem` (see the module comment). */
  private async attemptToDeleteItem(item: GraphNode): Promise<typeof VIRTUAL_DELETE_QUEUED | undefined> {
    // Being deleted is a one-way trip: wait for the deletion, then its dependents are looked at.
    if (item.beingDeleted && !item.deletingDependents) return undefined;
    let latest: KubeObject;
    try {
      latest = await this.ops.getObject(item.identity);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.graph.virtualDelete(item.identity);
      return VIRTUAL_DELETE_QUEUED;
    }
    if (latest.metadata?.uid !== item.identity.uid) {
      this.graph.virtualDelete(item.identity);
      return VIRTUAL_DELETE_QUEUED;
    }
    if (item.deletingDependents) {
      await this.processDeletingDependentsItem(item);
      return undefined;
    }
    const refs = latest.metadata?.ownerReferences ?? [];
    if (refs.length === 0) return undefined;
    // `classifyReferences`.
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const owner = await this.isDangling(ref, item);
      if (!owner) dangling.push(ref);
      else if (owner.metadata?.deletionTimestamp && hasFinalizer(owner, FOREGROUND_FINALIZER))
        waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length + waiting.length === 0) return undefined;
      // References to owners gone or waiting go, or those owners would wait for this one forever.
      const uids = [...dangling, ...waiting].map((r) => r.uid);
      await this.ops.patch(item.identity, deleteOwnerRefsStrategic(item.identity.uid, uids), (live) =>
        deleteOwnerRefsMerge(live, uids),
      );
      return undefined;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      for (const dep of item.dependents) {
        if (!dep.deletingDependents) continue;
        // An owner and a dependent both deleting in the foreground: maybe a cycle, so unblock.
        await this.ops.patch(
          item.identity,
          unblockOwnerRefsStrategic(item.identity.uid, item.owners),
          unblockOwnerRefsMerge,
        );
        break;
      }
      return this.deleteItem(item, latest, 'Foreground');
    }
    const policy: Propagation = hasFinalizer(latest, ORPHAN_FINALIZER)
      ? 'Orphan'
      : hasFinalizer(latest, FOREGROUND_FINALIZER)
        ? 'Foreground'
        : 'Background';
    return this.deleteItem(item, latest, policy);
  }

  private async deleteItem(
    item: GraphNode,
    latest: KubeObject,
    policy: Propagation,
  ): Promise<typeof VIRTUAL_DELETE_QUEUED | undefined> {
    try {
      await this.ops.deleteObject(
        item.identity,
        latest.metadata?.resourceVersion ?? '',
        latest.metadata?.ownerReferences ?? [],
        policy,
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.graph.virtualDelete(item.identity);
      return VIRTUAL_DELETE_QUEUED;
    }
    return undefined;
  }

  /** `processDeletingDependentsItem`: no blocking dependent left, the finalizer goes; else they are worked on. */
  private async processDeletingDependentsItem(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      await this.ops.removeFinalizer(item.identity, FOREGROUND_FINALIZER);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep.identity.uid);
  }

  /** `attemptToOrphanWorker`: every dependent loses its reference, then the owner its `orphan` finalizer. */
  private async attemptToOrphanWorker(uid: string): Promise<'forget' | 'requeue'> {
    const owner = this.graph.nodes.get(uid);
    if (!owner) return 'forget';
    const failures = await Promise.allSettled(
      [...owner.dependents].map(async (dep) => {
        try {
          await this.ops.patch(dep.identity, deleteOwnerRefsStrategic(dep.identity.uid, [uid]), (live) =>
            deleteOwnerRefsMerge(live, [uid]),
          );
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }),
    );
    const failed = failures.filter((f) => f.status === 'rejected');
    if (failed.length > 0) {
      const reasons = failed.map((f) => ((f as PromiseRejectedResult).reason as Error).message);
      throw new Error(`failed to orphan dependents of owner ${owner.identity.name}: ${reasons.join('; ')}`);
    }
    await this.ops.removeFinalizer(owner.identity, ORPHAN_FINALIZER);
    return 'forget';
  }

  /** `reportInvalidNamespaceOwnerRef`: a Warning event on the dependent. */
  private reportInvalidNamespaceOwnerRef(dep: GraphNode, ref: OwnerReference): void {
    const ns = dep.identity.namespace;
    // objectReference.String(): `[apiVersion/kind, namespace: ns, name: n, uid: u]`.
    const owner = `[${ref.apiVersion}/${ref.kind}, namespace: ${ns}, name: ${ref.name}, uid: ${ref.uid}]`;
    const p = this.ops
      .warn(dep.identity, 'OwnerRefInvalidNamespace', `ownerRef ${owner} does not exist in namespace "${ns}"`)
      .catch((err: Error) => {
        if (!this.stopped) this.log(`garbage collector: recording an event failed: ${err.message}`);
      })
      .finally(() => this.recording.delete(p));
    this.recording.add(p);
  }
}
