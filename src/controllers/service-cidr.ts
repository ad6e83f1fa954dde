/**
 * kube-controller-manager's ServiceCIDR controller (pkg/controller/servicecidrs,
 * `service-cidr-controller`): every ServiceCIDR carries the
 * `networking.k8s.io/service-cidr-finalizer` and a Ready condition, applied to its status by
 * server-side apply as `service-cidr-controller` (True, "Kubernetes Service CIDR is ready").
 * One being deleted keeps its finalizer while an IPAddress of kube-apiserver's allocator would
 * be left outside every ServiceCIDR (its Ready condition then False, reason Terminating); once
 * none would, and 10 s after its deletionTimestamp (time for the apiservers' allocators to stop
 * handing out its addresses), the finalizer goes and the ServiceCIDR with it.
 *
 * Queued as upstream: a ServiceCIDR on add (with those overlapping it), update and delete; the
 * ServiceCIDRs holding an address when an IPAddress managed by `ipallocator.k8s.io` comes or goes.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { runQueueWorker } from '../protocol/queue-worker.js';
import { StatusError } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';
import {
  containingAddress,
  containingPrefix,
  overlapping,
  parseAddress,
  parsePrefix,
} from './service-cidr-prefixes.js';

const SERVICE_CIDRS = 'servicecidrs.networking.k8s.io';
const IP_ADDRESSES = 'ipaddresses.networking.k8s.io';
/** `controllerName`: its field manager. */
const CONTROLLER = 'service-cidr-controller';
/** `ServiceCIDRProtectionFinalizer`. */
export const SERVICE_CIDR_FINALIZER = 'networking.k8s.io/service-cidr-finalizer';
/** `deletionGracePeriod`. */
const DELETION_GRACE_MS = 10_000;
const MANAGED_BY = 'ipaddress.kubernetes.io/managed-by';
const FAMILY = 'ipaddress.kubernetes.io/ip-family';
/** `ipallocator.ControllerName`. */
const ALLOCATOR = 'ipallocator.k8s.io';

/** The Ready condition `sync` wants while the ServiceCIDR is not being deleted. */
const READY = { status: 'True', reason: '', message: 'Kubernetes Service CIDR is ready' };
/** The Ready condition of a deletion held by addresses. */
const TERMINATING = {
  status: 'False',
  reason: 'Terminating',
  message:
    'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR',
};

/** A networking.k8s.io/v1 ServiceCIDR, the fields this controller reads. */
export interface ServiceCIDR extends KubeObject {
  spec?: { cidrs?: string[] | null };
  status?: {
    conditions?: Array<{
      type?: string;
      status?: string;
      reason?: string;
      message?: string;
      lastTransitionTime?: string;
    }> | null;
  };
}

