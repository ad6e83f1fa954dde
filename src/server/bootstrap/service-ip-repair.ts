/**
 * kube-apiserver's cluster IP repair loop, as far as a start goes
 * (pkg/registry/core/service/ipallocator/controller/repairip.go `syncService`): a Service holding
 * a cluster IP inside a ServiceCIDR that no IPAddress holds (one stored before the allocator wrote
 * IPAddresses, or whose IPAddress was deleted by hand) gets its IPAddress again, as the
 * allocator writes it, so no later Service is handed the same address. Not done: the loop's
 * running repairs, its events (ClusterIPNotAllocated, ClusterIPOutOfRange) and the deletion of
 * leaked IPAddresses.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { checkRequested, clusterIpsOf, readyRanges } from '../kinds/core/service/cluster-ips.js';
import { findByPlural } from '../kinds/served/registry.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { ipAddressFor } from '../registry/service-allocation.js';

/** Writes the missing IPAddress of every Service's cluster IPs. */
export async function repairServiceIPAddresses(objects: ObjectStorage): Promise<void> {
  const services = findByPlural('', 'v1', 'services');
  const addresses = findByPlural('networking.k8s.io', 'v1', 'ipaddresses');
  const cidrs = findByPlural('networking.k8s.io', 'v1', 'servicecidrs');
  if (!services || !addresses || !cidrs) return;
  const stored = await objects.list(services, '');
  if (stored.length === 0) return;
  const held = await objects.storedNames(addresses, '');
  const ranges = readyRanges(await objects.list(cidrs, ''));
  for (const svc of stored) {
    for (const ip of clusterIpsOf(svc)) {
      // An address outside every ServiceCIDR is reported upstream (ClusterIPOutOfRange), not held.
      if (held.has(ip) || checkRequested(ip, ranges) !== undefined) continue;
      await hold(objects, addresses, ip, svc);
      held.add(ip);
    }
  }
}

async function hold(
  objects: ObjectStorage,
  addresses: NonNullable<ReturnType<typeof findByPlural>>,
  ip: string,
  svc: KubeObject,
): Promise<void> {
  try {
    await objects.create(addresses, undefined, ipAddressFor(ip, svc), {
      owned: true,
      fieldManager: { manager: 'kube-apiserver' },
    });
  } catch (err) {
    // Another server over the same etcd wrote it first.
    if (!(err instanceof StatusError && err.status.reason === 'AlreadyExists')) throw err;
  }
}
