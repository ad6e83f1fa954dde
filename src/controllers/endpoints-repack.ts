/**
 * Endpoints subsets and their canonical packing (pkg/api/v1/endpoints/util.go `RepackSubsets`):
 * every address once per port, an address not ready on a port staying not ready, the ports that
 * hold the same addresses in one subset, addresses sorted by IP then pod uid.
 *
 * The ports of a subset are ordered as upstream's, by the FNV-128a hash of their Go printing;
 * subsets of different port sets (upstream: by the hash of the whole subset's printing) are ordered
 * here by their first port's, then their first address.
 */

/** A `v1.ObjectReference` as the controller writes it (Go's field order). */
export interface TargetRef {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
}

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: TargetRef;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

const NO_PORT = '\u0000none';

function addressKey(a: EndpointAddress): string {
  return `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
}

function portKey(p: EndpointPort): string {
  return JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null]);
}

/** `LessEndpointAddress`: by IP bytes, then target uid (none first). */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid;
  const ub = b.targetRef?.uid;
  if (ua === ub) return 0;
  if (ua === undefined) return -1;
  if (ub === undefined) return 1;
  return ua < ub ? -1 : 1;
}

const FNV128_OFFSET = 0x6c62272e07bb014262b821756295c58dn;
const FNV128_PRIME = 0x0000000001000000000000000000013bn;
const MASK128 = (1n << 128n) - 1n;

/** FNV-1a, 128 bits (Go's hash/fnv `New128a`), of a text's UTF-8 bytes. */
export function fnv128a(text: string): bigint {
  let hash = FNV128_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * FNV128_PRIME) & MASK128;
  return hash;
}

/**
 * What pkg/util/hash `DeepHashObject` feeds the hasher for a port: k8s.io/utils dump `ForHash`,
 * spew's `%#v` with methods off and pointers followed.
 */
export function portPrinted(p: EndpointPort): string {
  const app = p.appProtocol === undefined ? '<nil>' : p.appProtocol;
  return `(v1.EndpointPort){Name:(string)${p.name ?? ''} Port:(int32)${p.port} Protocol:(v1.Protocol)${p.protocol ?? ''} AppProtocol:(*string)${app}}`;
}

/** `portsByHash`: by the FNV-128a hash of each port's printing. */
function comparePorts(a: EndpointPort, b: EndpointPort): number {
  const ha = fnv128a(portPrinted(a));
  const hb = fnv128a(portPrinted(b));
  return ha < hb ? -1 : ha > hb ? 1 : 0;
}

/** `RepackSubsets`. */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  const ports = new Map<string, { port?: EndpointPort; ready: Map<string, boolean> }>();
  const map = (a: EndpointAddress, pk: string, port: EndpointPort | undefined, ready: boolean) => {
    const ak = addressKey(a);
    if (!addresses.has(ak)) addresses.set(ak, a);
    let entry = ports.get(pk);
    if (!entry) {
      entry = { port, ready: new Map() };
      ports.set(pk, entry);
    }
    const was = entry.ready.get(ak);
    if (was === undefined || was) entry.ready.set(ak, ready);
  };
  for (const s of subsets) {
    const list: Array<[string, EndpointPort | undefined]> =
      (s.ports ?? []).length === 0 ? [[NO_PORT, undefined]] : (s.ports ?? []).map((p) => [portKey(p), p]);
    for (const [pk, p] of list) {
      for (const a of s.addresses ?? []) map(a, pk, p, true);
      for (const a of s.notReadyAddresses ?? []) map(a, pk, p, false);
    }
  }
  // Ports holding the same addresses (with the same readiness) share a subset.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of ports.values()) {
    const key = JSON.stringify([...ready.entries()].sort());
    let group = groups.get(key);
    if (!group) {
      group = { ready, ports: [] };
      groups.set(key, group);
    }
    if (port && port.port > 0) group.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const { ready, ports: groupPorts } of groups.values()) {
    const readyAddrs: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [ak, isReady] of ready) (isReady ? readyAddrs : notReady).push(addresses.get(ak)!);
    readyAddrs.sort(compareAddresses);
    notReady.sort(compareAddresses);
    groupPorts.sort(comparePorts);
    out.push({
      ...(readyAddrs.length > 0 ? { addresses: readyAddrs } : {}),
      ...(notReady.length > 0 ? { notReadyAddresses: notReady } : {}),
      ...(groupPorts.length > 0 ? { ports: groupPorts } : {}),
    });
  }
  const first = (s: EndpointSubset) => s.addresses?.[0] ?? s.notReadyAddresses?.[0];
  return out.sort((a, b) => {
    const p = comparePorts(a.ports?.[0] ?? { port: 0 }, b.ports?.[0] ?? { port: 0 });
    if (p !== 0) return p;
    const fa = first(a);
    const fb = first(b);
    return fa && fb ? compareAddresses(fa, fb) : 0;
  });
}
