/**
 * kube-controller-manager's EndpointSlice mirroring controller (pkg/controller/endpointslicemirroring,
 * `endpointslice-mirroring-controller`): the Endpoints of a Service without a selector, written by
 * hand or by another controller, mirrored into EndpointSlices managed by
 * `endpointslicemirroring-controller.k8s.io` (endpointslice-mirroring-reconcile.ts builds them).
 * An Endpoints labelled `endpointslice.kubernetes.io/skip-mirror: "true"` or holding a
 * leader-election record is not mirrored; its slices, like those of an Endpoints whose Service is
 * gone or has a selector, are deleted. The slice tracker (k8s.io/endpointslice's
 * `EndpointSliceTracker`) remembers the generation of every slice this controller wrote, so a sync
 * on an informer cache that has not seen its own writes yet waits instead of writing twice.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { isConflict, runQueueWorker } from '../protocol/queue-worker.js';
import { isNotFound } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';
import {
  type Endpoints,
  MANAGED_BY_LABEL,
  MIRRORING_CONTROLLER_NAME,
  reconcileSlices,
  SERVICE_NAME_LABEL,
  type Slice,
  shouldMirror,
} from './endpointslice-mirroring-reconcile.js';
import { EventWriter } from './job/events.js';

/** The most addresses of one subset mirrored (`--mirroring-max-endpoints-per-subset`'s default). */
export const MAX_ENDPOINTS_PER_SUBSET = 1000;

interface Service extends KubeObject {
  spec?: { selector?: Record<string, string> | null };
}

/** A slice this controller deletes but the informer still shows. */
const DELETION_EXPECTED = -1;

/**
 * `EndpointSliceTracker`: per Service, the generation of each slice written (or
 * {@link DELETION_EXPECTED}), to tell a stale informer cache from someone else's change.
 */
class SliceTracker {
  private readonly bySvc = new Map<string, Map<string, number>>();

  private static svc(s: Slice): string {
    return `${s.metadata?.namespace}/${s.metadata?.labels?.[SERVICE_NAME_LABEL] ?? ''}`;
  }

  has(s: Slice): boolean {
    return this.bySvc.get(SliceTracker.svc(s))?.has(s.metadata?.uid ?? '') ?? false;
  }

  /** `ShouldSync`: a slice not tracked, or newer than the write this controller made. */
  shouldSync(s: Slice): boolean {
    const g = this.bySvc.get(SliceTracker.svc(s))?.get(s.metadata?.uid ?? '');
    return g === undefined || (s.metadata?.generation ?? 0) > g;
  }

  /** `StaleSlices`: a slice written not yet listed (or listed older), or one deleted still listed. */
  stale(svcKey: string, slices: readonly Slice[]): boolean {
    for (const [uid, g] of this.bySvc.get(svcKey) ?? []) {
      const s = slices.find((x) => x.metadata?.uid === uid);
      if (!s) {
        if (g !== DELETION_EXPECTED) return true;
      } else if (g === DELETION_EXPECTED || (s.metadata?.generation ?? 0) < g) return true;
    }
    return false;
  }

  update(s: Slice): void {
    const k = SliceTracker.svc(s);
    const m = this.bySvc.get(k) ?? new Map<string, number>();
    m.set(s.metadata?.uid ?? '', s.metadata?.generation ?? 0);
    this.bySvc.set(k, m);
  }

  expectDeletion(s: Slice): void {
    const k = SliceTracker.svc(s);
    const m = this.bySvc.get(k) ?? new Map<string, number>();
    m.set(s.metadata?.uid ?? '', DELETION_EXPECTED);
    this.bySvc.set(k, m);
  }

  /** `HandleDeletion`: whether the deletion was this controller's own. */
  handleDeletion(s: Slice): boolean {
    const m = this.bySvc.get(SliceTracker.svc(s));
    const g = m?.get(s.metadata?.uid ?? '');
    m?.delete(s.metadata?.uid ?? '');
    return g === DELETION_EXPECTED;
  }

  deleteService(svcKey: string): void {
    this.bySvc.delete(svcKey);
  }
}

