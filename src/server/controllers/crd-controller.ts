/**
 * The controllers apiextensions-apiserver runs beside its handler, as one queue per server:
 * the names controller (pkg/controller/status/naming_controller.go) grants a definition its
 * names and the `NamesAccepted` condition; the establishing controller
 * (pkg/controller/establish/establishing_controller.go) makes it `Established`; the API
 * approval controller (pkg/controller/apiapproval) judges Kubernetes' own groups; the
 * serving side (customresource_handler.go) starts serving its versions once established; and
 * the finalizer (pkg/controller/finalizer/crd_finalizer.go) deletes a deleted definition's
 * objects before letting it go.
 *
 * Everything is driven by the watch cache, never by the request that made the change: a
 * definition created through another server over the same etcd is served here too. The
 * definitions' names go through one work queue with client-go's rules (work-loop.ts), as each
 * of those controllers has its own queue upstream; one queue here keeps a definition's
 * names, serving and establishment in the order the handler needs them.
 */
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import { apiApprovalCondition } from '../crd/definition/conditions.js';
import {
  acceptedNamesForGroup,
  establish,
  namesAndConditions,
  setCondition,
} from '../crd/definition/names.js';
import type { CustomResourceDefinitionCondition } from '../crd/definition/types.js';
import { CLEANUP_FINALIZER, CUSTOM_RESOURCE_DEFINITIONS } from '../crd/serve/crd-kind.js';
import { customKindsOf } from '../crd/serve/custom-kind.js';
import { arr, rec, str } from '../kinds/access.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import type { CustomDefinitionState, ResourceKind } from '../kinds/types.js';
import { jsonEqual } from '../registry/meta.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { WorkLoop } from './work-loop.js';

/** What the controller works with: the server's storage, caches and kind table. */
export interface CrdControllerDeps {
  objects: ObjectStorage;
  cacher: Cacher;
  kinds: KindTable;
  clock: Clock;
  log: (message: string) => void;
}

/** A definition being served: what it was built from, and its kinds. */
interface Served {
  /** The uid, spec and accepted names the kinds were built from. */
  key: string;
  kinds: ResourceKind[];
  state: CustomDefinitionState;
}

/** The apiextensions controllers' field manager: they are clients of kube-apiserver itself. */
const KUBE_APISERVER = { fieldManager: { manager: 'kube-apiserver' } };

const rfc3339 = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const conditionsOf = (crd: KubeObject): CustomResourceDefinitionCondition[] =>
  arr(rec(crd.status).conditions) as CustomResourceDefinitionCondition[];

const isTrue = (crd: KubeObject, type: string): boolean =>
  conditionsOf(crd).some((c) => c.type === type && c.status === 'True');

const sameCondition = (
  a: CustomResourceDefinitionCondition | undefined,
  b: CustomResourceDefinitionCondition,
) => a !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;

export class CrdController {
  private readonly deps: CrdControllerDeps;
  private readonly served = new Map<string, Served>();
  /**
   * The definitions as this controller last wrote them, until the cache catches up (the
   * naming controller's mutation cache): two definitions synced one after the other must see
   * each other's accepted names even before the store's events reach the cache.
   */
  private readonly written = new Map<string, KubeObject>();
  private readonly loop: WorkLoop;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(deps: CrdControllerDeps) {
    this.deps = deps;
    // DefaultControllerRateLimiter's per-item backoff: 5 ms doubling, capped at 1000 s.
    this.loop = new WorkLoop({
      name: 'custom resource definition',
      clock: deps.clock,
      sync: async (name) => {
        await this.sync(name);
        return undefined;
      },
      log: deps.log,
    });
  }

  /**
   * Follows the definitions from now on; resolves once every definition stored now has been
   * synced (served when established), as kube-apiserver's readiness waits for its CRD
   * informer and handler.
   */
  async start(): Promise<void> {
    this.unsubscribe.push(this.deps.cacher.listen((kind, event) => this.onChange(kind, event.object)));
    this.unsubscribe.push(this.deps.cacher.onFill(() => this.enqueueAll()));
    this.enqueueAll();
    this.loop.start();
    await this.idle();
  }

