/**
 * What the apps/v1 workloads share: their `/scale`, their generation rule, the defaulting of
 * their pod template and zero-valued status, and the container and image Table columns of
 * their template (pkg/printers/internalversion/printers.go `layoutContainerCells`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { child, type JsonObject, objects, rec, setIfAbsent, specOf, str } from '../access.js';
import { wide } from '../columns.js';
import { defaultPodTemplateSpec } from '../core/pod/defaults.js';
import type { ResourceKind } from '../types.js';

/**
 * The workloads' `/scale`: autoscaling/v1 Scale reads replicas and the selector from these paths.
 * `versions` are the group/versions the kind has had, each with spec.replicas (the registries'
 * `ReplicasPathMappings`: pkg/registry/apps/{deployment,statefulset,replicaset}/storage/storage.go;
 * apps/v1beta1 had no ReplicaSet).
 */
export function replicasScale(versions: string[]): NonNullable<ResourceKind['scale']> {
  return {
    specReplicas: 'spec.replicas',
    statusReplicas: 'status.replicas',
    labelSelector: 'spec.selector',
    replicasPathByVersion: Object.fromEntries(versions.map((v) => [v, 'spec.replicas'])),
  };
}

/** Workload generation: only spec changes bump it (kube's PrepareForUpdate of the apps strategies). */
export const SPEC_GENERATION = ['spec'];

/** A workload's `spec.template` gets core's PodTemplateSpec defaults. */
export function defaultTemplate(spec: JsonObject): void {
  const template = child(spec, 'template');
  if (template) defaultPodTemplateSpec(template);
}

/** Go's non-omitempty status integers: present as 0 until a controller writes them. */
export function zeroStatus(obj: JsonObject, fields: readonly string[]): void {
  const status = child(obj, 'status');
  if (status) for (const f of fields) setIfAbsent(status, f, 0);
}

/** `layoutContainerCells`: the template's container names and images, comma-joined. */
function templateContainers(o: KubeObject): JsonObject[] {
  return objects(rec(rec(specOf(o).template).spec).containers);
}

/** The wide CONTAINERS column: the template's container names. */
export const containersCol = wide(
  'Containers',
  (o) =>
    templateContainers(o)
      .map((c) => str(c.name))
      .join(','),
  { description: 'Names of each container in the template.' },
);

/** The wide IMAGES column: the template's container images. */
export const imagesCol = wide(
  'Images',
  (o) =>
    templateContainers(o)
      .map((c) => str(c.image))
      .join(','),
  { description: 'Images referenced by each container in the template.' },
);
