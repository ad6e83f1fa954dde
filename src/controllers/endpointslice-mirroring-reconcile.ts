/**
 * What the EndpointSlice mirroring controller writes for one custom Endpoints
 * (pkg/controller/endpointslicemirroring reconciler.go, reconciler_helpers.go, utils.go): the
 * subsets packed (`RepackSubsets`), each address an endpoint of the slice for its address family
 * and port set (ready or not as in the subset, at most `maxEndpointsPerSubset` a subset), one slice
 * per address family and port set, named `<endpoints>-<random>`, owned by the Endpoints,
 * labelled with its labels plus the service name and managed-by labels, annotated with its
 * annotations but the last-change trigger time and last-applied configuration. An existing
 * slice is rewritten only when its endpoints, labels, annotations or owner differ; slices no
 * longer wanted are deleted, or renamed into a slice to create (`recycleSlices`).
 */
import { isIP } from 'node:net';
import type { KubeObject } from '../protocol/events.js';
import { canonical } from './endpoints-pods.js';
import { type EndpointAddress, type EndpointSubset, repackSubsets } from './endpoints-repack.js';

/** The managed-by value of mirrored slices (`ControllerName`). */
export const MIRRORING_CONTROLLER_NAME = 'endpointslicemirroring-controller.k8s.io';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
/** An Endpoints labelled so is not mirrored (`discovery.LabelSkipMirror`). */
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
/** An Endpoints used as a leader-election lock is not mirrored (`LeaderElectionRecordAnnotationKey`). */
export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** An Endpoints object. */
export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[] | null;
}

/** An EndpointSlice's port. */
export interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

/** One endpoint of a slice. */
export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean };
  targetRef?: EndpointAddress['targetRef'];
  nodeName?: string;
  hostname?: string;
}

/** An EndpointSlice. */
export interface Slice extends KubeObject {
  addressType?: string;
  endpoints?: SliceEndpoint[] | null;
  ports?: SlicePort[] | null;
}

/** What to write: slices to create, update and delete. */
export interface SliceChanges {
  create: Slice[];
  update: Slice[];
  delete: Slice[];
  /** Addresses left out beyond the per-subset maximum (a TooManyAddressesToMirror event). */
  skipped: number;
}

/** `shouldMirror`: neither labelled to skip mirroring nor a leader-election lock. */
export function shouldMirror(ep: Endpoints | undefined): boolean {
  if (!ep) return false;
  return (
    ep.metadata?.labels?.[SKIP_MIRROR_LABEL] !== 'true' &&
    !(LEADER_ANNOTATION in (ep.metadata?.annotations ?? {}))
  );
}

/** `addrTypePortMapKey`: the address family and the port set, in any order. */
function portMapKey(ports: readonly SlicePort[] | null | undefined, addressType: string): string {
  const sorted = (ports ?? []).map(canonical).sort();
  return `${addressType}-${sorted.join('|')}`;
}

/** `addressToEndpoint`: the endpoint of one address and its family; undefined for an IP that does not parse. */
function addressToEndpoint(
  a: EndpointAddress,
  ready: boolean,
): { endpoint: SliceEndpoint; family: string } | undefined {
  const v = isIP(a.ip);
  if (v === 0) return undefined;
  const endpoint: SliceEndpoint = { addresses: [a.ip], conditions: { ready } };
  if (a.targetRef) endpoint.targetRef = a.targetRef;
  if (a.nodeName !== undefined) endpoint.nodeName = a.nodeName;
  if (a.hostname) endpoint.hostname = a.hostname;
  return { endpoint, family: v === 4 ? 'IPv4' : 'IPv6' };
}

function withoutKeys(map: Record<string, string> | undefined, ...keys: string[]): Record<string, string> {
  const out = { ...(map ?? {}) };
  for (const k of keys) delete out[k];
  return out;
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return canonical(a ?? {}) === canonical(b ?? {});
}

/** `newEndpointSlice`: a slice for this Endpoints, named `name` or generated from `<endpoints>-`. */
function newSlice(ep: Endpoints, ports: SlicePort[], addressType: string, name: string | undefined): Slice {
  const m = ep.metadata ?? {};
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...(name ? { name } : { generateName: `${m.name}-` }),
      namespace: m.namespace,
      labels: {
        ...(m.labels ?? {}),
        [SERVICE_NAME_LABEL]: m.name ?? '',
        [MANAGED_BY_LABEL]: MIRRORING_CONTROLLER_NAME,
      },
      annotations: withoutKeys(m.annotations, TRIGGER_TIME, LAST_APPLIED),
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Endpoints',
          name: m.name ?? '',
          uid: m.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType,
    endpoints: [],
    ports,
  };
}

