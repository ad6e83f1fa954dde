/** What the scale ownership suites share: content types, a scalable workload, a Scale body, and the owners of replicas. */
export const APPLY = { 'content-type': 'application/apply-patch+yaml' };
export const MERGE = { 'content-type': 'application/merge-patch+json' };

export function workload(kind: string, name: string) {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name },
    spec: {
      replicas: 1,
      ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
      },
    },
  };
}

export const scaleBody = (name: string, replicas: number) => ({
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  metadata: { name, namespace: 'default' },
  spec: { replicas },
});

/** The managers whose entry owns the replicas path (scale_test.go `assertReplicasOwnership`). */
export function replicasOwners(obj: any, path: string[] = ['spec', 'replicas']): string[] {
  const owners: string[] = [];
  for (const e of obj.metadata.managedFields ?? []) {
    let node = e.fieldsV1;
    for (const part of path) node = node?.[`f:${part}`];
    if (node !== undefined) owners.push(e.manager);
  }
  return owners.sort();
}
