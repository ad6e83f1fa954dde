/**
 * The Service REST storage's allocation hooks (pkg/registry/core/service/storage/storage.go
 * `beginCreate`, `beginUpdate`, `afterDelete`, over alloc.go's `Allocators`), as the object
 * layer runs them around a Service write: cluster IPs from every ready ServiceCIDR, each one
 * held by an IPAddress object written through this same storage (ipallocator.go
 * `createIPAddress`: named by the address, labelled with its family and
 * `ipallocator.k8s.io`, its parent the Service, written by `kube-apiserver`), and node ports
 * found in the stored Services. A hook answers a finish: called with true once the Service is
 * stored, with false when the write fails after it, which releases what it allocated (an
 * IPAddress never outlives a failed create). A dry run writes no IPAddress. The rules are in
 * kinds/core/service (cluster-ips.ts, allocation.ts).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { rec, str } from '../kinds/access.js';
import { allocateNodePorts, nodePortsOf, SERVICE_CIDR } from '../kinds/core/service/allocation.js';
import { validateClusterIPFields } from '../kinds/core/service/cluster-ip-fields.js';
import {
  candidates,
  checkRequested,
  checkRequestedDryRun,
  clusterIpsOf,
  ERR_ALLOCATED,
  ERR_FULL,
  ERR_MISMATCHED,
  initIpFamilies,
  intToIpv4,
  readyRanges,
  type ServiceRange,
  serviceRange,
} from '../kinds/core/service/cluster-ips.js';
import { serviceKind as SERVICE } from '../kinds/core/service/definition.js';
import { ipAddressKind } from '../kinds/networking/ipaddress.js';
import { serviceCIDRKind } from '../kinds/networking/servicecidr.js';
import type { ResourceKind } from '../kinds/types.js';
import { invalid } from '../kinds/validation.js';
import type { Store } from '../stores/types.js';
import { failOn } from './write-checks.js';
import type { DeleteOptions, WriteOptions } from './write-options.js';

/** Services get cluster IPs and node ports allocated on writes. */
export function isService(kind: ResourceKind): boolean {
  return kind.group === '' && kind.kind === 'Service';
}

/** What a write does once the Service's own write is settled: true stored, false failed. */
export type FinishAllocation = (stored: boolean) => Promise<void>;

/** `ipallocator.ControllerName`: the IPAddresses' manager label. */
const MANAGED_BY = 'ipallocator.k8s.io';
const NOTHING: FinishAllocation = async () => {};

/** What the hooks need of the object storage (object-storage.ts) they run in. */
export interface AllocationStorage {
  list(kind: ResourceKind, namespace: string): Promise<KubeObject[]>;
  storedNames(kind: ResourceKind, namespace: string): Promise<Set<string>>;
  create(kind: ResourceKind, namespace: undefined, obj: KubeObject, opts: WriteOptions): Promise<KubeObject>;
  delete(kind: ResourceKind, namespace: undefined, name: string, opts?: DeleteOptions): Promise<KubeObject>;
}