  /** Resolves when nothing is queued or being synced (retries waiting out their delay aside). */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** Stops following; a sync under way finishes. */
  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.loop.stop();
  }

  /**
   * Forgets what this controller wrote and what it learnt of terminating definitions: the store
   * was restored to an older point (RunningServer.restore), where those writes never happened.
   * The fill that follows resyncs every definition (start's `onFill`), which learns both again.
   */
  forgetWrites(): void {
    this.written.clear();
    for (const served of this.served.values()) served.state.terminating = false;
  }

  /** The kinds served for a definition now (none when not served). */
  kindsOf(crdName: string): readonly ResourceKind[] {
    return this.served.get(crdName)?.kinds ?? [];
  }

  private onChange(kind: ResourceKind, object: KubeObject): void {
    if (kind === CUSTOM_RESOURCE_DEFINITIONS) this.enqueue(str(object.metadata?.name));
    // An object of a terminating definition went: the finalizer may be done.
    else if (kind.custom?.state.terminating) this.enqueue(kind.custom.crdName);
  }

  private definitions(): KubeObject[] {
    const cached = [...this.deps.cacher.cacheFor(CUSTOM_RESOURCE_DEFINITIONS).objects.values()];
    return cached.map((c) => this.newest(c.object));
  }

  private definition(name: string): KubeObject | undefined {
    const cached = this.deps.cacher.cached(CUSTOM_RESOURCE_DEFINITIONS, undefined, name);
    return cached && this.newest(cached);
  }

  /** The cached definition, or the one this controller wrote if that is newer. */
  private newest(cached: KubeObject): KubeObject {
    const name = str(cached.metadata?.name);
    const mine = this.written.get(name);
    if (!mine) return cached;
    const rv = (o: KubeObject) => Number(o.metadata?.resourceVersion ?? 0);
    if (mine.metadata?.uid === cached.metadata?.uid && rv(mine) > rv(cached)) return mine;
    this.written.delete(name);
    return cached;
  }

  private enqueueAll(): void {
    for (const crd of this.definitions()) this.enqueue(str(crd.metadata?.name));
    for (const name of this.served.keys()) this.enqueue(name);
  }

  private enqueue(name: string): void {
    if (name !== '') this.loop.add(name);
  }

  private async sync(name: string): Promise<void> {
    const crd = this.definition(name);
    if (!crd) {
      this.unserve(name);
      return;
    }
    if (crd.metadata?.deletionTimestamp) {
      if ((crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) await this.finalize(crd);
      return;
    }
    const named = await this.grantNames(name);
    if (!named) return;
    // The handler serves a definition whose names are accepted (customresource_handler.go
    // `ServeHTTP` answers 404 only while neither NamesAccepted nor Established is true), so
    // its kinds are ready before Established turns true: a client that waited for the
    // condition never meets a 404.
    if (isTrue(named, 'NamesAccepted') || isTrue(named, 'Established')) await this.serve(named);
    else this.unserve(name);
    await this.establish(named);
  }

  /**
   * naming_controller.go `sync`: the names the definition may have and the NamesAccepted
   * condition, written when they changed; then every definition of the group is synced again,
   * as one may have released a name another wants. Returns the definition as it is now.
   */
  private async grantNames(name: string): Promise<KubeObject | undefined> {
    let released: string | undefined;
    const updated = await this.updateStatus(name, (current) => {
      const group = str(rec(current.spec).group);
      const inUse = acceptedNamesForGroup(group, this.definitions());
      const decision = namesAndConditions(current, inUse);
      const status = rec(current.status);
      const conditions = conditionsOf(current);
      const approval = apiApprovalCondition(current);
      const oldNames = conditions.find((c) => c.type === 'NamesAccepted');
      const oldApproval = conditions.find((c) => c.type === approval?.type);
      const namesSame =
        jsonEqual(status.acceptedNames ?? {}, decision.acceptedNames) &&
        sameCondition(oldNames, decision.namesAccepted);
      if (namesSame && (approval === undefined || sameCondition(oldApproval, approval))) return undefined;
      const now = rfc3339(this.deps.clock.now());
      let next = conditions;
      if (!namesSame) {
        next = setCondition(next, decision.namesAccepted, now);
        next = setCondition(next, decision.established, now);
        released = group;
      } else released = undefined;
      if (approval) next = setCondition(next, approval, now);
      return { ...status, acceptedNames: decision.acceptedNames, conditions: next };
    });
    if (released !== undefined) {
      for (const other of this.definitions()) {
        if (str(rec(other.spec).group) === released && other.metadata?.name !== name)
          this.enqueue(str(other.metadata?.name));
      }
    }
    return updated;
  }

  /** establishing_controller.go `sync`: Established once the names are accepted. */
  private async establish(crd: KubeObject): Promise<KubeObject | undefined> {
    if (!establish(conditionsOf(crd))) return crd;
    return this.updateStatus(str(crd.metadata?.name), (current) => {
      const condition = establish(conditionsOf(current));
      if (!condition) return undefined;
      const conditions = setCondition(conditionsOf(current), condition, rfc3339(this.deps.clock.now()));
      return { ...rec(current.status), conditions };
    });
  }

  /**
   * Writes the status `change` makes of the stored definition (undefined: no change) through
   * the status subresource, as the controllers' UpdateStatus; returns the definition as it is
   * after, or undefined when it is gone.
   */
  private async updateStatus(
    name: string,
    change: (current: KubeObject) => Record<string, unknown> | undefined,
  ): Promise<KubeObject | undefined> {
    // The controllers decide from their informers' cache and call UpdateStatus only when
    // something is to change; a definition that already says what it should is left alone
    // (a server starting over stored definitions checks each, and writes none).
    const cached = this.definition(name);
    if (cached && change(cached) === undefined) return cached;
    try {
      const updated = await this.deps.objects.guaranteedUpdate(
        CUSTOM_RESOURCE_DEFINITIONS,
        undefined,
        name,
        'status',
        // The apiextensions controllers write as clients of kube-apiserver: their entries show
        // manager kube-apiserver, operation Update, subresource status.
        KUBE_APISERVER,
        (current) => {
          const status = change(current);
          return status === undefined ? current : { ...current, status };
        },
      );
      this.written.set(name, updated);
      return updated;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }

  /**
   * Serves an established definition's versions (customresource_handler.go
   * `getOrCreateServingInfoFor`): when its uid, spec or accepted names changed, the old kinds
   * go (their watches end, as the handler's old storage is destroyed) and new ones come, each
   * only once its watch cache holds the stored objects.
   */
  private async serve(crd: KubeObject): Promise<void> {
    const name = str(crd.metadata?.name);
    // The generation moves with every spec change (crd-kind.ts, strategy.go `PrepareForUpdate`):
    // it stands for the spec here, which for a large definition is costly to serialize.
    const key = JSON.stringify([crd.metadata?.uid, crd.metadata?.generation, rec(crd.status).acceptedNames]);
    const current = this.served.get(name);
    if (current?.key === key) return;
    const state: CustomDefinitionState = current?.state ?? { terminating: false };
    this.unserve(name);
    const kinds = customKindsOf(crd, state);
    if (kinds.length === 0) return;
    // Every version's cache holds the stored objects before any version is served.
    for (const kind of kinds) await this.deps.cacher.addKind(kind);
    const added: ResourceKind[] = [];
    for (const kind of kinds) {
      try {
        this.deps.kinds.add(kind);
        added.push(kind);
      } catch (err) {
        // A built-in resource of the same group holds the URL: kube-apiserver's built-in
        // handler would answer there, and this version is never reached.
        this.deps.log(
          `custom resource definition ${name}: version ${kind.version} not served: ${(err as Error).message}`,
        );
      }
    }
    this.served.set(name, { key, kinds: added, state });
  }

  private unserve(name: string): void {
    const served = this.served.get(name);
    if (!served) return;
    this.served.delete(name);
    for (const kind of served.kinds) this.deps.kinds.remove(kind);
  }

  /**
   * crd_finalizer.go `sync`: a deleted definition's objects are deleted (through the normal
   * delete, so their own finalizers hold them), the Terminating condition says how far it got,
   * and once none remain the cleanup finalizer goes, which removes the definition.
   */
  private async finalize(crd: KubeObject): Promise<void> {
    const name = str(crd.metadata?.name);
    const served = this.served.get(name);
    if (served) served.state.terminating = true;
    const setTerminating = (condition: CustomResourceDefinitionCondition) =>
      this.updateStatus(name, (current) => {
        const old = conditionsOf(current).find((c) => c.type === 'Terminating');
        if (sameCondition(old, condition)) return undefined;
        return {
          ...rec(current.status),
          conditions: setCondition(conditionsOf(current), condition, rfc3339(this.deps.clock.now())),
        };
      });
    // No need to delete anything when the definition was never established: nothing was served.
    const kind = served?.kinds.find((k) => k.version === k.custom?.storageVersion) ?? served?.kinds[0];
    if (kind && isTrue(crd, 'Established')) {
      await setTerminating({
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
      });
      const cache = this.deps.cacher.cacheFor(kind);
      for (const { object } of [...cache.objects.values()]) {
        const m = object.metadata ?? {};
        if (m.deletionTimestamp) continue;
        await this.deps.objects.delete(kind, m.namespace, str(m.name)).catch((err: unknown) => {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        });
      }
      // Objects held by their own finalizers stay; their deletion brings the next sync.
      if (cache.objects.size > 0) return;
    }
    await setTerminating({
      type: 'Terminating',
      status: 'False',
      reason: 'InstanceDeletionCompleted',
      message: 'removed all instances',
    });
    await this.deps.objects
      .guaranteedUpdate(CUSTOM_RESOURCE_DEFINITIONS, undefined, name, 'main', KUBE_APISERVER, (current) => {
        const finalizers = (current.metadata?.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
        return { ...current, metadata: { ...current.metadata, finalizers } };
      })
      .catch((err: unknown) => {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      });
  }
}
