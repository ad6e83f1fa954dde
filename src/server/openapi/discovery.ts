/**
 * What every discovery answer is built from, off the kind table: the verbs and subresources a
 * kind serves, and the group-versions served in kube-apiserver's order. The documents are
 * aggregated-discovery.ts's (`/api`, `/apis` as apidiscovery.k8s.io) and legacy-discovery.ts's
 * (`/api`, `/apis`, `/apis/<g>`, `/api/v1`, `/apis/<g>/<v>` as meta/v1). kubectl resolves every
 * type name, short name and category (`po`, `deploy`, `all`) through these answers, so a field
 * left out breaks commands far away (see docs kubectl-needs §3): `responseKind`/`kind` and
 * `scope`/`namespaced` are load-bearing.
 */
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
export function subresourceKind(name: string): { group: string; version: string; kind: string } | undefined {
  if (name === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  if (name === 'binding') return { group: '', version: 'v1', kind: 'Binding' };
  return undefined;
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
export function kindsIn(kinds: readonly ResourceKind[], group: string, version: string): ResourceKind[] {
  return kinds
    .filter((k) => k.group === group && k.version === version)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
}
