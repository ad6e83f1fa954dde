/** What the runner examples share: a ConfigMap body, optionally owned by another object. */
import type { KubeObject } from '../../src/index.js';

export function configMap(name: string, owner?: KubeObject): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      ownerReferences: owner && [
        {
          apiVersion: owner.apiVersion ?? 'v1',
          kind: owner.kind ?? 'ConfigMap',
          name: owner.metadata?.name ?? '',
          uid: owner.metadata?.uid ?? '',
        },
      ],
    },
    data: { at: new Date().toISOString() },
  };
}
