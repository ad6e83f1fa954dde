/**
 * The garbage collector (kube's pkg/controller/garbagecollector), for the
 * kinds the simulated workloads chain together (Deployment -> ReplicaSet ->
 * Pod). It acts on ownerReferences the way deletion propagation asks:
 *
 * - Background: an object whose owners are all gone is deleted (its own
 *   dependents then follow the same way);
 * - Foreground: an owner marked for deletion with the `foregroundDeletion`
 *   finalizer waits: its dependents are deleted first (those with
 *   dependents of their own in the foreground too), and once none that
 *   blocks owner deletion is left the finalizer is removed;
 * - Orphan: an owner marked with the `orphan` finalizer has its owner
 *   reference removed from every dependent, then the finalizer.
 */
import type { Informer } from '../client/informer/informer.js';
import { retryOnConflict } from '../client/rest.js';
import type { KubeObject, OwnerReference } from '../protocol/events.js';
import { isConflict, isNotFound } from '../protocol/status.js';
import { removeOwnerReference } from './core/claim.js';
import { Controller, type SimContext } from './core/controller.js';
import { type Deployment, isDeleting, keyOf, type Pod, type ReplicaSet, splitKey } from './core/objects.js';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
const ABSENT_CACHE_SIZE = 4096;

/** A kind the collector watches. */
interface Monitor {
  plural: string;
  apiVersion: string;
  kind: string;
  informer: Informer;
}

/** The informers the collector reads (each with an `owners` index). */
export interface GarbageCollectorInformers {
  deployments: Informer<Deployment>;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
}

/** The collector reads every kind through the same lens: metadata only. */
function generic<T extends KubeObject>(informer: Informer<T>): Informer {
  return informer as unknown as Informer;
}

function hasFinalizer(obj: KubeObject, name: string): boolean {
  return (obj.metadata?.finalizers ?? []).includes(name);
}

/** An owner in the foreground-deletion state: its dependents go first. */
function deletingDependents(obj: KubeObject): boolean {
  return isDeleting(obj) && hasFinalizer(obj, FOREGROUND);
}

/** See the module comment. */
export class GarbageCollector extends Controller {
  private readonly monitors: Monitor[];
  /** Owners confirmed gone (by uid), so a thousand orphans cost one lookup (kube's absentOwnerCache). */
  private readonly absent = new Set<string>();
  private readonly removers: Array<() => void> = [];

  constructor(ctx: SimContext, informers: GarbageCollectorInformers) {
    // kube runs 20 attemptToDelete workers; a key is still never worked on twice at once.
    super('garbage-collector', ctx, 8);
    this.monitors = [
      {
        plural: 'deployments',
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        informer: generic(informers.deployments),
      },
      {
        plural: 'replicasets',
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        informer: generic(informers.replicaSets),
      },
      { plural: 'pods', apiVersion: 'v1', kind: 'Pod', informer: generic(informers.pods) },
    ];
    for (const m of this.monitors) {
      this.removers.push(
        m.informer.on({
          add: (obj) => this.observe(m, obj),
          update: (_, obj) => this.observe(m, obj),
          delete: (obj) => this.removed(obj),
        }),
      );
    }
  }

  override async stop(): Promise<void> {
    for (const remove of this.removers.splice(0)) remove();
    await super.stop();
  }

  private key(m: Monitor, obj: KubeObject): string {
    return `${m.plural}|${keyOf(obj)}`;
  }

  private monitorFor(ref: Pick<OwnerReference, 'apiVersion' | 'kind'>): Monitor | undefined {
    return this.monitors.find((m) => m.kind === ref.kind && m.apiVersion === ref.apiVersion);
  }

  private cachedOwner(namespace: string, ref: OwnerReference): KubeObject | undefined {
    const owner = this.monitorFor(ref)?.informer.get(namespace ? `${namespace}/${ref.name}` : ref.name);
    return owner?.metadata?.uid === ref.uid ? owner : undefined;
  }

  /** Queues what may need collecting: objects being deleted with a policy, and objects with a missing or departing owner. */
  private observe(m: Monitor, obj: KubeObject): void {
    if (isDeleting(obj) && (hasFinalizer(obj, FOREGROUND) || hasFinalizer(obj, ORPHAN))) {
      this.enqueue(this.key(m, obj));
      return;
    }
    const ns = obj.metadata?.namespace ?? '';
    const refs = obj.metadata?.ownerReferences ?? [];
    if (refs.some((ref) => this.monitorFor(ref) && !this.isSolidInCache(ns, ref)))
      this.enqueue(this.key(m, obj));
  }

  private isSolidInCache(namespace: string, ref: OwnerReference): boolean {
    const owner = this.cachedOwner(namespace, ref);
    return Boolean(owner) && !deletingDependents(owner!);
  }

