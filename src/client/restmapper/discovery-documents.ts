/**
 * Reading what a server serves: every group, its versions in preference
 * order, and each version's resources, from aggregated discovery (one
 * request for `/api`, one for `/apis`) when the server offers it, else from
 * legacy discovery (the group list, then one request per group version), as
 * client-go's discovery client does (discovery_client.go,
 * `ServerGroupsAndResources` over `downloadAPIs`). The one reader of those
 * documents: the RESTMapper (restmapper.ts) and the garbage collector's
 * choice of resources (controllers/deletable-resources.ts) both start here.
 */
import { StatusError } from '../../protocol/status.js';
import type { Transport } from '../http/transport.js';

/** One resource of one group version, as discovery describes it (subresources left out). */
export interface DiscoveredResource {
  /** The plural, the path segment: `widgets`. */
  plural: string;
  /** `widget`; discovery's `singularName`, else the lowercased kind (client-go's guess for old servers). */
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** The verbs it supports (`get`, `list`, `watch`, `delete`...), as the garbage collector picks resources by them. */
  verbs: string[];
}

/** One version of a group and its resources. */
export interface DiscoveredVersion {
  version: string;
  resources: DiscoveredResource[];
}

/** A group ("" is the core group) with its versions, the preferred one first. */
export interface DiscoveredGroup {
  name: string;
  versions: DiscoveredVersion[];
}

/** Everything discovery said, groups in the server's priority order (core first), and how it was read. */
export interface DiscoverySnapshot {
  groups: DiscoveredGroup[];
  /** `aggregated` (apidiscovery.k8s.io/v2) or `legacy`. */
  source: 'aggregated' | 'legacy';
  /** Requests it took. */
  requests: number;
}

/** The Content-Type kube-apiserver answers aggregated discovery with; only this body is read as one (client-go checks it too). */
const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
/** Aggregated v2 first, plain JSON (legacy) after, as client-go's `acceptDiscoveryFormats` minus v2beta1. */
const ACCEPT = `${AGGREGATED_V2},application/json`;

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
        singularResource?: string;
        shortNames?: string[];
        categories?: string[];
        verbs?: string[];
      }>;
    }>;
  }>;
}

interface LegacyResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
}

interface LegacyGroupList {
  groups?: Array<{
    name: string;
    versions: Array<{ version: string }>;
    preferredVersion?: { version: string };
  }>;
}

/** Reads every group and resource the server serves. Fails only when the group lists cannot be read. */
export async function discoverResources(
  transport: Transport,
  signal?: AbortSignal,
): Promise<DiscoverySnapshot> {
  const [core, groups] = await Promise.all([
    transport.request({ path: '/api', accept: ACCEPT, signal, discovery: true }),
    transport.request({ path: '/apis', accept: ACCEPT, signal, discovery: true }),
  ]);
  if (isAggregated(core.headers['content-type']) && isAggregated(groups.headers['content-type'])) {
    return {
      groups: [...fromAggregated(parse(core.body)), ...fromAggregated(parse(groups.body))],
      source: 'aggregated',
      requests: 2,
    };
  }
  const legacy = parse<LegacyGroupList>(groups.body);
  const wanted: Array<{ name: string; versions: string[] }> = [{ name: '', versions: ['v1'] }];
  for (const g of legacy.groups ?? []) {
    const preferred = g.preferredVersion?.version;
    const versions = g.versions.map((v) => v.version);
    // The preferred version first (client-go's NewDiscoveryRESTMapper puts it first too).
    wanted.push({
      name: g.name,
      versions: preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions,
    });
  }
  const read = await Promise.all(
    wanted.map(async (g) => ({
      name: g.name,
      versions: (
        await Promise.all(g.versions.map((version) => legacyVersion(transport, g.name, version, signal)))
      ).filter((v): v is DiscoveredVersion => v !== undefined),
    })),
  );
  const requests = 2 + wanted.reduce((n, g) => n + g.versions.length, 0);
  return { groups: read, source: 'legacy', requests };
}

/** One group version's resources; undefined when it is gone (404: deleted since the group list was read). */
async function legacyVersion(
  transport: Transport,
  group: string,
  version: string,
  signal?: AbortSignal,
): Promise<DiscoveredVersion | undefined> {
  const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
  try {
    const list = await transport.json<{ resources?: LegacyResource[] }>({ path, signal, discovery: true });
    const resources = (list.resources ?? [])
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({
        plural: r.name,
        singular: r.singularName || r.kind.toLowerCase(),
        kind: r.kind,
        namespaced: r.namespaced,
        shortNames: r.shortNames ?? [],
        categories: r.categories ?? [],
        verbs: r.verbs ?? [],
      }));
    return { version, resources };
  } catch (err) {
    // client-go reports a failed group version and goes on with the rest (ErrGroupDiscoveryFailed).
    if (err instanceof StatusError && (err.code === 404 || err.code === 503)) return undefined;
    throw err;
  }
}

function fromAggregated(list: AggregatedList): DiscoveredGroup[] {
  return (list.items ?? []).map((g) => ({
    name: g.metadata?.name ?? '',
    versions: (g.versions ?? [])
      // A Stale version's resources could not be read by the aggregator: client-go treats it as failed.
      .filter((v) => v.freshness !== 'Stale')
      .map((v) => ({
        version: v.version,
        resources: (v.resources ?? []).map((r) => {
          const kind = r.responseKind?.kind ?? '';
          return {
            plural: r.resource,
            singular: r.singularResource || kind.toLowerCase(),
            kind,
            namespaced: r.scope === 'Namespaced',
            shortNames: r.shortNames ?? [],
            categories: r.categories ?? [],
            verbs: r.verbs ?? [],
          };
        }),
      })),
  }));
}

function isAggregated(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').replace(/\s+/g, '') === AGGREGATED_V2;
}

function parse<T = AggregatedList>(body: Buffer): T {
  return JSON.parse(body.toString('utf8')) as T;
}
