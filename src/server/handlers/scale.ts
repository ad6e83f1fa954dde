/**
 * The `scale` subresource: the autoscaling/v1 Scale view of a scalable object (the workloads, a
 * custom kind with `subresources.scale`), and writes through it (update, patch, apply), which
 * change only the replicas and move their ownership (scale-ownership.ts).
 */
import type { KubeObject } from '../../protocol/events.js';
import { formatLabelSelector, labelSelectorFromObject, SelectorError } from '../../protocol/labels.js';
import { StatusError } from '../../protocol/status.js';
import { getPath } from '../kinds/access.js';
import { conflict, notFound } from '../kinds/api-errors.js';
import { apiVersionOf, type ResourceKind } from '../kinds/types.js';
import type { WriteAdmission } from '../registry/object-storage.js';
import type { ManagedFieldsEntry } from '../ssa/managed-fields.js';
import { loadSsa } from './field-ownership.js';
import type { NamedScope } from './request-scope.js';
import { type ReplicasPathMappings, toParentEntries, toSubresourceEntries } from './scale-ownership.js';
import { writeAdmission } from './write-admission.js';
import { dryRun, writeManager } from './write-input.js';

/** The Scale's OpenAPI type, whose merge schema its field manager uses, and its group/version. */
export const SCALE_TYPE = 'io.k8s.api.autoscaling.v1.Scale';
export const SCALE_API_VERSION = 'autoscaling/v1';

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
 * etcd.go `scaleUpdatedObjectInfo`'s `invalidSpecReplicas` (the smallest int32): the replicas of
 * the live Scale a write starts from when the custom resource has none at specReplicasPath.
 */
export const INVALID_SPEC_REPLICAS = -2147483648;

/**
 * The autoscaling/v1 Scale view of a scalable object. A custom kind's comes from its CRD's
 * paths (apiextensions-apiserver pkg/registry/customresource/etcd.go `scaleFromCustomResource`:
 * the selector is the string at `labelSelectorPath`). A custom resource without spec replicas
 * has a Scale only where `absentSpecReplicas` says what to put there (ScaleREST.Get answers the
 * 500, scaleUpdatedObjectInfo gives INVALID_SPEC_REPLICAS, the validations 0).
 */
export function toScale(kind: ResourceKind, obj: KubeObject, absentSpecReplicas?: number): KubeObject {
  const paths = kind.scale ?? {
    specReplicas: 'spec.replicas',
    statusReplicas: 'status.replicas',
    labelSelector: '',
  };
  let selector = '';
  let specReplicas: number;
  let statusReplicas: number;
  if (kind.custom) {
    // etcd.go `ScaleREST.Get` (1.37): an object without spec replicas has no Scale to read.
    const absent = getPath(obj, paths.specReplicas) === undefined;
    if (absent && absentSpecReplicas === undefined) {
      const message = `the spec replicas field ${JSON.stringify(`.${paths.specReplicas}`)} does not exist`;
      throw StatusError.of('InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
    }
    specReplicas = absent ? absentSpecReplicas! : nestedInt(obj, paths.specReplicas);
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
    // A ReplicationController's selector is a plain label map (storage.go `scaleFromRC`:
    // `labels.SelectorFromSet`), which reads as a LabelSelector's matchLabels.
    const labelSelector = isLabelMapSelector(kind)
      ? { matchLabels: spec.selector as Record<string, string> }
      : spec.selector;
    try {
      selector = formatLabelSelector(labelSelectorFromObject(labelSelector, { nilSelectsNothing: false }));
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
    // autoscaling/v1 ScaleSpec.Replicas is omitempty: 0 is not written.
    spec: specReplicas === 0 ? {} : { replicas: specReplicas },
    // autoscaling/v1 ScaleStatus.Selector is omitempty.
    status: selector === '' ? { replicas: statusReplicas } : { replicas: statusReplicas, selector },
  };
}

/** The built-in kind whose selector is a label map, not a LabelSelector: core/v1 ReplicationControllers. */
function isLabelMapSelector(kind: ResourceKind): boolean {
  return !kind.custom && kind.group === '' && kind.kind === 'ReplicationController';
}

/** A 500 with only a message, as kube-apiserver answers an error that is not a Status. */
function internalError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err instanceof Error ? err.message : String(err),
    code: 500,
  });
}

/** scalehandler.go `ResourcePathMappings` of a scalable kind. */
function replicasMappings(kind: ResourceKind): ReplicasPathMappings {
  const scale = kind.scale!;
  return new Map(Object.entries(scale.replicasPathByVersion ?? { [apiVersionOf(kind)]: scale.specReplicas }));
}

/** How a request turns the live Scale (its managedFields included) into the new one. */
export type ScaleWrite = (live: KubeObject) => KubeObject;

/**
 * A write through the Scale view (the registries' `scaleUpdatedObjectInfo.UpdatedObject`): the
 * live Scale, with the managedFields `ToSubresource` gives it, goes to `write`, which returns the
 * new Scale with the managedFields the Scale's field manager recorded; the Scale is validated,
 * its replicas go into the object, and `ToParent` turns the Scale's managedFields back into the
 * object's. Only the replicas (and resourceVersion, as a precondition) reach the object.
 */
