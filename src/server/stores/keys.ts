import type { ResourceKind } from '../kinds/types.js';

/**
 * Storage keys: `/<group or "core">/<plural>/<namespace>/<name>` for namespaced
 * kinds and `/<group or "core">/<plural>/<name>` for cluster-scoped ones. Key
 * order is list order (namespace, then name), as in kube-apiserver over etcd.
 */

/**
 * The identifier of a resource inside keys: `core/pods`, `apps/deployments`. A kind served over
 * another resource's objects (`storage`: events.k8s.io's `events` are core's) keys as that one.
 */
export function resourceId(kind: Pick<ResourceKind, 'group' | 'plural' | 'storage'>): string {
  const stored = kind.storage ?? kind;
  return `${stored.group || 'core'}/${stored.plural}`;
}

/** The prefix every key of `kind` starts with (in `namespace`, when given). */
export function resourcePrefix(kind: ResourceKind, namespace?: string): string {
  const base = `/${resourceId(kind)}/`;
  return kind.namespaced && namespace ? `${base}${namespace}/` : base;
}

/** The key of one object. */
export function objectKey(kind: ResourceKind, namespace: string | undefined, name: string): string {
  return kind.namespaced ? `/${resourceId(kind)}/${namespace}/${name}` : `/${resourceId(kind)}/${name}`;
}

/** The resource id a key belongs to (`core/pods`), or undefined for a foreign key. */
export function resourceIdOfKey(key: string): string | undefined {
  const second = key.indexOf('/', 1);
  if (!key.startsWith('/') || second < 0) return undefined;
  const third = key.indexOf('/', second + 1);
  if (third < 0) return undefined;
  return key.slice(1, third);
}
