/**
 * What every discovery answer is built from, off the kind table: the verbs and subresources a
 * kind serves, and the group-versions served in kube-apiserver's order. The documents are
 * aggregated-discovery.ts's (`/api`, `/apis` as apidiscovery.k8s.io) and legacy-discovery.ts's
 * (`/api`, `/apis`, `/apis/<g>`, `/api/v1`, `/apis/<g>/<v>` as meta/v1). kubectl resolves every
 * type name, short name and category (`po`, `deploy`, `all`) through these answers, so a field
 * left out breaks commands far away (see docs kubectl-needs §3): `responseKind`/`kind` and
 * `scope`/`namespaced` are load-bearing.
 */

import { builtinResource } from '../kinds/builtin-table.js';
import { BUILTIN_GROUPS } from '../kinds/discovery.generated.js';
import type { ResourceKind } from '../kinds/types.js';
import { customDiscoveryVerbs, customSubresources } from './custom-discovery.js';

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
 * The verbs `kind` serves on its main resource: a built-in's are the reference's
 * (kinds/discovery.generated.ts), so a review resource takes only `create`, ComponentStatuses
 * only `get` and `list`, and Namespaces no `deletecollection` (their REST storage,
 * pkg/registry/core/namespace/storage/storage.go `REST`, wraps the generic store without a
 * `DeleteCollection`, so a collection delete that reached `default` cannot mark every namespace
 * Terminating).
 */
export function resourceVerbs(kind: Pick<ResourceKind, 'group' | 'version' | 'plural'>): string[] {
  return [...(builtinResource(kind.group, kind.version, kind.plural)?.verbs ?? RESOURCE_VERBS)];
}

/** The verbs discovery lists for `kind`: a custom resource's are its definition's (custom-discovery.ts). */
export function discoveryVerbs(kind: ResourceKind): string[] {
  return kind.custom ? customDiscoveryVerbs(kind) : resourceVerbs(kind);
}

/** Verbs served on the `status` and `scale` subresources. */
export const SUBRESOURCE_VERBS: readonly string[] = ['get', 'patch', 'update'];

/** A served subresource as discovery lists it: its verbs, and its kind when not its parent's. */
export interface ServedSubresource {
  name: string;
  verbs: string[];
  kind?: { group: string; version: string; kind: string };
}

/**
 * The subresources `kind` serves (those of {@link ResourceKind.subresources}) sorted by name as
 * kube-apiserver lists them, with the reference's verbs and kinds for a built-in's (a Namespace's
 * `finalize` takes only `update`, a pod's `binding` only `create`, answering a Binding).
 */
export function subresourceVerbs(kind: ResourceKind): ServedSubresource[] {
  if (kind.custom) return customSubresources(kind, SUBRESOURCE_VERBS);
  const table = builtinResource(kind.group, kind.version, kind.plural)?.subresources ?? [];
  return kind.subresources
    .map((name): ServedSubresource => {
      const ref = table.find((s) => s.name === name);
      if (!ref) return { name, verbs: [...SUBRESOURCE_VERBS] };
      return { name, verbs: [...ref.verbs], ...(ref.kind ? { kind: { ...ref.kind } } : {}) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A group and version served by at least one kind. */
export interface GroupVersion {
  /** "" for the core group. */
  group: string;
  version: string;
}

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
 * The group-versions served: the built-in groups in the reference's discovery order (its group
 * priorities, kinds/discovery.generated.ts), each version in the reference's order, then the
 * custom resources' groups by name: their APIServices all get group priority 1000
 * (apiextensions-apiserver's crdregistration controller; aggregated/handler.go breaks ties by
 * name), below every built-in group. A custom group's versions: preferred version first.
 */
export function groupVersionsOf(kinds: readonly ResourceKind[]): GroupVersion[] {
  const byGroup = new Map<string, Set<string>>();
  const rank = (group: string) => {
    const i = BUILTIN_GROUPS.findIndex((g) => g.group === group);
    return i < 0 ? BUILTIN_GROUPS.length : i;
  };
  const builtinGroups = new Set(kinds.filter((k) => !k.custom).map((k) => k.group));
  const builtins = kinds
    .filter((k) => builtinGroups.has(k.group))
    .sort((a, b) => rank(a.group) - rank(b.group));
  const custom = kinds
    .filter((k) => !builtinGroups.has(k.group))
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  for (const k of [...builtins, ...custom]) {
    const versions = byGroup.get(k.group) ?? new Set<string>();
    versions.add(k.version);
    byGroup.set(k.group, versions);
  }
  return [...byGroup].flatMap(([group, versions]) => {
    const order = BUILTIN_GROUPS.find((g) => g.group === group)?.versions;
    const sorted = [...versions].sort((a, b) => {
      const [ia, ib] = [order?.indexOf(a) ?? -1, order?.indexOf(b) ?? -1];
      if (ia >= 0 && ib >= 0) return ia - ib;
      return compareVersionPriority(a, b);
    });
    return sorted.map((version) => ({ group, version }));
  });
}

/** The kinds of one group-version, sorted by plural as kube-apiserver lists them. */
export function kindsIn(kinds: readonly ResourceKind[], group: string, version: string): ResourceKind[] {
  return kinds
    .filter((k) => k.group === group && k.version === version)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
}
