/**
 * What discovery says of a custom resource beyond a built-in's entry, as apiextensions-apiserver's
 * discovery controller publishes it (pkg/apiserver/customresource_discovery_controller.go
 * `sync`): its verbs in that controller's order, its subresources status then scale, and the
 * storage version hash of its definition's storage version.
 */
import { createHash } from 'node:crypto';
import type { ResourceKind } from '../kinds/types.js';

/**
 * A custom resource's verbs: all eight in the controller's order, or only delete,
 * deletecollection, get, list and watch once its definition is terminating.
 */
export function customDiscoveryVerbs(kind: ResourceKind): string[] {
  if (isTerminating(kind)) return ['delete', 'deletecollection', 'get', 'list', 'watch'];
  return ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
}

/** The definition's live state, which the CRD serving code shares between its versions' kinds. */
function isTerminating(kind: ResourceKind): boolean {
  return kind.custom?.state.terminating === true;
}

/** A custom resource's subresources with their verbs: status, then scale. */
export function customSubresources(
  kind: ResourceKind,
  verbs: readonly string[],
): Array<{ name: string; verbs: string[]; kind?: { group: string; version: string; kind: string } }> {
  return (['status', 'scale'] as const)
    .filter((name) => kind.subresources.includes(name))
    .map((name) => ({
      name,
      verbs: [...verbs],
      // A Scale is its own kind in autoscaling/v1 whatever group the parent lives in.
      ...(name === 'scale' ? { kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } } : {}),
    }));
}

/**
 * apiserver endpoints/discovery storageversionhash.go `StorageVersionHash`: the first 8 bytes of
 * the SHA-256 of `<group>/<version>/<kind>`, in standard base64. A custom resource publishes the
 * hash of its definition's storage version, in every served version.
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256')
    .update(`${group}/${version}/${kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');
}
