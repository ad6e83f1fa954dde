/**
 * The resources the garbage collector watches: every resource discovery
 * lists at its group's preferred version that supports `delete`, `list` and
 * `watch`, less the ignored ones (kube-controller-manager's
 * pkg/controller/garbagecollector/garbagecollector.go,
 * `GetDeletableResources` over client-go's `ServerPreferredResources` and
 * `SupportsAllVerbs{delete, list, watch}`; graph_builder.go,
 * `DefaultIgnoredResources`: core and events.k8s.io `events`).
 *
 * Discovery is read by the client's one reader
 * (client/restmapper/discovery-documents.ts: aggregated when the server
 * offers it, else legacy, as client-go's discovery client), afresh on every
 * call: the collector asks again whenever definitions change, so it must
 * not see the RESTMapper's kept snapshot.
 */

import type { Transport } from '../client/http/transport.js';
import { discoverResources } from '../client/restmapper/discovery-documents.js';
import { apiVersionOf, type ResourceType } from '../client/watch/resources.js';

const REQUIRED_VERBS = ['delete', 'list', 'watch'];
/** graph_builder.go, `ignoredResources`: the GC never watches events. */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

/** `group/version/plural`: how a deletable resource is told apart from another. */
export function resourceId(t: Pick<ResourceType, 'group' | 'version' | 'plural'>): string {
  return `${apiVersionOf(t)}/${t.plural}`;
}

/**
 * The deletable resources, one per group and resource: the version the
 * group prefers when it serves the resource, else the next version in the
 * server's order that does (client-go's `ServerPreferredResources`).
 */
export async function deletableResources(
  transport: Transport,
  signal?: AbortSignal,
): Promise<ResourceType[]> {
  const out: ResourceType[] = [];
  for (const g of (await discoverResources(transport, signal)).groups) {
    const seen = new Set<string>();
    for (const v of g.versions) {
      for (const r of v.resources) {
        if (seen.has(r.plural)) continue;
        seen.add(r.plural);
        if (IGNORED.has(`${g.name}/${r.plural}`)) continue;
        if (!REQUIRED_VERBS.every((verb) => r.verbs.includes(verb))) continue;
        out.push({
          group: g.name,
          version: v.version,
          kind: r.kind,
          plural: r.plural,
          namespaced: r.namespaced,
        });
      }
    }
  }
  return out;
}
