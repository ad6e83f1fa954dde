/**
 * The rules of kube-apiserver's cluster IP allocator over ServiceCIDRs
 * (pkg/registry/core/service/ipallocator: cidrallocator.go's `MetaAllocator`
 * and ipallocator.go's `Allocator`, the MultiCIDRServiceAllocator, GA and with
 * its bitmap dual-write gone in 1.37): every ready ServiceCIDR's range is an
 * allocator, an address is taken while an IPAddress object of that name
 * exists, and the messages the Service REST storage wraps its failures in
 * (pkg/registry/core/service/storage/alloc.go `allocIPs`). Only IPv4 ranges
 * count: the server's range is single-stack IPv4, so its one allocator
 * family is IPv4. Pure rules; the storage side (reading the ServiceCIDRs,
 * writing the IPAddresses) is in server/registry/service-allocation.ts.
 */

import type { KubeObject } from '../../../../protocol/events.js';
import { isObject, rec, str } from '../../access.js';
import { normalizeClusterIPs } from './cluster-ip-fields.js';

/** One CIDR's addresses as the allocator hands them out. */
export interface ServiceRange {
  /** The CIDR as the ServiceCIDR spells it (the allocator's key, and its messages' range). */
  readonly cidr: string;
  /** The network address: what a dry-run allocation answers (`allocateNextService`'s dry run). */
  readonly network: number;
  /** The broadcast address. */
  readonly broadcast: number;
  /** The first address handed out (the network address is never). */
  readonly first: number;
  /** Where dynamic allocation starts (KEP-3070: below it, requested addresses only, unless full). */
  readonly offset: number;
  /** The last address handed out (IPv4's broadcast address is never). */
  readonly last: number;
}

/** `DefaultServiceCIDRName`: the ServiceCIDR kube-apiserver keeps for its own range. */
export const DEFAULT_SERVICE_CIDR = 'kubernetes';

/** `ipallocator.ErrAllocated`. */
export const ERR_ALLOCATED = 'provided IP is already allocated';
/** `ipallocator.ErrMismatchedNetwork`: no ready ServiceCIDR holds the address. */
export const ERR_MISMATCHED = 'the provided network does not match the current range';
/** `ipallocator.ErrFull`. */
export const ERR_FULL = 'range is full';

