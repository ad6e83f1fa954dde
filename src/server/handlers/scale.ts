/**
 * The `scale` subresource: the autoscaling/v1 Scale view of a Deployment or
 * ReplicaSet, and an update through it, which changes only spec.replicas.
 */
import type { KubeObject } from '../../protocol/events.js';
import { formatLabelSelector, labelSelectorFromObject, SelectorError } from '../../protocol/labels.js';
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import { notFound, qualifiedResource } from '../storage/object-errors.js';
import type { Query, ResourceContext } from './resource-context.js';
import { dryRun } from './write-input.js';

/** The autoscaling/v1 Scale view of a scalable object. */
export function toScale(obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as {
    replicas?: number;
    selector?: Parameters<typeof labelSelectorFromObject>[0];
  };
  const status = (obj.status ?? {}) as { replicas?: number };
  let selector = '';
  try {
    selector = formatLabelSelector(labelSelectorFromObject(spec.selector, { nilSelectsNothing: false }));
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
  }
  const m = obj.metadata ?? {};
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector },
  };
}

/** Updates the replicas of a scalable object through its Scale view; `change` edits a copy of the Scale. */
export async function updateScale(
  ctx: ResourceContext,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  change: (current: KubeObject) => KubeObject,
  query: Query,
): Promise<KubeObject> {
  if (!kind.scale) throw notFound(kind, name);
  const updated = await ctx.objects.guaranteedUpdate(
    kind,
    namespace,
    name,
    'main',
    { dryRun: dryRun(query) },
    (current) => {
      const before = toScale(current);
      const after = change(structuredClone(before));
      const wanted = after.metadata?.resourceVersion;
      if (typeof wanted === 'string' && wanted !== '' && wanted !== current.metadata?.resourceVersion) {
        throw StatusError.of(
          'Conflict',
          `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      const replicas = (after.spec as { replicas?: unknown } | undefined)?.replicas;
      if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
        throw StatusError.of(
          'Invalid',
          `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
        );
      }
      return { ...current, spec: { ...(current.spec as object), replicas } };
    },
  );
  return toScale(updated);
}
