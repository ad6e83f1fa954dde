/**
 * Which served resource a name means, over one discovery snapshot, the way
 * kubectl decides it. Pure functions; the RESTMapper (restmapper.ts) owns
 * the snapshot and its refresh. The rules, and where they come from:
 *
 * - kubectl's `ResourceBuilder.mappingFor` (cli-runtime resource/builder.go)
 *   tries the argument as a resource (`widgets.v1.example.com` as
 *   resource.version.group, then `widgets.example.com` as resource.group),
 *   then as a kind (`Widget.v1.example.com`, `Widget.example.com`), and
 *   fails with `the server doesn't have a resource type "widgets"`.
 * - client-go's shortcut expander (restmapper/shortcut.go,
 *   `expandResourceShortcut`) turns a short name into its resource unless
 *   the name is some resource's plural or singular; a short name two groups
 *   use goes to the first in discovery's (priority) order, with a warning
 *   `short name "x" could also match lower priority resource y.group`.
 * - apimachinery's PriorityRESTMapper (meta/priority.go, `ResourceFor`)
 *   picks among matches with the patterns `NewDiscoveryRESTMapper`
 *   (restmapper/discovery.go) builds: core v1, then each group's preferred
 *   version, then its other versions, then each group at any version; each
 *   pattern narrows the matches until one is left. So a plural two groups
 *   serve goes to the earlier group, and a resource served in two versions
 *   to the preferred one.
 * - DefaultRESTMapper (meta/restmapper.go) matches a resource name
 *   lowercased against plurals and singulars, a group exactly.
 */
import type { ResourceType } from '../watch/resources.js';
import type { DiscoveredGroup, DiscoveredResource } from './discovery-documents.js';

/** The name matches more than one resource and priority could not choose. */
export class AmbiguousResourceError extends Error {
  /** The candidates as `plural.version.group`. */
  readonly candidates: string[];

  constructor(name: string, candidates: string[]) {
    super(`${JSON.stringify(name)} matches more than one resource: ${candidates.join(', ')}`);
    this.name = 'AmbiguousResourceError';
    this.candidates = candidates;
  }
}

/** One resource of one group version, with where it sits in discovery's order. */
interface Entry {
  group: string;
  version: string;
  resource: DiscoveredResource;
}

interface Pattern {
  group: string;
  /** undefined: any version. */
  version?: string;
}

/** What the name matched against, flattened in discovery's order, and the priority patterns. */
export interface MatchIndex {
  entries: Entry[];
  patterns: Pattern[];
}

/** Indexes a snapshot's groups (in the server's priority order) for matching. */
export function indexGroups(groups: readonly DiscoveredGroup[]): MatchIndex {
  const entries: Entry[] = [];
  const patterns: Pattern[] = [{ group: '', version: 'v1' }];
  for (const g of groups) {
    g.versions.forEach((v, i) => {
      // versions[0] is the preferred one (discovery-documents.ts puts it first).
      if (i === 0 || !patterns.some((p) => p.group === g.name && p.version === v.version))
        patterns.push({ group: g.name, version: v.version });
      for (const resource of v.resources) entries.push({ group: g.name, version: v.version, resource });
    });
  }
  for (const g of groups) patterns.push({ group: g.name });
  return { entries, patterns };
}

/** The {@link ResourceType} of a matched entry. */
function typeOf(e: Entry): ResourceType {
  const { plural, kind, namespaced, shortNames } = e.resource;
  return {
    group: e.group,
    version: e.version,
    kind,
    plural,
    namespaced,
    ...(shortNames.length > 0 ? { shortNames: [...shortNames] } : {}),
  };
}

/** Narrows `matches` with the priority patterns (priority.go's loop); undefined when none is left alone. */
function pick(matches: Entry[], patterns: Pattern[]): Entry | undefined {
  if (matches.length <= 1) return matches[0];
  let remaining = matches;
  for (const p of patterns) {
    const hit = remaining.filter(
      (e) => e.group === p.group && (p.version === undefined || p.version === e.version),
    );
    if (hit.length === 1) return hit[0];
    if (hit.length > 1) remaining = hit;
  }
  return undefined;
}

interface ResourceQuery {
  group?: string;
  version?: string;
  resource: string;
}