export async function writeScale(
  scope: NamedScope,
  options: { dryRun: boolean; manager: string; admission?: WriteAdmission },
  write: ScaleWrite,
): Promise<KubeObject> {
  const { kind, namespace, name } = scope;
  if (!kind.scale) throw notFound(kind, name);
  const mappings = replicasMappings(kind);
  const updated = await scope.server.objects.guaranteedUpdate(
    kind,
    namespace,
    name,
    'main',
    {
      dryRun: options.dryRun,
      fieldManager: { manager: options.manager, recorded: true },
      admission: options.admission && scaleValidation(kind, options.admission),
    },
    async (current) => {
      const parentEntries = current.metadata?.managedFields;
      // etcd.go `scaleUpdatedObjectInfo.UpdatedObject`: a custom resource without spec replicas is
      // not an error here (only ScaleREST.Get's); its live Scale carries invalidSpecReplicas.
      const live = toScale(kind, current, INVALID_SPEC_REPLICAS);
      try {
        const entries = toSubresourceEntries(parentEntries, mappings);
        if (entries !== undefined) (live.metadata ?? {}).managedFields = entries;
      } catch (err) {
        throw internalError(err);
      }
      let after = write(live);
      // The Scale's own mutating admission (scaleUpdatedObjectInfo runs the request's transformers
      // on the Scale, before the replicas reach the object).
      if (options.admission) after = await options.admission.mutate(after, live);
      // Decoded into the typed Scale, absent (or null) replicas are Go's zero value.
      const replicas = (after.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
      // etcd.go: a write that left invalidSpecReplicas in place set no replicas.
      if (kind.custom && replicas === INVALID_SPEC_REPLICAS) {
        throw StatusError.of(
          'BadRequest',
          `the spec replicas field ${JSON.stringify(`.${kind.scale!.specReplicas}`)} cannot be empty`,
        );
      }
      // autoscaling validation `ValidateScale`. A custom resource's ScaleREST validates no Scale:
      // the replicas land in the object, whose validator judges them at specReplicasPath
      // (customresource/validator.go `ValidateScaleSpec`).
      const customOk =
        kind.custom !== undefined && typeof replicas === 'number' && Number.isInteger(replicas);
      if (!customOk && (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)) {
        // errors.NewInvalid of autoscaling's Scale kind: its details name the Scale and the cause.
        const message = `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`;
        throw StatusError.of('Invalid', `Scale.autoscaling "${name}" is invalid: spec.replicas: ${message}`, {
          name,
          group: 'autoscaling',
          kind: 'Scale',
          causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.replicas' }],
        });
      }
      // A uid in the Scale is a precondition; the resourceVersion is storage's.
      const uid = after.metadata?.uid;
      if (typeof uid === 'string' && uid !== '' && uid !== current.metadata?.uid) {
        // errors.NewConflict on the GroupResource `deployments/scale` (String: `deployments/scale.apps`).
        const resource = `${kind.plural}/scale`;
        throw StatusError.of(
          'Conflict',
          `Operation cannot be fulfilled on ${kind.group ? `${resource}.${kind.group}` : resource} "${name}": Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata?.uid ?? ''}`,
          { name, group: kind.group || undefined, kind: resource },
        );
      }
      const wanted = after.metadata?.resourceVersion;
      if (typeof wanted === 'string' && wanted !== '' && wanted !== current.metadata?.resourceVersion) {
        throw conflict(kind, name);
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
      let entries: ManagedFieldsEntry[] | undefined;
      try {
        entries = toParentEntries(parentEntries, after.metadata?.managedFields, mappings, apiVersionOf(kind));
      } catch (err) {
        throw internalError(err);
      }
      const meta = next.metadata ?? {};
      if (entries === undefined) delete meta.managedFields;
      else meta.managedFields = entries;
      next.metadata = meta;
      return next;
    },
  );
  return toScale(kind, updated);
}

/**
 * An update or a non-apply patch through the Scale view: `change` edits a copy of the live Scale,
 * and the Scale's field manager records it as an `Update` by the request's manager (update.go
 * and patch.go run `UpdateNoErrors` on the Scale, without reset fields: ScaleREST has none).
 */
export async function updateScale(
  scope: NamedScope,
  change: (current: KubeObject) => KubeObject,
): Promise<KubeObject> {
  if (!scope.kind.scale) throw notFound(scope.kind, scope.name);
  const { manager } = writeManager(scope);
  const [ssa, builtin] = await loadSsa();
  const node = builtin.builtinMergeNode(SCALE_TYPE);
  const isDryRun = dryRun(scope.query);
  const admission = scaleAdmission(scope, isDryRun);
  return writeScale(scope, { dryRun: isDryRun, manager, admission }, (live) => {
    const after = change(structuredClone(live));
    return ssa.recordUpdate({
      node,
      apiVersion: SCALE_API_VERSION,
      kind: 'Scale',
      subresource: 'scale',
      manager,
      now: new Date(scope.server.clock.now()),
      live,
      next: after,
    }).object as KubeObject;
  });
}

/** The admission of a write through `/scale`: its objects are autoscaling/v1 Scales. */
export function scaleAdmission(scope: NamedScope, isDryRun: boolean): WriteAdmission | undefined {
  return writeAdmission(scope, {
    subresource: 'scale',
    dryRun: isDryRun,
    objectKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  });
}

/**
 * The parent write's admission of a Scale write: validating admission sees the Scales before and
 * after (registry `toScaleUpdateValidation`); mutation already ran on the Scale itself.
 */
function scaleValidation(kind: ResourceKind, admission: WriteAdmission): WriteAdmission {
  return {
    mutate: async (obj) => obj,
    // `scaleFromCustomResource` there ignores whether the replicas were found: absent is 0.
    validate: (obj, old) => admission.validate(obj && toScale(kind, obj, 0), old && toScale(kind, old, 0)),
  };
}