/** `reconcile` and `recycleSlices`: the writes that make the mirrored slices match the Endpoints. */
export function reconcileSlices(
  ep: Endpoints,
  existing: readonly Slice[],
  maxPerSubset: number,
): SliceChanges {
  const desired = new Map<
    string,
    { ports: SlicePort[]; family: string; endpoints: Map<string, SliceEndpoint> }
  >();
  let skipped = 0;
  for (const subset of repackSubsets(ep.subsets ?? [])) {
    const ports: SlicePort[] = (subset.ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: p.port,
      protocol: p.protocol ?? '',
      ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
    }));
    const keys: Record<string, string> = {};
    for (const family of ['IPv4', 'IPv6']) {
      const k = portMapKey(ports, family);
      keys[family] = k;
      if (!desired.has(k)) desired.set(k, { ports, family, endpoints: new Map() });
      else desired.get(k)!.ports = ports;
    }
    const total = (subset.addresses ?? []).length + (subset.notReadyAddresses ?? []).length;
    let added = 0;
    const add = (list: EndpointAddress[] | undefined, ready: boolean) => {
      for (const a of list ?? []) {
        if (added >= maxPerSubset) break;
        const e = addressToEndpoint(a, ready);
        if (!e) continue;
        desired.get(keys[e.family]!)!.endpoints.set(canonical(e.endpoint), e.endpoint);
        added++;
      }
    };
    add(subset.addresses, true);
    add(subset.notReadyAddresses, false);
    skipped += total - added;
  }

  const byKey = new Map<string, Slice[]>();
  for (const s of existing) {
    const k = portMapKey(s.ports, s.addressType ?? '');
    byKey.set(k, [...(byKey.get(k) ?? []), s]);
  }
  const out: SliceChanges = { create: [], update: [], delete: [], skipped };
  for (const [k, want] of desired) {
    const have = byKey.get(k) ?? [];
    if (want.endpoints.size === 0) {
      out.delete.push(...have);
      continue;
    }
    if (have.length > 0) {
      out.delete.push(...have.slice(1));
      if (unchanged(ep, have[0]!, want.endpoints)) continue;
    }
    const slice = newSlice(ep, want.ports, want.family, have[0]?.metadata?.name);
    slice.endpoints = [...want.endpoints.values()].slice(0, maxPerSubset);
    (have.length > 0 ? out.update : out.create).push(slice);
  }
  for (const [k, have] of byKey) if (!desired.has(k)) out.delete.push(...have);
  recycle(out);
  return out;
}

/** Whether the existing slice already holds these endpoints, the Endpoints' labels and annotations, and its owner. */
function unchanged(ep: Endpoints, slice: Slice, want: ReadonlyMap<string, SliceEndpoint>): boolean {
  const have = slice.endpoints ?? [];
  if (have.length !== want.size || !have.every((e) => want.has(canonical(trimEndpoint(e))))) return false;
  if (
    !sameMap(ep.metadata?.labels, withoutKeys(slice.metadata?.labels, MANAGED_BY_LABEL, SERVICE_NAME_LABEL))
  )
    return false;
  if (
    !sameMap(withoutKeys(ep.metadata?.annotations, TRIGGER_TIME, LAST_APPLIED), slice.metadata?.annotations)
  )
    return false;
  // `needRebuildExistingSlices`: owned by an earlier Endpoints of the same name.
  const refs = (slice.metadata?.ownerReferences ?? []) as Array<{
    kind?: string;
    name?: string;
    uid?: string;
  }>;
  return !refs.some(
    (r) => r.kind === 'Endpoints' && r.name === ep.metadata?.name && r.uid !== ep.metadata?.uid,
  );
}

/** A stored endpoint as the mirroring writes it (the server adds nothing the comparison must see). */
function trimEndpoint(e: SliceEndpoint): SliceEndpoint {
  const out: SliceEndpoint = { addresses: e.addresses, conditions: { ready: e.conditions?.ready ?? false } };
  if (e.targetRef) out.targetRef = e.targetRef;
  if (e.nodeName !== undefined) out.nodeName = e.nodeName;
  if (e.hostname) out.hostname = e.hostname;
  return out;
}

/** `recycleSlices`: a slice to create of the family of one to delete takes that one's name instead. */
function recycle(changes: SliceChanges): void {
  for (const family of ['IPv4', 'IPv6']) {
    const creates = changes.create.filter((s) => s.addressType === family);
    const deletes = changes.delete.filter((s) => s.addressType === family);
    for (let i = 0; i < creates.length && i < deletes.length; i++) {
      const slice = creates[i]!;
      const old = deletes[i]!;
      changes.create = changes.create.filter((s) => s !== slice);
      changes.delete = changes.delete.filter((s) => s !== old);
      const { generateName: _, ...meta } = slice.metadata ?? {};
      slice.metadata = { ...meta, name: old.metadata?.name };
      changes.update.push(slice);
    }
  }
}
