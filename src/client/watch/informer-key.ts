import type { ResourceType } from './resources.js';

/** What identifies a shared informer: resource, namespace and selectors. */
export interface InformerKey {
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** A string equal for two keys exactly when they select the same objects (a cluster-scoped type ignores the namespace). */
export function informerKeyId(key: InformerKey): string {
  return JSON.stringify([
    key.type.group,
    key.type.version,
    key.type.plural,
    key.type.namespaced ? (key.namespace ?? '') : '',
    key.labelSelector ?? '',
    key.fieldSelector ?? '',
  ]);
}
