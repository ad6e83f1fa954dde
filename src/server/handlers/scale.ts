/**
 * The `scale` subresource: the autoscaling/v1 Scale view of a Deployment or
 * ReplicaSet, and an update through it, which changes only spec.replicas.
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../protocol/events.js';
import { formatLabelSelector, labelSelectorFromObject, SelectorError } from '../../protocol/labels.js';
import { StatusError } from '../../protocol/status.js';
import { getPath } from '../kinds/access.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import { notFound, qualifiedResource } from '../storage/object-errors.js';
import type { Query, ResourceContext } from './resource-context.js';
import { scaleManagedFields } from './scale-ownership.js';
import { dryRun, writeManager } from './write-input.js';

/** Sets the value at a dotted path, making the maps on the way (unstructured `SetNestedField`). */
function setAt(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = obj;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

/** An int64 field read as unstructured `NestedInt64` does: absent is 0, any other type an error. */
function nestedInt(obj: KubeObject, path: string): number {
  const v = getPath(obj, path);
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw StatusError.of(
      'InternalError',
      `.${path} accessor error: ${JSON.stringify(v)} is of the type ${typeof v}, expected int64`,
    );
  }
  return v;
}

/**
 * The autoscaling/v1 Scale view of a scalable object. A custom kind's comes from its CRD's
 * paths (apiextensions-apiserver pkg/registry/customresource/etcd.go `scaleFromCustomResource`:
 * absent replicas are 0, the selector is the string at `labelSelectorPath`).
 */
export function toScale(kind: ResourceKind, obj: KubeObject): KubeObject {
  const paths = kind.scale ?? {
    specReplicas: 'spec.replicas',
    statusReplicas: 'status.replicas',
    labelSelector: '',
  };
  let selector = '';
  let specReplicas: number;
  let statusReplicas: number;
  if (kind.custom) {
    specReplicas = nestedInt(obj, paths.specReplicas);
    statusReplicas = nestedInt(obj, paths.statusReplicas);
    const s = paths.labelSelector ? getPath(obj, paths.labelSelector) : undefined;
    if (s !== undefined && typeof s !== 'string') {
      throw StatusError.of(
        'InternalError',
        `.${paths.labelSelector} accessor error: ${JSON.stringify(s)} is of the type ${typeof s}, expected string`,
      );
    }
    selector = s ?? '';
  } else {
    const spec = (obj.spec ?? {}) as {
      replicas?: number;
      selector?: Parameters<typeof labelSelectorFromObject>[0];
    };
    try {
      selector = formatLabelSelector(labelSelectorFromObject(spec.selector, { nilSelectsNothing: false }));
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
    }
    specReplicas = spec.replicas ?? 0;
    statusReplicas = ((obj.status ?? {}) as { replicas?: number }).replicas ?? 0;
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
    spec: { replicas: specReplicas },
    status: { replicas: statusReplicas, selector },
  };
}

/** Updates the replicas of a scalable object through its Scale view; `change` edits a copy of the Scale. */
export async function updateScale(
  ctx: ResourceContext,
  req: IncomingMessage,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  change: (current: KubeObject) => KubeObject,
  query: Query,
): Promise<KubeObject> {
  if (!kind.scale) throw notFound(kind, name);
  const { manager } = writeManager(req, query);
  const updated = await ctx.objects.guaranteedUpdate(
    kind,
    namespace,
    name,
    'main',
    { dryRun: dryRun(query), fieldManager: { manager, recorded: true } },
    (current) => {
      const before = toScale(kind, current);
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
      let next: KubeObject;
      if (kind.custom) {
        // etcd.go `scaleUpdatedObjectInfo`: the replicas are set at specReplicasPath.
        next = structuredClone(current);
        setAt(next, kind.scale!.specReplicas, replicas);
      } else {
        next = {
          ...current,
          metadata: { ...current.metadata },
          spec: { ...(current.spec as object), replicas },
        };
      }
      const entries = scaleManagedFields(
        current.metadata?.managedFields,
        apiVersionOf(kind),
        kind.scale!.specReplicas,
        manager,
        (before.spec as { replicas?: unknown }).replicas,
        replicas,
      );
      const meta = next.metadata ?? {};
      if (entries === undefined) delete meta.managedFields;
      else meta.managedFields = entries;
      next.metadata = meta;
      return next;
    },
  );
  return toScale(kind, updated);
}
