/**
 * The resources the garbage collector watches: every resource discovery
 * lists at its group's preferred version that supports `delete`, `list` and
 * `watch`, less the ignored ones (kube-controller-manager's
 * pkg/controller/garbagecollector/garbagecollector.go,
 * `GetDeletableResources` over client-go's `ServerPreferredResources` and
 * `SupportsAllVerbs{delete, list, watch}`; graph_builder.go,
 * `DefaultIgnoredResources`: core and events.k8s.io `events`).
 *
 * Read here rather than through the client's RESTMapper because the mapper
 * keeps no verbs. Aggregated discovery (apidiscovery.k8s.io/v2, two
 * requests) when the server offers it, else legacy (one request per group
 * version), as client-go's discovery client.
 */

import type { Transport } from '../client/http/transport.js';
import { apiVersionOf, type ResourceType } from '../client/watch/resources.js';
import { StatusError } from '../protocol/status.js';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const REQUIRED_VERBS = ['delete', 'list', 'watch'];
/** graph_builder.go, `ignoredResources`: the GC never watches events. */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

/** One resource as discovery lists it, with its verbs. */
interface Listed {
  plural: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

interface GroupVersions {
  group: string;
  /** Preferred first. */
  versions: Array<{ version: string; resources: Listed[] }>;
}

interface AggregatedList {
  items?: Array<{
    metadata?: { name?: string };
    versions?: Array<{
      version: string;
      freshness?: string;
      resources?: Array<{
        resource: string;
        responseKind?: { kind?: string };
        scope?: string;
        verbs?: string[];
      }>;
    }>;
  }>;
}

interface LegacyGroups {
  groups?: Array<{
    name: string;
    versions: Array<{ version: string }>;
    preferredVersion?: { version: string };
  }>;
}

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
  for (const g of await readGroups(transport, signal)) {
    const seen = new Set<string>();
    for (const v of g.versions) {
      for (const r of v.resources) {
        if (seen.has(r.plural)) continue;
        seen.add(r.plural);
        if (IGNORED.has(`${g.group}/${r.plural}`)) continue;
        if (!REQUIRED_VERBS.every((verb) => r.verbs.includes(verb))) continue;
        out.push({
          group: g.group,
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

async function readGroups(transport: Transport, signal?: AbortSignal): Promise<GroupVersions[]> {
  const accept = `${AGGREGATED},application/json`;
  const [core, groups] = await Promise.all([
    transport.request({ path: '/api', accept, signal, discovery: true }),
    transport.request({ path: '/apis', accept, signal, discovery: true }),
  ]);
  if (aggregated(core.headers['content-type']) && aggregated(groups.headers['content-type'])) {
    return [...fromAggregated(parse(core.body)), ...fromAggregated(parse(groups.body))];
  }
  const wanted = [{ group: '', versions: ['v1'] }];
  for (const g of parse<LegacyGroups>(groups.body).groups ?? []) {
    const preferred = g.preferredVersion?.version;
    const versions = g.versions.map((v) => v.version);
    wanted.push({
      group: g.name,
      versions: preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions,
    });
  }
  return Promise.all(
    wanted.map(async (g) => ({
      group: g.group,
      versions: (
        await Promise.all(g.versions.map((v) => legacyVersion(transport, g.group, v, signal)))
      ).filter((v): v is { version: string; resources: Listed[] } => v !== undefined),
    })),
  );
}

async function legacyVersion(
  transport: Transport,
  group: string,
  version: string,
  signal?: AbortSignal,
): Promise<{ version: string; resources: Listed[] } | undefined> {
  const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  try {
    const list = await transport.json<{ resources?: Array<Listed & { name: string }> }>({
      path,
      signal,
      discovery: true,
    });
    const resources = (list.resources ?? [])
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({ plural: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [] }));
    return { version, resources };
  } catch (err) {
    // A group version gone since the list was read: client-go reports it failed and goes on.
    if (err instanceof StatusError && (err.code === 404 || err.code === 503)) return undefined;
    throw err;
  }
}

function fromAggregated(list: AggregatedList): GroupVersions[] {
  return (list.items ?? []).map((g) => ({
    group: g.metadata?.name ?? '',
    versions: (g.versions ?? [])
      .filter((v) => v.freshness !== 'Stale')
      .map((v) => ({
        version: v.version,
        resources: (v.resources ?? []).map((r) => ({
          plural: r.resource,
          kind: r.responseKind?.kind ?? '',
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs ?? [],
        })),
      })),
  }));
}

function aggregated(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').replace(/\s+/g, '') === AGGREGATED;
}

function parse<T = AggregatedList>(body: Buffer): T {
  return JSON.parse(body.toString('utf8')) as T;
}
