/** Samples of the kinds of this area (see ../samples.ts for what a sample is). */
import { grouped, type KindSample, meta } from './kit.js';

const RBAC = 'rbac.authorization.k8s.io';

export const accessSamples: KindSample[] = [
  {
    ...grouped(RBAC, 'v1', 'Role', 'roles', true, 'rbac'),
    subresources: [],
    object: (name) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: meta(name),
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
    }),
    change: { path: ['rules', '0', 'verbs', '1'], value: 'watch' },
  },
  {
    ...grouped(RBAC, 'v1', 'ClusterRole', 'clusterroles', false, 'rbac'),
    subresources: [],
    object: (name) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: meta(name),
      rules: [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      ],
    }),
    change: { path: ['rules', '0', 'verbs', '0'], value: 'list' },
  },
  {
    ...grouped(RBAC, 'v1', 'RoleBinding', 'rolebindings', true, 'rbac'),
    subresources: [],
    object: (name) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: meta(name),
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'default', namespace: '$ns' },
      ],
    }),
    change: { path: ['subjects', '0', 'name'], value: 'bob' },
  },
  {
    ...grouped(RBAC, 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false, 'rbac'),
    subresources: [],
    object: (name) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: meta(name),
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'readers', apiGroup: RBAC }],
    }),
    change: { path: ['subjects', '0', 'name'], value: 'viewers' },
  },
  {
    ...grouped('scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', false, 'scheduling'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: meta(name),
      value: 1000,
      description: 'for the batch jobs',
    }),
    change: { path: ['description'], value: 'for the nightly jobs' },
  },
  {
    ...grouped('node.k8s.io', 'v1', 'RuntimeClass', 'runtimeclasses', false, 'node'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: meta(name),
      handler: 'runc',
      scheduling: { nodeSelector: { runtime: 'runc' } },
    }),
    change: { path: ['scheduling', 'nodeSelector', 'runtime'], value: 'crun' },
  },
  {
    ...grouped(
      'storagemigration.k8s.io',
      'v1',
      'StorageVersionMigration',
      'storageversionmigrations',
      false,
      'storagemigration',
    ),
    subresources: ['status'],
    object: (name) => ({
      apiVersion: 'storagemigration.k8s.io/v1',
      kind: 'StorageVersionMigration',
      metadata: meta(name, { app: 'migrate' }),
      spec: { resource: { group: 'apps', resource: 'deployments' } },
    }),
    change: { path: ['metadata', 'labels', 'app'], value: 'migrated' },
  },
  {
    ...grouped('apps', 'v1', 'ControllerRevision', 'controllerrevisions', true, 'apps'),
    subresources: [],
    object: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: meta(name, { app: 'db' }),
      data: { spec: { template: { metadata: { labels: { app: 'db' } } } } },
      revision: 1,
    }),
    change: { path: ['metadata', 'labels', 'app'], value: 'web' },
  },
];