/** `ErrNotInRange`: inside a ServiceCIDR's prefix but its network or broadcast address. */
export function notInRange(ip: string, cidr: string): string {
  return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cidr}`;
}

/** A dotted-quad IPv4 address as a number; undefined for anything else. */
export function ipv4ToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    n = n * 256 + Number(part);
  }
  return n;
}

/** A number as a dotted-quad IPv4 address. */
export function intToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/**
 * `calculateRangeOffset` (ipallocator/bitmap.go): the lower part of a range, min(max(16,
 * size/16), 256) addresses, is kept for requested addresses; none in a range of 16 or fewer.
 */
function rangeOffset(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 16)), 256);
}

/** `NewIPAllocator` of an IPv4 CIDR; undefined for IPv6 or a CIDR that does not parse. */
export function serviceRange(cidr: string): ServiceRange | undefined {
  const [address, bitsText, extra] = cidr.split('/');
  const base = ipv4ToInt(address ?? '');
  if (base === undefined || extra !== undefined || !/^\d{1,2}$/.test(bitsText ?? '')) return undefined;
  const bits = Number(bitsText);
  if (bits > 32) return undefined;
  const size = 2 ** (32 - bits);
  const network = base - (base % size);
  const broadcast = network + size - 1;
  const first = network + 1;
  const offset = first + rangeOffset(size);
  return { cidr, network, broadcast, first, offset, last: broadcast - 1 };
}

/**
 * `servicecidr.PrefixContainsIP`: the CIDR's prefix holds `ip`, and it is neither the network
 * nor the (IPv4) broadcast address, which no ServiceCIDR hands out.
 */
export function prefixContains(range: ServiceRange, ip: number): boolean {
  return ip > range.network && ip < range.broadcast;
}

/**
 * The ServiceCIDRs' IPv4 ranges the allocator may use (`syncAllocators`): those of a ServiceCIDR
 * not being deleted and Ready, or without a Ready condition at all (`isReady`: assumed ready,
 * for a cluster where kube-controller-manager does not run), each CIDR once. The default
 * ServiceCIDR's come first: a dry run checks against the first range (upstream a random one).
 */
export function readyRanges(serviceCIDRs: readonly KubeObject[]): ServiceRange[] {
  const out = new Map<string, ServiceRange>();
  const first = (sc: KubeObject) => (sc.metadata?.name === DEFAULT_SERVICE_CIDR ? 0 : 1);
  for (const sc of [...serviceCIDRs].sort((a, b) => first(a) - first(b))) {
    if (sc.metadata?.deletionTimestamp || !isReady(sc)) continue;
    const cidrs = rec(sc.spec).cidrs;
    for (const cidr of Array.isArray(cidrs) ? cidrs : []) {
      const range = typeof cidr === 'string' && !out.has(cidr) ? serviceRange(cidr) : undefined;
      if (range) out.set(cidr as string, range);
    }
  }
  return [...out.values()];
}

function isReady(sc: KubeObject): boolean {
  const conditions = rec(sc.status).conditions;
  const ready = (Array.isArray(conditions) ? conditions : []).find((c) => isObject(c) && c.type === 'Ready');
  return ready === undefined || str(rec(ready).status) === 'True';
}

/**
 * Checks a requested address against the ready ranges (`MetaAllocator.AllocateService`: the first
 * allocator whose prefix holds it, then `Allocator.allocateService`'s range check, which such an
 * address always passes): the message of the refusal, or undefined when the address may be taken
 * (if no IPAddress holds it). A network or broadcast address is in no ServiceCIDR.
 */
export function checkRequested(ip: string, ranges: readonly ServiceRange[]): string | undefined {
  const n = ipv4ToInt(ip);
  const range = n === undefined ? undefined : ranges.find((r) => prefixContains(r, n));
  if (range === undefined || n === undefined) return ERR_MISMATCHED;
  if (n < range.first || n > range.last) return notInRange(ip, range.cidr);
  return undefined;
}

/**
 * A dry run's check of a requested address (`dryRunAllocator.Allocate`): only the range check of
 * one allocator (upstream a random one of the map; here the first), nothing else.
 */
export function checkRequestedDryRun(ip: string, range: ServiceRange): string | undefined {
  const n = ipv4ToInt(ip);
  if (n === undefined || n < range.first || n > range.last) return notInRange(ip, range.cidr);
  return undefined;
}

/**
 * The addresses `allocateNextService` tries, in its order: from a random point of the upper part
 * (offset..last) around to it, then from a random point of the lower part (first..offset-1).
 */
export function* candidates(range: ServiceRange, random: () => number): Generator<string> {
  yield* around(range.offset, range.last, random);
  if (range.offset > range.first) yield* around(range.first, range.offset - 1, random);
}

function* around(from: number, to: number, random: () => number): Generator<string> {
  const count = to - from + 1;
  if (count <= 0) return;
  const start = Math.floor(random() * count);
  for (let i = 0; i < count; i++) yield intToIpv4(from + ((start + i) % count));
}

/** The cluster IPs a Service holds (none when headless or an ExternalName). */
export function clusterIpsOf(svc: KubeObject): string[] {
  const spec = rec(svc.spec);
  if (spec.type === 'ExternalName') return [];
  const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP];
  return ips.filter((ip): ip is string => typeof ip === 'string' && ip !== '' && ip !== 'None');
}

/**
 * What the Service REST storage settles before allocating, after the field manager ran, so no
 * manager owns it: `normalizeClusterIPs` (cluster-ip-fields.ts) and
 * `initIPFamilyFields` of this single-stack IPv4 cluster (the policy kept from `old`, else
 * SingleStack, or RequireDualStack for a headless Service without selector, whose families are
 * both; the family IPv4).
 */
export function initIpFamilies(svc: KubeObject, old?: KubeObject): void {
  const spec = rec(svc.spec);
  if (!isObject(svc.spec)) return;
  normalizeClusterIPs(svc, old);
  if (spec.type === 'ExternalName') return;
  const headlessAlone =
    spec.clusterIP === 'None' && (!isObject(spec.selector) || Object.keys(spec.selector).length === 0);
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    const was = old && rec(old.spec).type !== 'ExternalName' ? rec(old.spec).ipFamilyPolicy : undefined;
    spec.ipFamilyPolicy = was ?? (headlessAlone ? 'RequireDualStack' : 'SingleStack');
  }
  const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
  if (families.length === 0) spec.ipFamilies = ['IPv4'];
  if (headlessAlone && spec.ipFamilyPolicy !== 'SingleStack' && families.length < 2) {
    spec.ipFamilies = [...(spec.ipFamilies as string[]), 'IPv6'];
  }
}