/** shortcut.go's `expandResourceShortcut`. */
function expandShortcut(index: MatchIndex, q: ResourceQuery, warn?: (msg: string) => void): ResourceQuery {
  const inGroup = (e: Entry) => !q.group || e.group === q.group;
  // A plural or singular wins over any short name.
  if (
    index.entries.some(
      (e) => inGroup(e) && (e.resource.plural === q.resource || e.resource.singular === q.resource),
    )
  )
    return q;
  let found: Entry | undefined;
  const warned = new Set<string>();
  for (const e of index.entries) {
    if (!inGroup(e) || !e.resource.shortNames.includes(q.resource)) continue;
    if (!found) {
      found = e;
      continue;
    }
    if (e.group === found.group && e.resource.plural === found.resource.plural) continue;
    const other = e.group ? `${e.resource.plural}.${e.group}` : e.resource.plural;
    if (!warned.has(other)) {
      warned.add(other);
      warn?.(`short name ${JSON.stringify(q.resource)} could also match lower priority resource ${other}`);
    }
  }
  // The expanded form names group and resource only (shortcut.go builds a new GroupVersionResource).
  if (found) return { group: found.group, resource: found.resource.plural };
  if (!q.group) return q;
  // "autoscal" for "autoscaling": a short name in a group the given one begins.
  const prefixed = index.entries.find(
    (e) => e.group.startsWith(q.group!) && e.resource.shortNames.includes(q.resource),
  );
  return prefixed ? { group: prefixed.group, resource: prefixed.resource.plural } : q;
}

/** The one resource `q` means (KindFor through the shortcut expander); undefined when none or ambiguous. */
function resourceFor(index: MatchIndex, q: ResourceQuery, warn?: (msg: string) => void): Entry | undefined {
  const x = expandShortcut(index, q, warn);
  const name = x.resource.toLowerCase();
  const matches = index.entries.filter(
    (e) =>
      (!x.group || e.group === x.group) &&
      (!x.version || e.version === x.version) &&
      (e.resource.plural === name || e.resource.singular === name),
  );
  return pick(matches, index.patterns);
}

/** RESTMapping(groupKind, version): the kind in exactly that group (core is ""), at `version` first. */
function mappingFor(index: MatchIndex, group: string, kind: string, version?: string): Entry | undefined {
  const matches = index.entries.filter(
    (e) =>
      e.group === group &&
      (!version || e.version === version) &&
      (e.resource.kind === kind || e.resource.kind.toLowerCase() === kind),
  );
  if (matches.length <= 1) return matches[0];
  const found = pick(matches, version ? [{ group, version }, ...index.patterns] : index.patterns);
  if (!found) {
    throw new AmbiguousResourceError(
      kind,
      matches.map((e) => `${e.resource.kind}.${e.version}.${e.group}`),
    );
  }
  return found;
}

/** kubectl's split of `a.b.c`: the first part, and the rest as a group; with 2+ dots also part.version.group. */
function splitArg(arg: string): {
  first: string;
  group: string;
  versioned?: { version: string; group: string };
} {
  const dot = arg.indexOf('.');
  if (dot < 0) return { first: arg, group: '' };
  const first = arg.slice(0, dot);
  const rest = arg.slice(dot + 1);
  const dot2 = rest.indexOf('.');
  const versioned = dot2 < 0 ? undefined : { version: rest.slice(0, dot2), group: rest.slice(dot2 + 1) };
  return { first, group: rest, versioned };
}

/** What a name resolved to: the type, or the name kubectl's error quotes (the part before the first dot). */
export type NameMatch = { type: ResourceType } | { missing: string };

/**
 * Resolves a kubectl-style name (`widgets`, `widget`, `wg`, `Widget`,
 * `widgets.example.com`, `widgets.v1.example.com`, `Widget.v1.example.com`)
 * over `index`. A resource name that matches two resources priority cannot
 * order is a miss, as in kubectl (`mappingFor` ignores KindFor's error and
 * tries the name as a kind); {@link AmbiguousResourceError} is thrown only
 * where kubectl's last step (RESTMapping) fails for ambiguity.
 */
export function matchName(index: MatchIndex, arg: string, warn?: (msg: string) => void): NameMatch {
  const { first, group, versioned } = splitArg(arg);
  // As a resource: resource.version.group, then resource.group (or a bare resource).
  const byResource =
    (versioned && resourceFor(index, { ...versioned, resource: first }, warn)) ||
    resourceFor(index, group ? { group, resource: first } : { resource: first }, warn);
  if (byResource) return { type: typeOf(byResource) };
  // As a kind: Kind.version.group, then Kind.group (core when no group).
  const byKind =
    (versioned && mappingFor(index, versioned.group, first, versioned.version)) ||
    mappingFor(index, group, first);
  if (byKind) return { type: typeOf(byKind) };
  return { missing: first };
}

/** The type serving `kind` at exactly `apiVersion` (`example.com/v1`, `v1`), as RESTMapping(gk, version). */
export function matchKind(index: MatchIndex, apiVersion: string, kind: string): ResourceType | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const found = index.entries.find(
    (e) => e.group === group && e.version === version && e.resource.kind === kind,
  );
  return found && typeOf(found);
}

/** Every resource in `category` (`all`), preferred versions only, in discovery's order (category_expansion.go). */
export function matchCategory(index: MatchIndex, category: string): ResourceType[] {
  const out: ResourceType[] = [];
  const seen = new Set<string>();
  for (const e of index.entries) {
    const id = `${e.group}/${e.resource.plural}`;
    if (seen.has(id) || !e.resource.categories.includes(category)) continue;
    seen.add(id);
    out.push(typeOf(e));
  }
  return out;
}
