/**
 * The graph builder: every watch event of every monitored resource updates
 * the dependency graph and queues what may need collecting, one event at a
 * time, as kube-controller-manager's pkg/controller/garbagecollector/
 * graph_builder.go, `processGraphChanges`. Here events are applied as the
 * informers deliver them (one JavaScript thread: no graphChanges queue is
 * needed to serialize them); a "virtual" delete (a lookup found an object
 * gone) goes through the same function.
 */

import type { KubeObject, OwnerReference } from '../protocol/events.js';
import type { WorkQueue } from '../protocol/workqueue.js';
import {
  AbsentOwnerCache,
  alternateOwnerIdentity,
  coordinatesOf,
  GraphNode,
  matchesCoordinates,
  type ObjectIdentity,
  partitionDependents,
  sameIdentity,
} from './graph.js';

export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const ORPHAN_FINALIZER = 'orphan';

/** One change to apply: an informer's event, or a virtual delete. */
export interface GraphEvent {
  type: 'add' | 'update' | 'delete';
  obj: KubeObject;
  old?: KubeObject;
  /** The monitored resource's apiVersion and kind (a virtual delete's come from the identity). */
  apiVersion: string;
  kind: string;
  virtual?: boolean;
}

/** What the builder hands work to. */
export interface GraphBuilderOptions {
  attemptToDelete: WorkQueue;
  attemptToOrphan: WorkQueue;
  /** `reportInvalidNamespaceOwnerRef`: a dependent names an owner of another namespace. */
  onInvalidNamespaceOwnerRef?: (dependent: GraphNode, ref: OwnerReference) => void;
}

export function hasFinalizer(obj: KubeObject | undefined, finalizer: string): boolean {
  return (obj?.metadata?.finalizers ?? []).includes(finalizer);
}

function beingDeleted(obj: KubeObject | undefined): boolean {
  return Boolean(obj?.metadata?.deletionTimestamp);
}

/** `deletionStartsWithFinalizer`: the object is now deleting with `finalizer` and was not before. */
function deletionStartsWithFinalizer(
  old: KubeObject | undefined,
  obj: KubeObject,
  finalizer: string,
): boolean {
  if (!beingDeleted(obj) || !hasFinalizer(obj, finalizer)) return false;
  return !old || !beingDeleted(old) || !hasFinalizer(old, finalizer);
}

function identityFromEvent(e: GraphEvent): ObjectIdentity {
  const m = e.obj.metadata ?? {};
  return {
    apiVersion: e.apiVersion,
    kind: e.kind,
    uid: m.uid ?? '',
    name: m.name ?? '',
    namespace: m.namespace ?? '',
  };
}

/** The dependency graph and its upkeep (see the module comment). */
export class GraphBuilder {
  /** graph_builder.go's `uidToNode`. */
  readonly nodes = new Map<string, GraphNode>();
  readonly absentOwners = new AbsentOwnerCache();
  private readonly opts: GraphBuilderOptions;

  constructor(opts: GraphBuilderOptions) {
    this.opts = opts;
  }

  /** `enqueueVirtualDeleteEvent`: a lookup found `id` absent. */
  virtualDelete(id: ObjectIdentity): void {
    this.process({
      type: 'delete',
      virtual: true,
      apiVersion: id.apiVersion,
      kind: id.kind,
      obj: { metadata: { name: id.name, namespace: id.namespace || undefined, uid: id.uid } },
    });
  }

  /** `processGraphChanges` for one event. */
  process(e: GraphEvent): void {
    const m = e.obj.metadata ?? {};
    const uid = m.uid ?? '';
    let existing = this.nodes.get(uid);
    if (existing && !e.virtual && existing.virtual) this.observe(existing, identityFromEvent(e));
    existing = this.nodes.get(uid);
    if (e.type !== 'delete') {
      if (!existing) {
        const n = new GraphNode(identityFromEvent(e), m.ownerReferences ?? [], false);
        n.beingDeleted = beingDeleted(e.obj);
        n.deletingDependents = n.beingDeleted && hasFinalizer(e.obj, FOREGROUND_FINALIZER);
        this.nodes.set(uid, n);
        this.addDependentToOwners(n, n.owners);
        // A list may fold a creation and a deletion into one event.
        this.processTransitions(e.old, e.obj, n);
        return;
      }
      this.update(existing, e);
      return;
    }
    if (existing) this.delete(existing, e);
  }

  /** A virtual node seen through an informer: it takes the observed identity. */
  private observe(node: GraphNode, observed: ObjectIdentity): void {
    if (!sameIdentity(observed, node.identity)) {
      // Dependents that named it otherwise are checked again (the bad child -> good parent order).
      const { nonmatching } = partitionDependents(node.dependents, observed);
      for (const dep of nonmatching) {
        if (observed.namespace && dep.identity.namespace !== observed.namespace)
          this.reportInvalid(dep, observed.uid);
        this.opts.attemptToDelete.add(dep.identity.uid);
      }
      node.identity = observed;
    }
    node.virtual = false;
  }

  private update(node: GraphNode, e: GraphEvent): void {
    if (!e.virtual && (node.identity.apiVersion !== e.apiVersion || node.identity.kind !== e.kind)) {
      node.identity = { ...node.identity, apiVersion: e.apiVersion, kind: e.kind };
    }
    const { added, removed, changed } = referencesDiffs(node.owners, e.obj.metadata?.ownerReferences ?? []);
    if (added.length + removed.length + changed.length > 0) {
      this.addUnblockedOwnersToDeleteQueue(removed, changed);
      node.owners = e.obj.metadata?.ownerReferences ?? [];
      this.addDependentToOwners(node, added);
      this.removeDependentFromOwners(node, removed);
    }
    if (beingDeleted(e.obj)) node.beingDeleted = true;
    this.processTransitions(e.old, e.obj, node);
  }

