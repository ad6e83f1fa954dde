/**
 * Legacy discovery (meta/v1 `APIVersions`, `APIGroupList`, `APIGroup`, `APIResourceList`): what
 * `/api`, `/apis`, `/apis/<g>`, `/api/v1` and `/apis/<g>/<v>` answer without the aggregated
 * Accept, one group-version at a time.
 */
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { storageVersionHash } from './custom-discovery.js';
import { discoveryVerbs, groupVersionsOf, kindsIn, subresourceVerbs } from './discovery.js';

/** `GroupVersionForDiscovery`. */
export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

/** A meta/v1 `APIGroup` (one entry of `/apis`, or the body of `/apis/<g>`). */
export interface APIGroup {
  kind?: 'APIGroup';
  apiVersion?: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

/** A meta/v1 `APIResource` entry of `/api/v1` or `/apis/<g>/<v>`. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

/** A meta/v1 `APIResourceList`. */
export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

/**
 * Legacy `/api`: `APIVersions`. `serverAddress` (host:port as the client reached us) fills
 * `serverAddressByClientCIDRs`, which kubectl ignores but the type requires.
 */
export function legacyApiVersions(
  kinds: readonly ResourceKind[],
  serverAddress?: string,
): {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: Array<{ clientCIDR: string; serverAddress: string }>;
} {
  return {
    kind: 'APIVersions',
    versions: groupVersionsOf(kinds)
      .filter((gv) => gv.group === '')
      .map((gv) => gv.version),
    serverAddressByClientCIDRs: serverAddress ? [{ clientCIDR: '0.0.0.0/0', serverAddress }] : [],
  };
}

function apiGroup(kinds: readonly ResourceKind[], group: string): APIGroup | undefined {
  const versions = groupVersionsOf(kinds)
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: apiVersionOf(gv), version: gv.version }));
  const preferred = versions[0];
  if (!preferred) return undefined;
  return { name: group, versions, preferredVersion: { ...preferred } };
}

/** Legacy `/apis`: `APIGroupList` of the non-core groups, each with its preferred version. */
export function legacyApiGroupList(kinds: readonly ResourceKind[]): {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
} {
  const names = [...new Set(groupVersionsOf(kinds).map((gv) => gv.group))].filter((g) => g !== '');
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: names.map((g) => apiGroup(kinds, g)!),
  };
}

/** Legacy `/apis/<group>`: one `APIGroup`, or undefined (answer 404) for an unknown group. */
export function legacyApiGroup(kinds: readonly ResourceKind[], group: string): APIGroup | undefined {
  if (group === '') return undefined;
  const found = apiGroup(kinds, group);
  return found && { kind: 'APIGroup', apiVersion: 'v1', ...found };
}

/**
 * The version a built-in kind is stored in. kube-apiserver still stores
 * CustomResourceDefinitions as apiextensions.k8s.io/v1beta1
 * (apiextensions-apiserver's storage codec), so their hash is v1beta1's.
 */
function storedAs(k: ResourceKind): string {
  return k.group === 'apiextensions.k8s.io' && k.kind === 'CustomResourceDefinition' ? 'v1beta1' : k.version;
}

/**
 * Legacy `/api/v1` (group "") or `/apis/<group>/<version>`: the `APIResourceList`, with
 * `<plural>/status` and `<plural>/scale` entries; undefined (answer 404) for an unknown
 * group-version. A missing `kind` here makes kubectl's RESTMapper mix kinds up, so it is always set.
 */
export function legacyApiResourceList(
  kinds: readonly ResourceKind[],
  group: string,
  version: string,
): APIResourceList | undefined {
  const served = kindsIn(kinds, group, version);
  if (served.length === 0) return undefined;
  const resources: APIResource[] = [];
  for (const k of served) {
    const main: APIResource = {
      name: k.plural,
      singularName: k.singular,
      namespaced: k.namespaced,
      kind: k.kind,
      verbs: discoveryVerbs(k),
    };
    if (k.shortNames.length > 0) main.shortNames = [...k.shortNames];
    if (k.categories.length > 0) main.categories = [...k.categories];
    // kube-apiserver gives every resource its storage version's hash (endpoints/installer.go).
    main.storageVersionHash = storageVersionHash(k.group, k.custom?.storageVersion ?? storedAs(k), k.kind);
    resources.push(main);
    for (const sub of subresourceVerbs(k)) {
      const entry: APIResource = {
        name: `${k.plural}/${sub.name}`,
        singularName: '',
        namespaced: k.namespaced,
        kind: k.kind,
        verbs: sub.verbs,
      };
      const own = sub.kind;
      if (own?.group) Object.assign(entry, own);
      else if (own) entry.kind = own.kind;
      resources.push(entry);
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version }),
    resources,
  };
}
