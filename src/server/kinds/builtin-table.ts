/**
 * The shape of the generated table of built-in resources (discovery.generated.ts, written by
 * scripts/builtin-discovery.ts from the reference kube-apiserver's discovery), and the lookups
 * the kinds use to take their names, verbs and columns from it rather than typing them.
 */
import { BUILTIN_RESOURCES } from './discovery.generated.js';
import type { BuiltinResource } from './types.js';

export type { BuiltinGroup, BuiltinResource, GeneratedColumn } from './types.js';

const byResource = new Map(BUILTIN_RESOURCES.map((r) => [`${r.group}/${r.version}/${r.plural}`, r]));

/** The reference's entry for `<group>/<version>/<plural>`, or undefined when it serves none. */
export function builtinResource(group: string, version: string, plural: string): BuiltinResource | undefined {
  return byResource.get(`${group}/${version}/${plural}`);
}

/** The reference's entry for a kind, which must be there: a kind the reference does not serve is a bug. */
export function requireBuiltinResource(group: string, version: string, plural: string): BuiltinResource {
  const r = builtinResource(group, version, plural);
  if (!r) throw new Error(`kube-apiserver serves no ${group || 'core'}/${version} ${plural}`);
  return r;
}
