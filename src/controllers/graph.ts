/**
 * The garbage collector's dependency graph, as kube-controller-manager keeps
 * it (pkg/controller/garbagecollector/graph.go): one node per uid, each
 * with the identity it was seen under, its ownerReferences and the nodes
 * that name it as their owner. A node made for an owner only referred to,
 * never observed, is "virtual" until an informer shows it, or a lookup
 * finds it gone.
 */
import type { OwnerReference } from '../protocol/events.js';

/** An object's coordinates: graph.go's `objectReference` (owner coordinates plus a namespace). */
export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** Empty for a cluster-scoped object (and, for a virtual node, the namespace of the dependent that named it). */
  namespace: string;
}

/** graph.go's `node`. */
export class GraphNode {
  identity: ObjectIdentity;
  /** The object's ownerReferences as last observed. */
  owners: OwnerReference[];
  readonly dependents = new Set<GraphNode>();
  /** Made for an owner only referred to: not observed through an informer yet. */
  virtual: boolean;
  /** deletionTimestamp set. */
  beingDeleted = false;
  /** deletionTimestamp set with the foregroundDeletion finalizer: its dependents go first. */
  deletingDependents = false;

  constructor(identity: ObjectIdentity, owners: OwnerReference[], virtual: boolean) {
    this.identity = identity;
    this.owners = owners;
    this.virtual = virtual;
  }

  /**
   * The dependents whose reference to this node blocks its deletion
   * (graph.go, `blockingDependents`: blockOwnerDeletion true).
   */
  blockingDependents(): GraphNode[] {
    const uid = this.identity.uid;
    return [...this.dependents].filter((dep) =>
      dep.owners.some((ref) => ref.uid === uid && ref.blockOwnerDeletion === true),
    );
  }
}

/** `ownerReferenceCoordinates`: a reference less its controller and blockOwnerDeletion flags. */
export function coordinatesOf(ref: OwnerReference): Omit<ObjectIdentity, 'namespace'> {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid };
}

/** `ownerReferenceMatchesCoordinates`. */
export function matchesCoordinates(
  a: Omit<ObjectIdentity, 'namespace'>,
  b: Omit<ObjectIdentity, 'namespace'>,
): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion;
}

/** A string naming one identity, for maps and sets. */
export function identityKey(id: ObjectIdentity): string {
  return JSON.stringify([id.apiVersion, id.kind, id.namespace, id.name, id.uid]);
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return identityKey(a) === identityKey(b);
}

/**
 * Owners confirmed absent, least recently used dropped first
 * (uid_cache.go, `ReferenceCache`; kube-controller-manager sizes it 500).
 */
export class AbsentOwnerCache {
  private readonly entries = new Set<string>();
  private readonly size: number;

  constructor(size = 500) {
    this.size = size;
  }

  add(id: ObjectIdentity): void {
    const key = identityKey(id);
    this.entries.delete(key);
    this.entries.add(key);
    if (this.entries.size > this.size) this.entries.delete(this.entries.values().next().value as string);
  }

  has(id: ObjectIdentity): boolean {
    const key = identityKey(id);
    if (!this.entries.has(key)) return false;
    this.entries.delete(key);
    this.entries.add(key);
    return true;
  }
}

/**
 * graph_builder.go, `partitionDependents`: the dependents whose reference
 * to `owner.uid` matches all its coordinates (and, for a namespaced owner,
 * whose namespace is the owner's), and those with one that does not.
 */
export function partitionDependents(
  dependents: Iterable<GraphNode>,
  owner: ObjectIdentity,
): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (owner.namespace && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (matchesCoordinates(ref, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

function lessThan(a: ObjectIdentity, b: ObjectIdentity): boolean {
  // graph_builder.go, `referenceLessThan`: kind, apiVersion, namespace, name, uid.
  for (const f of ['kind', 'apiVersion', 'namespace', 'name', 'uid'] as const) {
    if (a[f] !== b[f]) return a[f] < b[f];
  }
  return false;
}

/**
 * graph_builder.go, `getAlternateOwnerIdentity`: another identity the
 * dependents give the uid of an owner verified absent under `absent`; the
 * first after it in `referenceLessThan` order, else the first.
 */
export function alternateOwnerIdentity(
  deps: GraphNode[],
  absent: ObjectIdentity,
): ObjectIdentity | undefined {
  const clusterScoped = absent.namespace === '';
  const seen = new Set<string>([identityKey(absent)]);
  let first: ObjectIdentity | undefined;
  let firstFollowing: ObjectIdentity | undefined;
  for (const dep of deps) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (matchesCoordinates(ref, absent) && (clusterScoped || absent.namespace === dep.identity.namespace))
        continue;
      const alt: ObjectIdentity = { ...coordinatesOf(ref), namespace: dep.identity.namespace };
      // This apiVersion and kind is known to be cluster-scoped.
      if (clusterScoped && alt.apiVersion === absent.apiVersion && alt.kind === absent.kind)
        alt.namespace = '';
      const key = identityKey(alt);
      if (seen.has(key)) continue;
      seen.add(key);
      if (!first || lessThan(alt, first)) first = alt;
      if (lessThan(absent, alt) && (!firstFollowing || lessThan(alt, firstFollowing))) firstFollowing = alt;
    }
  }
  return firstFollowing ?? first;
}
