/**
 * The namespace controller, as kube-controller-manager runs it
 * (pkg/controller/namespace/namespace_controller.go): it follows the namespaces from the watch
 * cache, as the upstream one follows its informer, queues the name of each namespace marked
 * for deletion, and a worker runs the deleter's pass (namespace-deleter.ts) on it, requeueing
 * while content remains. Every server over one etcd runs one: a namespace deleted through one
 * server and released through another finishes all the same, and one left Terminating by a
 * stopped server is finished by the next, which queues every cached namespace when it starts.
 * No request ever runs a pass.
 */
import type { Clock } from '../../protocol/clock.js';
import type { Cacher } from '../cache/cacher.js';
import type { CacheEvent } from '../cache/event.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { NamespaceDeleter } from './namespace-deleter.js';
import { ensureNamespaces } from './system-namespaces.js';
import { WorkLoop } from './work-loop.js';

/** What the controller works with. */
export interface NamespaceControllerDeps {
  objects: ObjectStorage;
  cacher: Cacher;
  /** The kinds served now: the content the deleter deletes. */
  kinds: KindTable;
  clock: Clock;
  log: (message: string) => void;
  /** The namespaces the server keeps in existence (none: `systemNamespaces: false`). */
  systemNamespaces: readonly string[];
}

/**
 * namespaced_resources_deleter.go `finalizerEstimateSeconds`: content held by finalizers is
 * expected to take 15 s, and the controller looks again after half of it plus one
 * (namespace_controller.go `syncNamespaceFromKey` on a `ResourcesRemainingError`). Changes to
 * the content bring the namespace back sooner (see {@link NamespaceController.onChange}).
 */
const CONTENT_REMAINING_REQUEUE_MS = (Math.floor(15 / 2) + 1) * 1000;

/** Follows namespaces and finishes those marked for deletion. */
export class NamespaceController {
  private readonly deps: NamespaceControllerDeps;
  private readonly namespaces: ResourceKind = findByKind('v1', 'Namespace')!;
  private readonly deleter: NamespaceDeleter;
  private readonly loop: WorkLoop;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(deps: NamespaceControllerDeps) {
    this.deps = deps;
    this.deleter = new NamespaceDeleter(deps.objects, deps.clock);
    this.loop = new WorkLoop({
      name: 'namespace',
      clock: deps.clock,
      sync: (name) => this.sync(name),
      log: deps.log,
      // namespace_controller.go `nsControllerRateLimiter`: 5 ms doubling, retried at least
      // every minute, "so that namespace cleanup is reclaimed quickly".
      baseDelayMs: 5,
      maxDelayMs: 60_000,
    });
  }

  /**
   * Creates the system namespaces that are missing, then follows the cache and queues every
   * namespace it holds (the informer's initial list: `NewNamespaceController` hands each to
   * `enqueueNamespace`); those not marked for deletion cost a cache lookup.
   */
  async start(): Promise<void> {
    await this.ensureSystemNamespaces();
    this.unsubscribe.push(this.deps.cacher.listen((kind, event) => this.onChange(kind, event)));
    // A refill replaced the caches without telling the listeners what changed between.
    this.unsubscribe.push(this.deps.cacher.onFill(() => this.enqueueAll()));
    this.enqueueAll();
    this.loop.start();
  }

  /** Creates the system namespaces that are missing (a restore over a store that lacks them). */
  ensureSystemNamespaces(): Promise<void> {
    return ensureNamespaces(this.deps.objects, this.deps.systemNamespaces);
  }

  /** Resolves when no namespace is queued or being worked on (delayed requeues aside). */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** Stops following; a pass under way finishes. */
  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.loop.stop();
  }

  /**
   * namespace_controller.go's informer handlers queue a namespace on every add and update
   * (`enqueueNamespace` keeps only those with a deletionTimestamp). Two more triggers stand
   * where upstream waits out its requeue delay: a change to an object inside a terminating
   * namespace (a finalizer released, an object gone) queues the namespace, so it goes as soon
   * as its content does; and a system namespace that went is queued to be created again.
   */
  private onChange(kind: ResourceKind, event: CacheEvent): void {
    const meta = event.object.metadata ?? {};
    if (kind.group === '' && kind.plural === 'namespaces') {
      const name = meta.name ?? '';
      if (meta.deletionTimestamp !== undefined && event.type !== 'DELETED') this.loop.add(name);
      else if (event.type === 'DELETED' && this.deps.systemNamespaces.includes(name)) this.loop.add(name);
      return;
    }
    const namespace = meta.namespace;
    if (!kind.namespaced || namespace === undefined) return;
    if (this.deps.cacher.cached(this.namespaces, undefined, namespace)?.metadata?.deletionTimestamp)
      this.loop.add(namespace);
  }

  private enqueueAll(): void {
    for (const { object } of this.deps.cacher.cacheFor(this.namespaces).objects.values()) {
      const name = object.metadata?.name;
      if (name !== undefined && object.metadata?.deletionTimestamp !== undefined) this.loop.add(name);
    }
    // A system namespace missing from the cache after a refill is created again.
    for (const name of this.deps.systemNamespaces) {
      if (!this.deps.cacher.cached(this.namespaces, undefined, name)) this.loop.add(name);
    }
  }

  /**
   * `syncNamespaceFromKey`: a namespace gone from the cache needs nothing (unless it is one the
   * server keeps); one marked for deletion gets the deleter's pass, and comes back after the
   * estimate while content remains. A failed pass is retried with the queue's backoff.
   */
  private async sync(name: string): Promise<{ requeueAfterMs: number } | undefined> {
    const cached = this.deps.cacher.cached(this.namespaces, undefined, name);
    if (!cached) {
      if (this.deps.systemNamespaces.includes(name)) await ensureNamespaces(this.deps.objects, [name]);
      return undefined;
    }
    if (cached.metadata?.deletionTimestamp === undefined) return undefined;
    const outcome = await this.deleter.pass(name, this.deletableKinds());
    if (outcome === 'contentRemaining') return { requeueAfterMs: CONTENT_REMAINING_REQUEUE_MS };
    return undefined;
  }

  /**
   * One kind per resource, as the deleter discovers them (preferred versions): a custom
   * resource's storage version, not each of its served versions.
   */
  private deletableKinds(): ResourceKind[] {
    const custom = new Map<string, ResourceKind>();
    const out: ResourceKind[] = [];
    for (const k of this.deps.kinds.all()) {
      if (!k.custom) out.push(k);
      else if (!k.custom.conversionError) {
        const seen = custom.get(k.custom.crdName);
        if (!seen || k.version === k.custom.storageVersion) custom.set(k.custom.crdName, k);
      }
    }
    return [...out, ...custom.values()];
  }
}
