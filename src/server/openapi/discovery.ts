/**
 * API discovery bodies (`/api`, `/apis`, `/api/v1`, `/apis/<g>/<v>`) and `/version`, built from the
 * kind table. kubectl resolves every type name, short name and category (`po`, `deploy`, `all`)
 * through these answers, so a field left out here breaks commands far away (see
 * docs kubectl-needs §3): `responseKind`/`kind` and `scope`/`namespaced` are load-bearing.
 */
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { customDiscoveryVerbs, customSubresources, storageVersionHash } from './custom-discovery.js';

/** The Kubernetes version this server claims; kubectl's dispatcher picks its binary by major/minor. */
export const KUBE_GIT_VERSION = 'v1.33.1';

/** Verbs served on every main resource (sorted, as kube-apiserver lists them). */
export const RESOURCE_VERBS: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/**
 * The verbs `kind` serves on its main resource. Namespaces serve no
 * deletecollection: their REST storage (pkg/registry/core/namespace/storage/
 * storage.go, `REST`) wraps the generic store without a `DeleteCollection`, so
 * kube-apiserver registers no DELETE on `/api/v1/namespaces` (405) and lists
 * the verb nowhere. A collection delete that reached `default` would otherwise
 * mark every namespace before it Terminating.
 */
export function resourceVerbs(kind: Pick<ResourceKind, 'group' | 'plural'>): string[] {
  if (kind.group === '' && kind.plural === 'namespaces')
    return RESOURCE_VERBS.filter((v) => v !== 'deletecollection');
  return [...RESOURCE_VERBS];
}

/** The verbs discovery lists for `kind`: a custom resource's are its definition's (custom-discovery.ts). */
export function discoveryVerbs(kind: ResourceKind): string[] {
  return kind.custom ? customDiscoveryVerbs(kind) : resourceVerbs(kind);
}

/** Verbs served on the `status` and `scale` subresources. */
export const SUBRESOURCE_VERBS: readonly string[] = ['get', 'patch', 'update'];

/**
 * The subresources `kind` serves with their verbs, sorted by name as
 * kube-apiserver lists them: those of {@link ResourceKind.subresources}, and a
 * Namespace's `finalize`, which takes only `update` (FinalizeREST in
 * pkg/registry/core/namespace/storage/storage.go has no get).
 */
export function subresourceVerbs(kind: ResourceKind): Array<{ name: string; verbs: string[] }> {
  if (kind.custom) return customSubresources(kind, SUBRESOURCE_VERBS);
  const subs = kind.subresources.map((name) => ({ name: name as string, verbs: [...SUBRESOURCE_VERBS] }));
  if (kind.group === '' && kind.plural === 'namespaces') subs.push({ name: 'finalize', verbs: ['update'] });
  // A pod's binding (BindingREST, a NamedCreater of Binding objects): create only.
  if (kind.group === '' && kind.plural === 'pods') subs.push({ name: 'binding', verbs: ['create'] });
  return subs.sort((a, b) => a.name.localeCompare(b.name));
}