/** The Service's allocation hooks over one object storage and the store beneath it. */
export class ServiceAllocator {
  constructor(
    private readonly objects: AllocationStorage,
    private readonly store: Store,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * `beginCreate`: cluster IPs (unless headless or an ExternalName), then node ports. A refusal
   * throws the 422 (or the 500 of a full range) and keeps nothing.
   */
  async beginCreate(svc: KubeObject, dryRun = false): Promise<FinishAllocation> {
    initIpFamilies(svc);
    failOn(SERVICE, svc, validateClusterIPFields(svc));
    const allocated = await this.allocateIps(svc, dryRun);
    try {
      failOn(SERVICE, svc, allocateNodePorts(svc, await this.nodePorts(), this.random));
    } catch (err) {
      await this.release(allocated);
      throw err;
    }
    return async (stored) => {
      if (!stored) await this.release(allocated);
    };
  }

  /**
   * `beginUpdate`: an ExternalName turned into another type gets its cluster IPs (case A of
   * `updateClusterIPs`); another type turned into an ExternalName releases them once the update
   * is stored (case B). Node ports as the create's, the Service itself left out.
   */
  async beginUpdate(next: KubeObject, current: KubeObject, dryRun = false): Promise<FinishAllocation> {
    failOn(SERVICE, next, validateClusterIPFields(next, current));
    const was = str(rec(current.spec).type);
    const now = str(rec(next.spec).type);
    const allocated =
      was === 'ExternalName' && now !== 'ExternalName' ? await this.allocateIps(next, dryRun) : [];
    const released = was !== 'ExternalName' && now === 'ExternalName' ? clusterIpsOf(current) : [];
    try {
      const except = `${current.metadata?.namespace}/${current.metadata?.name}`;
      failOn(SERVICE, next, allocateNodePorts(next, await this.nodePorts(except), this.random));
    } catch (err) {
      await this.release(allocated);
      throw err;
    }
    if (dryRun) return NOTHING;
    return async (stored) => this.release(stored ? released : allocated);
  }

  /** `afterDelete`: a Service gone for good releases its cluster IPs (not on a dry run). */
  async afterDelete(svc: KubeObject, dryRun = false): Promise<void> {
    if (!dryRun) await this.release(clusterIpsOf(svc));
  }

  /**
   * `allocClusterIPs`: the address asked for, or a free one; the IPAddresses written (none on a
   * dry run). Sets spec.clusterIP and spec.clusterIPs.
   */
  private async allocateIps(svc: KubeObject, dryRun: boolean): Promise<string[]> {
    const spec = rec(svc.spec);
    if (spec.type === 'ExternalName') return [];
    const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
    const wanted = typeof ips[0] === 'string' ? ips[0] : str(spec.clusterIP);
    if (wanted === 'None') return [];
    const shown = ips.length > 0 ? ips : wanted === '' ? [] : [wanted];
    if (wanted.includes(':')) {
      // `initIPFamilyFields`: the family of an address asked for must be the cluster's.
      failOn(SERVICE, svc, [invalid('spec.clusterIPs[0]', shown, 'IPv6 is not configured on this cluster')]);
    }
    const stored = await this.objects.list(serviceCIDRKind, '');
    // A server started without its bootstrap objects has no ServiceCIDR at all: its own range
    // (--service-cluster-ip-range, the default ServiceCIDR's) stands in.
    const ranges = stored.length > 0 ? readyRanges(stored) : [serviceRange(SERVICE_CIDR)!];
    let ip = wanted;
    if (wanted === '') ip = await this.next(svc, ranges, dryRun);
    else {
      const refused = await this.take(svc, ranges, wanted, dryRun);
      if (refused)
        failOn(SERVICE, svc, [
          invalid('spec.clusterIPs', shown, `failed to allocate IP ${wanted}: ${refused}`),
        ]);
    }
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
    return dryRun ? [] : [ip];
  }

  /** The refusal of an address asked for, or undefined once it is the Service's. */
  private async take(
    svc: KubeObject,
    ranges: ServiceRange[],
    ip: string,
    dryRun: boolean,
  ): Promise<string | undefined> {
    if (dryRun) return ranges.length === 0 ? ERR_MISMATCHED : checkRequestedDryRun(ip, ranges[0]);
    const refused = checkRequested(ip, ranges);
    if (refused) return refused;
    return (await this.createAddress(ip, svc)) ? undefined : ERR_ALLOCATED;
  }

  /**
   * `AllocateNextService`: each ready range in turn (upstream a Go map's order, so at random)
   * from a random point of its upper part, then its lower part. A dry run answers the network
   * address of the first range and writes nothing.
   */
  private async next(svc: KubeObject, ranges: ServiceRange[], dryRun: boolean): Promise<string> {
    if (dryRun && ranges.length > 0) return intToIpv4(ranges[0].network);
    const taken = await this.objects.storedNames(ipAddressKind, '');
    for (const range of shuffled(ranges, this.random)) {
      for (const ip of candidates(range, this.random)) {
        if (taken.has(ip)) continue;
        // Another server may have taken it since the names were read: try the next one.
        if (await this.createAddress(ip, svc)) return ip;
      }
    }
    // alloc.go answers a full range with `NewInternalError`.
    const cause = `failed to allocate a serviceIP for Service "${svc.metadata?.name ?? ''}": ${ERR_FULL}`;
    throw StatusError.of(
      'InternalError',
      `Internal error occurred: ${cause}`,
      { causes: [{ message: cause }] },
      500,
    );
  }

  /** Writes the IPAddress of `ip` for `svc`; false when one of that name exists already. */
  private async createAddress(ip: string, svc: KubeObject): Promise<boolean> {
    try {
      await this.objects.create(ipAddressKind, undefined, ipAddressFor(ip, svc), {
        owned: true,
        fieldManager: { manager: 'kube-apiserver' },
      });
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.status.reason === 'AlreadyExists') return false;
      throw err;
    }
  }

  /** `Allocator.Release`: the IPAddress deleted, whoever holds it; one already gone is no error. */
  private async release(ips: readonly string[]): Promise<void> {
    for (const ip of ips) {
      await this.objects.delete(ipAddressKind, undefined, ip).catch((err: unknown) => {
        if (!(err instanceof StatusError && err.status.reason === 'NotFound')) throw err;
      });
    }
  }

  private async nodePorts(except?: string): Promise<Set<number>> {
    const { items } = await this.store.list('/core/services/');
    return nodePortsOf(
      items.map((kv) => JSON.parse(kv.value) as KubeObject),
      except,
    );
  }
}

/** `createIPAddress`'s object. */
export function ipAddressFor(ip: string, svc: KubeObject): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: {
      name: ip,
      labels: {
        'ipaddress.kubernetes.io/ip-family': ip.includes(':') ? 'IPv6' : 'IPv4',
        'ipaddress.kubernetes.io/managed-by': MANAGED_BY,
      },
    },
    spec: {
      parentRef: {
        group: '',
        resource: 'services',
        namespace: svc.metadata?.namespace ?? '',
        name: svc.metadata?.name ?? '',
      },
    },
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