  private delete(node: GraphNode, e: GraphEvent): void {
    let remove = true;
    if (e.virtual) {
      const deleted = identityFromEvent(e);
      const { matching, nonmatching } = partitionDependents(node.dependents, deleted);
      if (node.virtual) {
        // Not sure of its coordinates: dependents that name it otherwise keep it in the graph.
        if (nonmatching.length > 0) {
          remove = false;
          this.forgetMatching(deleted, matching);
          if (sameIdentity(node.identity, deleted)) {
            const alt = alternateOwnerIdentity(nonmatching, deleted);
            if (alt) {
              node.identity = alt;
              this.opts.attemptToDelete.addRateLimited(node.identity.uid);
            }
          }
        }
      } else if (!sameIdentity(node.identity, deleted)) {
        // An observed object is never removed on a virtual delete of other coordinates.
        remove = false;
        this.forgetMatching(deleted, matching);
      }
    }
    if (!remove) return;
    this.nodes.delete(node.identity.uid);
    this.removeDependentFromOwners(node, node.owners);
    if (node.dependents.size > 0) this.absentOwners.add(identityFromEvent(e));
    for (const dep of node.dependents) this.opts.attemptToDelete.add(dep.identity.uid);
    for (const ref of node.owners) {
      const owner = this.nodes.get(ref.uid);
      // An owner deleting in the foreground may be waiting for this one.
      if (owner?.deletingDependents) this.opts.attemptToDelete.add(owner.identity.uid);
    }
  }

  private forgetMatching(deleted: ObjectIdentity, matching: GraphNode[]): void {
    if (matching.length === 0) return;
    this.absentOwners.add(deleted);
    for (const dep of matching) this.opts.attemptToDelete.add(dep.identity.uid);
  }

  /**
   * `addDependentToOwners`: an owner not in the graph gets a virtual node,
   * queued so a lookup confirms it exists; a dependent whose reference
   * disagrees with an owner already known is queued to be checked.
   */
  private addDependentToOwners(n: GraphNode, owners: OwnerReference[]): void {
    let suspicious = false;
    for (const ref of owners) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        owner = new GraphNode({ ...coordinatesOf(ref), namespace: n.identity.namespace }, [], true);
        this.nodes.set(ref.uid, owner);
        owner.dependents.add(n);
        this.opts.attemptToDelete.add(ref.uid);
        continue;
      }
      owner.dependents.add(n);
      if (suspicious) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) {
        // Cluster-scoped owners may be named from anywhere; a namespaced one only from its namespace.
        if (!owner.virtual) this.reportInvalid(n, ref.uid);
        suspicious = true;
      } else if (!matchesCoordinates(ref, owner.identity)) {
        suspicious = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && owner.virtual) {
        // Maybe a missing namespaced owner named by a cluster-scoped dependent (kubernetes#98040).
        suspicious = true;
      }
    }
    if (suspicious) this.opts.attemptToDelete.add(n.identity.uid);
  }

  private removeDependentFromOwners(n: GraphNode, owners: OwnerReference[]): void {
    for (const ref of owners) this.nodes.get(ref.uid)?.dependents.delete(n);
  }

  /** `addUnblockedOwnersToDeleteQueue`: a blocking reference removed or unblocked may release its owner. */
  private addUnblockedOwnersToDeleteQueue(
    removed: OwnerReference[],
    changed: Array<[OwnerReference, OwnerReference]>,
  ): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion === true && this.nodes.has(ref.uid)) this.opts.attemptToDelete.add(ref.uid);
    }
    for (const [was, now] of changed) {
      if (was.blockOwnerDeletion === true && now.blockOwnerDeletion !== true && this.nodes.has(now.uid)) {
        this.opts.attemptToDelete.add(now.uid);
      }
    }
  }

  /** `processTransitions`: an orphaning or foreground deletion begins. */
  private processTransitions(old: KubeObject | undefined, obj: KubeObject, n: GraphNode): void {
    if (deletionStartsWithFinalizer(old, obj, ORPHAN_FINALIZER)) {
      this.opts.attemptToOrphan.add(n.identity.uid);
      return;
    }
    if (deletionStartsWithFinalizer(old, obj, FOREGROUND_FINALIZER)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.opts.attemptToDelete.add(dep.identity.uid);
      this.opts.attemptToDelete.add(n.identity.uid);
    }
  }

  private reportInvalid(dep: GraphNode, ownerUid: string): void {
    const ref = dep.owners.find((r) => r.uid === ownerUid);
    if (ref) this.opts.onInvalidNamespaceOwnerRef?.(dep, ref);
  }
}

/** `referencesDiffs`, by uid. */
function referencesDiffs(
  old: OwnerReference[],
  now: OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: Array<[OwnerReference, OwnerReference]> } {
  const before = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: Array<[OwnerReference, OwnerReference]> = [];
  for (const ref of now) {
    const was = before.get(ref.uid);
    if (!was) added.push(ref);
    else {
      if (!sameReference(was, ref)) changed.push([was, ref]);
      before.delete(ref.uid);
    }
  }
  return { added, removed: [...before.values()], changed };
}

function sameReference(a: OwnerReference, b: OwnerReference): boolean {
  return (
    matchesCoordinates(a, b) &&
    (a.controller ?? null) === (b.controller ?? null) &&
    (a.blockOwnerDeletion ?? null) === (b.blockOwnerDeletion ?? null)
  );
}
