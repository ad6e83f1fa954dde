/**
 * The EndpointSlice (discovery.k8s.io/v1): its ports' defaults (pkg/apis/discovery/v1/defaults.go
 * `SetDefaults_EndpointPort`), validation (./endpointslice-validation.ts), strategy
 * (pkg/registry/discovery/endpointslice/strategy.go: generation 1 on create, bumped by any change
 * but metadata's or by the labels'; `deprecatedTopology` dropped from v1 writes; a POST creates,
 * a PUT need not name the resourceVersion) and Table (printers.go `printEndpointSlice`,
 * `formatDiscoveryPorts`, `formatDiscoveryEndpoints`).
 *
 * The strategy's warnings: an FQDN address type (on create) and addresses in a non-standard or
 * non-canonical form (apimachinery `GetWarningsForIP`), except in the controllers' slices.
 * `hints.forNodes` stays: PreferSameTrafficDistribution is GA and on.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { objects, sameJson, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import { parseIPSloppy } from '../core/endpoint-ip.js';
import { goQuote } from '../field-value.js';
import { ipString } from '../networking/ip.js';
import type { ResourceKind } from '../types.js';
import { validateEndpointSlice } from './endpointslice-validation.js';

/**
 * `SetDefaults_EndpointPort`: a port without a name is named "", without a protocol is TCP. And
 * what Go's json writes of the typed object: the `endpoints` and `ports` lists have no omitempty
 * (a missing one is `null`), an endpoint's `conditions` is a struct (`{}` when empty).
 */
export function defaultEndpointSlice(obj: KubeObject): void {
  if (obj.endpoints === undefined) obj.endpoints = null;
  if (obj.ports === undefined) obj.ports = null;
  for (const endpoint of objects(obj.endpoints)) {
    if (endpoint.conditions === undefined || endpoint.conditions === null) endpoint.conditions = {};
  }
  for (const port of objects(obj.ports)) {
    if (port.name === undefined || port.name === null) port.name = '';
    if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
}

/**
 * strategy.go `dropTopologyOnV1`: a v1 write keeps no `deprecatedTopology` (no stored slice has
 * one to carry a node name over from, as only v1 is served), unless an update leaves the
 * endpoints as they were.
 */
function dropTopology(obj: KubeObject, old?: KubeObject): void {
  if (old && sameJson(old.endpoints ?? [], obj.endpoints ?? [])) return;
  for (const endpoint of objects(obj.endpoints)) delete endpoint.deprecatedTopology;
}

/** The managed-by values of the controllers that write canonical addresses (strategy.go `warnOnBadIPs`). */
const CANONICAL_WRITERS = ['endpointslice-controller.k8s.io', 'endpointslicemirroring-controller.k8s.io'];

/**
 * apimachinery `GetWarningsForIP`: an address ParseIPSloppy reads (octets of any length) that
 * netip refuses (a leading 0, an IPv4-mapped IPv6 form), or an IPv6 one not in RFC 5952 form.
 */
function ipWarning(path: string, value: string): string | undefined {
  const bytes = parseIPSloppy(value);
  if (!bytes) return undefined;
  const v4 = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255;
  const canonical = ipString(bytes);
  const octets = value.slice(value.lastIndexOf(':') + 1).split('.');
  const leadingZero = octets.length === 4 && octets.some((o) => o.length > 1 && o.startsWith('0'));
  if (leadingZero || (v4 && value.includes(':'))) {
    return `${path}: non-standard IP address ${goQuote(value)} is invalid: use ${goQuote(canonical)}`;
  }
  if (!v4 && canonical !== value) {
    return `${path}: IPv6 address ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(canonical)})`;
  }
  return undefined;
}

/** strategy.go `WarningsOnCreate` (`old` undefined) and `WarningsOnUpdate`. */
export function endpointSliceWarnings(obj: KubeObject, old?: KubeObject): string[] {
  const warnings: string[] = [];
  if (!old && obj.addressType === 'FQDN') warnings.push('spec.addressType: FQDN endpoints are deprecated');
  const managedBy = (obj.metadata?.labels as Record<string, string> | undefined)?.[
    'endpointslice.kubernetes.io/managed-by'
  ];
  if (managedBy !== undefined && CANONICAL_WRITERS.includes(managedBy)) return warnings;
  objects(obj.endpoints).forEach((endpoint, i) => {
    (Array.isArray(endpoint.addresses) ? endpoint.addresses : []).forEach((a, j) => {
      const w = ipWarning(`endpoints[${i}].addresses[${j}]`, str(a));
      if (w) warnings.push(w);
    });
  });
  return warnings;
}

/** printers.go `listWithMoreString`: the list, `+ N more...` past 3, `<unset>` when empty. */
function listWithMore(list: string[], count: number): string {
  const max = 3;
  if (count > max) return `${list.slice(0, max).join(',')} + ${count - max} more...`;
  return list.length === 0 ? '<unset>' : list.join(',');
}

/** `formatDiscoveryPorts`: each port's number, else its name (defaulted to ""), else `*`. */
export function formatDiscoveryPorts(obj: KubeObject): string {
  const ports = objects(obj.ports).map((p) =>
    typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*',
  );
  return listWithMore(ports, ports.length);
}

/** `formatDiscoveryEndpoints`: every address of every endpoint. */
export function formatDiscoveryEndpoints(obj: KubeObject): string {
  const addresses = objects(obj.endpoints).flatMap((e) =>
    Array.isArray(e.addresses) ? e.addresses.map(str) : [],
  );
  return listWithMore(addresses, addresses.length);
}

/** The EndpointSlice's entry in the served kinds. */
export const endpointSliceKind: ResourceKind = builtinKind('discovery.k8s.io', 'v1', 'endpointslices', {
  defaults: defaultEndpointSlice,
  validate: validateEndpointSlice,
  warnings: endpointSliceWarnings,
  prepareForCreate: (obj) => dropTopology(obj),
  prepareForUpdate: (obj, old) => dropTopology(obj, old),
  // PrepareForUpdate: anything but the metadata, or the labels, bumps the generation.
  generationFields: ['addressType', 'endpoints', 'ports', 'metadata.labels'],
  cells: {
    AddressType: (o) => str(o.addressType),
    Ports: (o) => formatDiscoveryPorts(o),
    Endpoints: (o) => formatDiscoveryEndpoints(o),
    Age: ageColumn.cell,
  },
});