/** The kind a subresource answers with when it is not its parent's: a Scale, a Binding. */
function subresourceKind(name: string): { group: string; version: string; kind: string } | undefined {
  if (name === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  if (name === 'binding') return { group: '', version: 'v1', kind: 'Binding' };
  return undefined;
}

/** The aggregated discovery versions this server can answer. */
export type AggregatedDiscoveryVersion = 'v2';

/** A group and version served by at least one kind. */
export interface GroupVersion {
  /** "" for the core group. */
  group: string;
  version: string;
}

// ---------------------------------------------------------------------------
// Group-version ordering

/**
 * Orders versions the way kube-apiserver prefers them: GA before beta before alpha, higher
 * numbers first, anything unparseable last (alphabetically). The first is the preferred version.
 */
export function compareVersionPriority(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0];
    const stage = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
    return [stage, -Number(m[1]), -Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) {
    if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The group-versions served, core first, then the built-in groups in the order the kind table
 * first names them (that order is the server's group priority), then the custom resources'
 * groups by name: their APIServices all get group priority 1000 (apiextensions-apiserver's
 * crdregistration controller; aggregated/handler.go breaks ties by name), below every built-in
 * group served here. Within a group, preferred version first.
 */
export function groupVersionsOf(kinds: readonly ResourceKind[]): GroupVersion[] {
  const byGroup = new Map<string, Set<string>>();
  const core = kinds.filter((k) => k.group === '');
  const builtinGroups = new Set(kinds.filter((k) => !k.custom).map((k) => k.group));
  const builtins = kinds.filter((k) => k.group !== '' && builtinGroups.has(k.group));
  const custom = kinds
    .filter((k) => !builtinGroups.has(k.group))
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  for (const k of [...core, ...builtins, ...custom]) {
    const versions = byGroup.get(k.group) ?? new Set<string>();
    versions.add(k.version);
    byGroup.set(k.group, versions);
  }
  return [...byGroup].flatMap(([group, versions]) =>
    [...versions].sort(compareVersionPriority).map((version) => ({ group, version })),
  );
}

/** The kinds of one group-version, sorted by plural as kube-apiserver lists them. */
function kindsIn(kinds: readonly ResourceKind[], group: string, version: string): ResourceKind[] {
  return kinds
    .filter((k) => k.group === group && k.version === version)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Aggregated discovery (apidiscovery.k8s.io)

/** `apidiscovery.k8s.io` GroupVersionKind; `group` is "" (not omitted) for core. */
export interface DiscoveryGvk {
  group: string;
  version: string;
  kind: string;
}

/** One resource in an aggregated discovery document (`APIResourceDiscovery`). */
export interface APIResourceDiscovery {
  resource: string;
  responseKind: DiscoveryGvk;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Array<{ subresource: string; responseKind: DiscoveryGvk; verbs: string[] }>;
}

/** `APIGroupDiscoveryList`: the body of aggregated `/api` or `/apis`. */
export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: string;
  metadata: Record<string, never>;
  items: Array<{
    metadata: { name?: string };
    versions: Array<{ version: string; resources: APIResourceDiscovery[]; freshness: 'Current' }>;
  }>;
}

/**
 * The version a built-in kind is stored in. kube-apiserver still stores
 * CustomResourceDefinitions as apiextensions.k8s.io/v1beta1
 * (apiextensions-apiserver's storage codec), so their hash is v1beta1's.
 */
function storedAs(k: ResourceKind): string {
  return k.group === 'apiextensions.k8s.io' && k.kind === 'CustomResourceDefinition' ? 'v1beta1' : k.version;
}

function resourceDiscovery(k: ResourceKind): APIResourceDiscovery {
  // A built-in resource's kind is converted from its legacy APIResource, whose group and version
  // are empty when they are the group-version's own (endpoints/discovery/aggregated's
  // ConvertGroupVersionIntoToDiscovery): kube-apiserver answers "" for both.
  const responseKind = k.custom
    ? { group: k.group, version: k.version, kind: k.kind }
    : { group: '', version: '', kind: k.kind };
  const entry: APIResourceDiscovery = {
    resource: k.plural,
    responseKind,
    scope: k.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: k.singular,
    verbs: discoveryVerbs(k),
  };
  if (k.shortNames.length > 0) entry.shortNames = [...k.shortNames];
  if (k.categories.length > 0) entry.categories = [...k.categories];
  const subresources = subresourceVerbs(k);
  if (subresources.length > 0) {
    entry.subresources = subresources.map((sub) => ({
      subresource: sub.name,
      // A Scale is its own kind in autoscaling/v1 whatever group the parent lives in.
      responseKind: subresourceKind(sub.name) ?? { ...responseKind },
      verbs: sub.verbs,
    }));
  }
  return entry;
}

/**
 * The aggregated discovery document for `/api` (`scope: 'core'`: one item without a name) or
 * `/apis` (`scope: 'groups'`: one item per group, preferred version first). Send it with
 * {@link aggregatedContentType} or kubectl decodes it as an empty legacy list.
 */
export function aggregatedDiscovery(
  kinds: readonly ResourceKind[],
  scope: 'core' | 'groups',
  version: AggregatedDiscoveryVersion,
): APIGroupDiscoveryList {
  const byGroup = new Map<string, APIGroupDiscoveryList['items'][number]>();
  for (const gv of groupVersionsOf(kinds)) {
    if ((gv.group === '') !== (scope === 'core')) continue;
    let item = byGroup.get(gv.group);
    if (!item) {
      item = { metadata: gv.group ? { name: gv.group } : {}, versions: [] };
      byGroup.set(gv.group, item);
    }
    item.versions.push({
      version: gv.version,
      resources: kindsIn(kinds, gv.group, gv.version).map(resourceDiscovery),
      freshness: 'Current',
    });
  }
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: [...byGroup.values()],
  };
}

// ---------------------------------------------------------------------------
// Legacy discovery (meta/v1 APIVersions, APIGroupList, APIResourceList)

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
      const own = subresourceKind(sub.name);
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

// ---------------------------------------------------------------------------
// /version

/** The `/version` body (`version.Info`). */
export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor?: string;
  emulationMinor?: string;
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/**
 * The `/version` body. kubectl's dispatcher runs `kubectl.1.<minor>` for minors 27-33 and needs
 * `major`/`minor` to choose; `kubectl version` needs `gitVersion`. We report 1.33 so that the
 * dispatcher runs the newest binary. `gitCommit`/`buildDate` are this server's own placeholders,
 * not a real Kubernetes build's; the emulation fields are what a 1.33 server adds.
 */
export function versionInfo(): VersionInfo {
  return {
    major: '1',
    minor: '33',
    emulationMajor: '1',
    emulationMinor: '33',
    minCompatibilityMajor: '1',
    minCompatibilityMinor: '32',
    gitVersion: KUBE_GIT_VERSION,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-05-15T00:00:00Z',
    goVersion: 'go1.24.2',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
