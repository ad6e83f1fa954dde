import type { Transport } from './http/transport.js';
import type { ResourceType } from './watch/resources.js';
import { findBuiltin } from './watch/resources.js';

interface APIResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  shortNames?: string[];
}

/**
 * Resolves a kubectl-style resource name (`pods`, `po`, `deployment.apps`)
 * to a {@link ResourceType}: the built-in table first, then the server's
 * legacy discovery documents, so custom resources work too.
 */
export async function resolveResource(transport: Transport, name: string): Promise<ResourceType> {
  const builtin = findBuiltin(name);
  if (builtin) return builtin;
  const [wanted, ...groupParts] = name.toLowerCase().split('.');
  const wantedGroup = groupParts.join('.');
  const groups = await transport.json<{
    groups: { name: string; preferredVersion?: { version: string }; versions: { version: string }[] }[];
  }>({ path: '/apis' });
  const candidates: Array<{ group: string; version: string }> = [{ group: '', version: 'v1' }];
  for (const g of groups.groups ?? []) {
    candidates.push({ group: g.name, version: g.preferredVersion?.version ?? g.versions[0]?.version });
  }
  for (const { group, version } of candidates) {
    if (wantedGroup && group !== wantedGroup) continue;
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const list = await transport.json<{ resources: APIResource[] }>({ path });
    for (const r of list.resources ?? []) {
      if (r.name.includes('/')) continue;
      const names = [r.name, r.singularName, r.kind.toLowerCase(), ...(r.shortNames ?? [])];
      if (names.includes(wanted)) {
        return {
          group,
          version,
          kind: r.kind,
          plural: r.name,
          namespaced: r.namespaced,
          shortNames: r.shortNames,
        };
      }
    }
  }
  throw new Error(`the server doesn't have a resource type "${name}"`);
}