  /** An object went: its dependents may be orphans now, and an owner may be waiting for it. */
  private removed(obj: KubeObject): void {
    const uid = obj.metadata?.uid ?? '';
    this.rememberAbsent(uid);
    for (const { m, dep } of this.dependentsOf(uid)) this.enqueue(this.key(m, dep));
    const ns = obj.metadata?.namespace ?? '';
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      const owner = this.cachedOwner(ns, ref);
      const m = this.monitorFor(ref);
      if (owner && m && deletingDependents(owner)) this.enqueue(this.key(m, owner));
    }
  }

  private rememberAbsent(uid: string): void {
    this.absent.add(uid);
    if (this.absent.size > ABSENT_CACHE_SIZE) this.absent.delete(this.absent.values().next().value as string);
  }

  private dependentsOf(uid: string): Array<{ m: Monitor; dep: KubeObject }> {
    return this.monitors.flatMap((m) => m.informer.byIndex('owners', uid).map((dep) => ({ m, dep })));
  }

  protected async sync(key: string): Promise<void> {
    const bar = key.indexOf('|');
    const m = this.monitors.find((x) => x.plural === key.slice(0, bar));
    const obj = m?.informer.get(key.slice(bar + 1));
    if (!m || !obj) return;
    if (isDeleting(obj) && hasFinalizer(obj, ORPHAN)) return this.orphanDependents(m, obj);
    if (deletingDependents(obj)) return this.processDeletingDependents(m, obj);
    return this.attemptToDelete(m, obj);
  }

  /** Whether the owner `ref` points at exists: cache, then the absent cache, then a live read. */
  private async lookupOwner(namespace: string, ref: OwnerReference): Promise<KubeObject | undefined> {
    const cached = this.cachedOwner(namespace, ref);
    if (cached) return cached;
    if (this.absent.has(ref.uid)) return undefined;
    const m = this.monitorFor(ref)!;
    const live = await this.ctx.kube
      .resource(m.plural, namespace)
      .find(ref.name, { signal: this.ctx.signal });
    if (live?.metadata?.uid === ref.uid) return live;
    this.rememberAbsent(ref.uid);
    return undefined;
  }

  /** `attemptToDeleteItem` for an object that is not itself being deleted. */
  private async attemptToDelete(m: Monitor, obj: KubeObject): Promise<void> {
    if (isDeleting(obj)) return;
    const ns = obj.metadata?.namespace ?? '';
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      // Owners of kinds not watched here are left alone (kube would look them up through discovery).
      if (!this.monitorFor(ref)) {
        solid.push(ref);
        continue;
      }
      const owner = await this.lookupOwner(ns, ref);
      if (!owner) dangling.push(ref);
      else if (deletingDependents(owner)) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length + dangling.length + waiting.length === 0) return;
    const client = this.ctx.kube.resource(m.plural, ns);
    if (solid.length > 0) {
      // A live owner keeps the object; the references to gone or departing owners go.
      let current: KubeObject | undefined = obj;
      for (const ref of [...dangling, ...waiting]) {
        if (current) current = await removeOwnerReference(client, current, ref.uid, this.ctx.signal);
      }
      return;
    }
    const hasDependents = this.dependentsOf(obj.metadata?.uid ?? '').length > 0;
    const policy =
      waiting.length > 0 && hasDependents
        ? 'Foreground'
        : hasFinalizer(obj, ORPHAN)
          ? 'Orphan'
          : hasFinalizer(obj, FOREGROUND)
            ? 'Foreground'
            : 'Background';
    try {
      await client.delete(obj.metadata?.name ?? '', {
        propagationPolicy: policy,
        preconditions: { uid: obj.metadata?.uid },
        signal: this.ctx.signal,
      });
    } catch (err) {
      // Gone already, or replaced by a new object of the same name: either way not ours to delete.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** Foreground: delete blocking dependents; when none is left, let the owner go. */
  private async processDeletingDependents(m: Monitor, owner: KubeObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    const blocking = this.dependentsOf(uid).filter(({ dep }) =>
      (dep.metadata?.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true),
    );
    if (blocking.length === 0) return this.removeFinalizer(m, owner, FOREGROUND);
    for (const { m: dm, dep } of blocking) {
      if (!deletingDependents(dep)) this.enqueue(this.key(dm, dep));
    }
  }

  /** Orphan: drop the owner reference from every dependent, then the finalizer. */
  private async orphanDependents(m: Monitor, owner: KubeObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    for (const { m: dm, dep } of this.dependentsOf(uid)) {
      const client = this.ctx.kube.resource(dm.plural, dep.metadata?.namespace);
      await removeOwnerReference(client, dep, uid, this.ctx.signal);
    }
    await this.removeFinalizer(m, owner, ORPHAN);
  }

  /** Removes one finalizer by read-modify-write; the server deletes the object with its last finalizer. */
  private async removeFinalizer(m: Monitor, owner: KubeObject, finalizer: string): Promise<void> {
    const { namespace, name } = splitKey(keyOf(owner));
    const client = this.ctx.kube.resource(m.plural, namespace || undefined);
    await retryOnConflict(async () => {
      const fresh = await client.find(name, { signal: this.ctx.signal });
      if (!fresh || fresh.metadata?.uid !== owner.metadata?.uid || !hasFinalizer(fresh, finalizer)) return;
      fresh.metadata!.finalizers = (fresh.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
      await client.update(fresh, { signal: this.ctx.signal });
    });
  }
}
