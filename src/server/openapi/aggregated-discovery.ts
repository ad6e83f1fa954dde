/**
 * Aggregated discovery (apidiscovery.k8s.io): the one document kubectl reads for `/api` and
 * `/apis` when it asks for it (endpoints/discovery/aggregated).
 */
import type { ResourceKind } from '../kinds/types.js';
import { discoveryVerbs, groupVersionsOf, kindsIn, subresourceVerbs } from './discovery.js';

/** The aggregated discovery versions this server can answer. */
export type AggregatedDiscoveryVersion = 'v2';

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
      responseKind: sub.kind ? { ...sub.kind } : { ...responseKind },
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