/** The controller: {@link ServiceCIDRController.start}, {@link ServiceCIDRController.stop}. */
export class ServiceCIDRController {
  private readonly queue: WorkQueue;
  private readonly cidrs: Informer<ServiceCIDR>;
  private readonly ips: Informer<KubeObject>;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    this.cidrs = kube.informer<ServiceCIDR>(SERVICE_CIDRS);
    this.ips = kube.informer<KubeObject>(IP_ADDRESSES);
    const name = (o: KubeObject) => this.queue.add(o.metadata?.name ?? '');
    this.cidrs.on({
      add: (o) => {
        name(o);
        for (const sc of this.overlappingOf(o)) name(sc);
      },
      update: (_, o) => name(o),
      delete: name,
    });
    const address = (ip: KubeObject) => {
      for (const sc of this.holdersOf(ip)) name(sc);
    };
    this.ips.on({ add: address, delete: address });
  }

  /** Starts the informers and `workers` workers (kube-controller-manager runs 5); resolves once both listed. */
  async start(workers = 5): Promise<void> {
    this.cidrs.start();
    this.ips.start();
    await Promise.all([this.cidrs.synced(), this.ips.synced()]);
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.cidrs.stop(), this.ips.stop()]);
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.sync(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        this.log(`${CONTROLLER}: error syncing ServiceCIDR ${key}, retrying: ${(err as Error).message}`);
      },
    });
  }

  /** `overlappingServiceCIDRs`: the ServiceCIDRs whose CIDRs overlap one of `sc`'s. */
  private overlappingOf(sc: ServiceCIDR): ServiceCIDR[] {
    return (sc.spec?.cidrs ?? []).flatMap((c) => {
      const prefix = parsePrefix(c);
      return prefix ? overlapping(this.cidrs.list(), prefix) : [];
    });
  }

  /** `containingServiceCIDRs`: for an address of kube-apiserver's allocator, the ServiceCIDRs holding it. */
  private holdersOf(ip: KubeObject): ServiceCIDR[] {
    if (ip.metadata?.labels?.[MANAGED_BY] !== ALLOCATOR) return [];
    const address = parseAddress(ip.metadata?.name ?? '');
    return address ? containingAddress(this.cidrs.list(), address) : [];
  }

  /** `sync`: the finalizer and Ready condition of a live ServiceCIDR, or the end of a deleted one. */
  private async sync(name: string): Promise<void> {
    const sc = this.cidrs.get(name);
    if (!sc) return;
    const deletion = sc.metadata?.deletionTimestamp;
    if (deletion) {
      if (!this.canDelete(sc)) return this.setReady(sc, TERMINATING);
      const wait = DELETION_GRACE_MS - (this.clock.now() - Date.parse(deletion));
      if (wait > 0) return this.queue.addAfter(name, wait);
      if (!(sc.metadata?.finalizers ?? []).includes(SERVICE_CIDR_FINALIZER)) return;
      return this.patchFinalizers(name, { '$deleteFromPrimitiveList/finalizers': [SERVICE_CIDR_FINALIZER] });
    }
    if (!(sc.metadata?.finalizers ?? []).includes(SERVICE_CIDR_FINALIZER)) {
      await this.patchFinalizers(name, { finalizers: [SERVICE_CIDR_FINALIZER] });
    }
    await this.setReady(sc, READY);
  }

  /**
   * `canDeleteCIDR`: each of its CIDRs held by another ServiceCIDR too, or no allocated address
   * of its families for which it is the only ServiceCIDR left.
   */
  private canDelete(sc: ServiceCIDR): boolean {
    const all = this.cidrs.list();
    const self = sc.metadata?.name;
    const alone = (holders: ServiceCIDR[]) =>
      holders.length === 0 || (holders.length === 1 && holders[0].metadata?.name === self);
    const cidrs = sc.spec?.cidrs ?? [];
    const hasParent = cidrs.every((c) => {
      const prefix = parsePrefix(c);
      return !prefix || !alone(containingPrefix(all, prefix));
    });
    if (hasParent) return true;
    for (const c of cidrs) {
      const family = parsePrefix(c)?.bits === 128 ? 'IPv6' : 'IPv4';
      for (const ip of this.ips.list()) {
        const labels = ip.metadata?.labels ?? {};
        if (labels[FAMILY] !== family || labels[MANAGED_BY] !== ALLOCATOR) continue;
        const address = parseAddress(ip.metadata?.name ?? '');
        if (!address) continue;
        const holders = containingAddress(all, address);
        if (holders.length === 1 && holders[0].metadata?.name === self) return false;
      }
    }
    return true;
  }

  /** The finalizer added or removed by a strategic-merge patch, as upstream; a ServiceCIDR gone is no error. */
  private async patchFinalizers(name: string, metadata: Record<string, unknown>): Promise<void> {
    await this.kube
      .resource<ServiceCIDR>(SERVICE_CIDRS)
      .patch(name, { metadata }, 'strategic')
      .catch((err: unknown) => {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      });
  }

  /** `updateConditionIfNeeded`: applied (forced) when its status, reason or message differ. */
  private async setReady(sc: ServiceCIDR, want: typeof READY): Promise<void> {
    const current = (sc.status?.conditions ?? []).find((c) => c.type === 'Ready');
    if (
      current &&
      current.status === want.status &&
      (current.reason ?? '') === want.reason &&
      (current.message ?? '') === want.message
    ) {
      return;
    }
    const lastTransitionTime = new Date(Math.floor(this.clock.now() / 1000) * 1000)
      .toISOString()
      .replace('.000Z', 'Z');
    const applied: ServiceCIDR = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'ServiceCIDR',
      metadata: { name: sc.metadata?.name },
      status: { conditions: [{ type: 'Ready', ...want, lastTransitionTime }] },
    };
    await this.kube
      .resource<ServiceCIDR>(SERVICE_CIDRS)
      .applyStatus(applied, { fieldManager: CONTROLLER, force: true });
  }
}
