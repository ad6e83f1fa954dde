/**
 * The group, version and kind a create or update body is decoded as. kube-apiserver's serializer
 * (apimachinery runtime/serializer/json `Serializer.Decode`) reads them off the body, fills what
 * is missing from the URL's kind (kind when empty; group and version when both are empty; the
 * version when the group is the URL's), and asks the scheme for a Go type: a kind the scheme does
 * not register for that group-version fails there, before any field is read
 * (runtime/scheme.go `New`, `notRegisteredErr`), reported by rest.go `transformDecodeError`.
 */
import type { KubeObject } from '../../protocol/events.js';
import { findByKind } from '../kinds/served/registry.js';

/** The scheme's name in the error: kube-apiserver's legacy scheme is named after its call site. */
const SCHEME_NAME = 'pkg/runtime/scheme.go:111';

/**
 * Kinds every group-version of the scheme registers besides its resources' kinds
 * (metav1.AddToGroupVersion: the options, WatchEvent, and meta's List kinds).
 */
const ALWAYS_REGISTERED = new Set([
  'WatchEvent',
  'ListOptions',
  'GetOptions',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
]);

/**
 * What decoding a body of another kind than the URL's fails with: a kind of a group-version
 * the scheme does not know, `no kind "Gadget" is registered for version "apps/v1" in scheme "..."` when the body's
 * group-version-kind (defaulted from `target`) is not one the server knows, and a kind it knows
 * that cannot convert into the URL's; undefined for the URL's own kind.
 */
export function unregisteredKindError(
  target: { group: string; version: string; kind: string },
  obj: KubeObject,
): string | undefined {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  let group = slash < 0 ? '' : apiVersion.slice(0, slash);
  let version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : target.kind;
  if (group === '' && version === '') {
    group = target.group;
    version = target.version;
  } else if (version === '' && group === target.group) {
    version = target.version;
  }
  const gv = group === '' ? version : `${group}/${version}`;
  if (group === target.group && version === target.version && kind === target.kind) return undefined;
  if (findByKind(gv, kind) !== undefined) {
    // Decoded as its own type, then converted to the URL kind's internal type
    // (conversion.Converter `Convert`): no conversion exists between two kinds.
    if (kind === target.kind) return undefined;
    const internal = target.group === '' ? 'core' : target.group.split('.')[0];
    return `converting (${version}.${kind}) to (${internal}.${target.kind}): unknown conversion`;
  }
  if (ALWAYS_REGISTERED.has(kind) && findByKind(gv, target.kind) !== undefined) return undefined;
  const list = kind.endsWith('List') ? findByKind(gv, kind.slice(0, -'List'.length)) : undefined;
  if (list !== undefined) return undefined;
  return `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(gv)} in scheme ${JSON.stringify(SCHEME_NAME)}`;
}