/** The EndpointSlice mirroring controller: {@link EndpointSliceMirroringController.start}, {@link EndpointSliceMirroringController.stop}. */
export class EndpointSliceMirroringController {
  private readonly queue: WorkQueue;
  private readonly endpoints: Informer<Endpoints>;
  private readonly slices: Informer<Slice>;
  private readonly services: Informer<Service>;
  private readonly tracker = new SliceTracker();
  private readonly events: EventWriter;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    clock: Clock,
    private readonly log: (line: string) => void,
    private readonly maxPerSubset = MAX_ENDPOINTS_PER_SUBSET,
  ) {
    // Errors back off from 1 s to 100 s (`defaultSyncBackOff`, `maxSyncBackOff`).
    this.queue = new WorkQueue(clock, { baseDelayMs: 1000, maxDelayMs: 100_000 });
    this.events = new EventWriter(kube, 'endpoint-slice-mirroring-controller', clock, log);
    this.endpoints = kube.informer<Endpoints>('endpoints', { allNamespaces: true });
    this.slices = kube.informer<Slice>('endpointslices.discovery.k8s.io', { allNamespaces: true });
    this.services = kube.informer<Service>('services', { allNamespaces: true });
    const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
    const noSelector = (s: Service) => s.spec?.selector == null;
    const enqueueIf = (yes: boolean, o: KubeObject) => {
      if (yes) this.queue.add(key(o));
    };
    this.services.on({
      add: (s) => enqueueIf(noSelector(s), s),
      update: (old, s) => enqueueIf(noSelector(old) !== noSelector(s), s),
      delete: (s) => enqueueIf(noSelector(s), s),
    });
    this.endpoints.on({
      add: (e) => enqueueIf(shouldMirror(e), e),
      update: (old, e) => enqueueIf(shouldMirror(old) || shouldMirror(e), e),
      delete: (e) => enqueueIf(shouldMirror(e), e),
    });
    this.slices.on({
      add: (s) => {
        if (this.managed(s) && this.tracker.shouldSync(s)) this.queueFor(s);
      },
      update: (old, s) => {
        if (old.metadata?.labels?.[SERVICE_NAME_LABEL] !== s.metadata?.labels?.[SERVICE_NAME_LABEL]) {
          this.queueFor(s);
          this.queueFor(old);
        } else if (this.managed(old) !== this.managed(s) || (this.managed(s) && this.tracker.shouldSync(s)))
          this.queueFor(s);
      },
      delete: (s) => {
        if (this.managed(s) && this.tracker.has(s) && !this.tracker.handleDeletion(s)) this.queueFor(s);
      },
    });
  }

  /** Starts the informers and, once they listed, the workers (kube-controller-manager runs 5). */
  async start(workers = 5): Promise<void> {
    const all = [this.endpoints, this.slices, this.services];
    for (const i of all) i.start();
    await Promise.all(all.map((i) => i.synced()));
    for (let i = 0; i < workers; i++) {
      this.workers.push(
        runQueueWorker(this.queue, (k) => this.sync(k), {
          synced: () => {
            this.syncs++;
          },
          failed: (k, err) => {
            this.failures++;
            if (!isConflict(err))
              this.log(`endpointslice-mirroring-controller: syncing ${k}: ${(err as Error).message}`);
          },
        }),
      );
    }
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.endpoints.stop(), this.slices.stop(), this.services.stop()]);
    await this.events.flushed();
  }

  private managed(s: Slice): boolean {
    return s.metadata?.labels?.[MANAGED_BY_LABEL] === MIRRORING_CONTROLLER_NAME;
  }

  /** `queueEndpointsForEndpointSlice`: the Endpoints named by the slice's service-name label. */
  private queueFor(s: Slice): void {
    const svc = s.metadata?.labels?.[SERVICE_NAME_LABEL];
    if (svc) this.queue.add(`${s.metadata?.namespace}/${svc}`);
  }

  /** `endpointSlicesMirroredForService`. */
  private mirroredSlices(ns: string, name: string): Slice[] {
    return this.slices
      .list()
      .filter(
        (s) =>
          s.metadata?.namespace === ns &&
          s.metadata?.labels?.[SERVICE_NAME_LABEL] === name &&
          this.managed(s),
      );
  }

  /** `syncEndpoints`. */
  private async sync(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    const ep = this.endpoints.get(key);
    const svc = this.services.get(key);
    if (!ep || !shouldMirror(ep) || !svc || svc.spec?.selector != null) {
      await this.deleteMirrored(key, ns, name);
      return;
    }
    const existing = this.mirroredSlices(ns, name);
    if (this.tracker.stale(key, existing)) throw new Error('EndpointSlice informer cache is out of date');
    const changes = reconcileSlices(ep, existing, this.maxPerSubset);
    const typed = { ...ep, apiVersion: 'v1', kind: 'Endpoints' };
    if (changes.skipped > 0)
      this.events.event(
        typed,
        'Warning',
        'TooManyAddressesToMirror',
        `A max of ${this.maxPerSubset} addresses can be mirrored to EndpointSlices per Endpoints subset. ${changes.skipped} addresses were skipped`,
      );
    const client = this.kube.resource<Slice>('endpointslices.discovery.k8s.io', ns);
    if (!ep.metadata?.deletionTimestamp) {
      for (const s of changes.create) {
        try {
          this.tracker.update(await client.create(s));
        } catch (err) {
          throw new Error(
            `failed to create EndpointSlice for Endpoints ${ns}/${name}: ${(err as Error).message}`,
            {
              cause: err,
            },
          );
        }
      }
    }
    for (const s of changes.update) {
      try {
        this.tracker.update(await client.update(s));
      } catch (err) {
        throw new Error(
          `failed to update ${s.metadata?.name} EndpointSlice for Endpoints ${ns}/${name}: ${(err as Error).message}`,
          { cause: err },
        );
      }
    }
    for (const s of changes.delete) {
      try {
        await client.delete(s.metadata?.name ?? '');
      } catch (err) {
        throw new Error(
          `failed to delete ${s.metadata?.name} EndpointSlice for Endpoints ${ns}/${name}: ${(err as Error).message}`,
          { cause: err },
        );
      }
      this.tracker.expectDeletion(s);
    }
  }

  /** `deleteMirroredSlices`: every slice mirrored for the name goes; errors are reported together. */
  private async deleteMirrored(key: string, ns: string, name: string): Promise<void> {
    this.tracker.deleteService(key);
    const slices = this.mirroredSlices(ns, name);
    const client = this.kube.resource<Slice>('endpointslices.discovery.k8s.io', ns);
    const errors: unknown[] = [];
    for (const s of slices) {
      try {
        await client.delete(s.metadata?.name ?? '');
      } catch (err) {
        // A slice already gone is what was wanted (upstream's client reports it; the retry finds none).
        if (!isNotFound(err)) errors.push(err);
      }
    }
    if (errors.length > 0)
      throw new Error(
        `error(s) deleting ${errors.length}/${slices.length} EndpointSlices for ${ns}/${name} Endpoints, including: ${(errors[0] as Error).message}`,
      );
  }
}
