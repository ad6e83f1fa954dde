/**
 * Hand-built merge schemas for the ssa tests: small constructors and a Deployment-like shape
 * (containers keyed by name, ports by containerPort+protocol, finalizers a set, labels a granular
 * map, selector an atomic map), as kube's OpenAPI marks those fields.
 */
import type { ListNode, MapNode, MergeNode } from '../../../src/server/ssa/merge-schema.js';
import { SCALAR, UNTYPED } from '../../../src/server/ssa/merge-schema.js';

/** A struct with named fields (and optional values for other keys). */
export function struct(
  fields: Record<string, MergeNode>,
  opts: { atomic?: boolean; values?: MergeNode } = {},
): MapNode {
  const node: MapNode = {
    kind: 'map',
    relationship: opts.atomic ? 'atomic' : 'separable',
    field: (name) => (Object.hasOwn(fields, name) ? fields[name] : undefined),
    ...(opts.values ? { values: opts.values } : {}),
  };
  return node;
}

/** A map of any keys to `values`. */
export function mapOf(values: MergeNode, atomic = false): MapNode {
  return { kind: 'map', relationship: atomic ? 'atomic' : 'separable', field: () => undefined, values };
}

/** A list keyed by `keys` (`x-kubernetes-list-type: map`). */
export function mapList(keys: string[], items: MergeNode): ListNode {
  return { kind: 'list', relationship: 'associative', keys, items };
}

/** A set of scalars. */
export function setList(items: MergeNode = SCALAR): ListNode {
  return { kind: 'list', relationship: 'associative', keys: [], items };
}

/** An atomic list. */
export function atomicList(items: MergeNode = SCALAR): ListNode {
  return { kind: 'list', relationship: 'atomic', keys: [], items };
}

const S = SCALAR;

const metadata = struct({
  name: S,
  namespace: S,
  uid: S,
  resourceVersion: S,
  generation: S,
  creationTimestamp: S,
  labels: mapOf(S),
  annotations: mapOf(S),
  finalizers: setList(),
  managedFields: atomicList(UNTYPED),
});

const container = struct({
  name: S,
  image: S,
  args: atomicList(),
  ports: mapList(['containerPort', 'protocol'], struct({ containerPort: S, protocol: S, name: S })),
  env: mapList(['name'], struct({ name: S, value: S })),
  resources: struct({ limits: mapOf(S), requests: mapOf(S) }),
});

/** A Deployment, as far as the tests need one. */
export const DEPLOYMENT: MapNode = struct({
  apiVersion: S,
  kind: S,
  metadata,
  spec: struct({
    replicas: S,
    paused: S,
    selector: struct({ matchLabels: mapOf(S) }, { atomic: true }),
    template: struct({
      metadata,
      spec: struct({
        containers: mapList(['name'], container),
        nodeSelector: mapOf(S, true),
        extra: UNTYPED,
      }),
    }),
  }),
  status: struct({ replicas: S, conditions: mapList(['type'], struct({ type: S, status: S })) }),
});

/** A ConfigMap. */
export const CONFIGMAP: MapNode = struct({
  apiVersion: S,
  kind: S,
  metadata,
  data: mapOf(S),
  binaryData: mapOf(S),
});

/** A custom resource that keeps unknown fields under `spec`. */
export const UNTYPED_CR: MapNode = struct({ apiVersion: S, kind: S, metadata, spec: UNTYPED });

/** A Deployment object with one nginx container. */
export function deployment(
  overrides: { replicas?: number; image?: string; name?: string } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: overrides.name ?? 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: overrides.replicas ?? 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: overrides.image ?? 'nginx:1.25',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
            },
          ],
        },
      },
    },
  };
}
