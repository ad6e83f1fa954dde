/**
 * The Pod (core/v1): its entry in the served table, with what pkg/registry/core/pod/strategy.go
 * adds to defaulting and validation: the selectable fields (`PodToSelectableFields`), the
 * generation rule, the create, status and graceful-delete steps (strategy.ts).
 */

import { objects, rec, str } from '../../access.js';
import { boolField, type FieldGetter, pathField } from '../../selectable-fields.js';
import type { ResourceKind } from '../../types.js';
import { podColumns } from './columns.js';
import { defaultPod, type PodAdmissionPlugins } from './defaults.js';
import { validatePodEphemeralContainersUpdate } from './ephemeral-containers.js';
import { resizedSpec, validatePodResize } from './resize.js';
import { markPodDeleted, preparePodCreate, preservePodObservedGeneration } from './strategy.js';
import { validatePodUpdate } from './update-validation.js';
import { validatePod } from './validation.js';

/**
 * kube's PodToSelectableFields (pkg/registry/core/pod/strategy.go). The
 * scheduler lists `spec.nodeName=` and kubelets `spec.nodeName=<node>`.
 */
export const podFields: Record<string, FieldGetter> = {
  'spec.nodeName': pathField('spec.nodeName'),
  'spec.restartPolicy': pathField('spec.restartPolicy'),
  'spec.schedulerName': pathField('spec.schedulerName'),
  'spec.serviceAccountName': pathField('spec.serviceAccountName'),
  'spec.hostNetwork': boolField('spec.hostNetwork'),
  'status.phase': pathField('status.phase'),
  // kube reads podIPs[0]; defaulting keeps podIP in step with it.
  'status.podIP': (o) => str(objects(rec(o.status).podIPs)[0]?.ip) || str(rec(o.status).podIP),
  'status.nominatedNodeName': pathField('status.nominatedNodeName'),
};

/** The pod admission plugins still on when those in `disabled` are turned off. */
function pluginsOn(disabled: ReadonlySet<string>): PodAdmissionPlugins {
  return {
    priority: !disabled.has('Priority'),
    defaultTolerationSeconds: !disabled.has('DefaultTolerationSeconds'),
  };
}

export const podKind: ResourceKind = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  fields: podFields,
  subresources: [
    'status',
    'binding',
    'eviction',
    'log',
    'exec',
    'attach',
    'portforward',
    'proxy',
    'ephemeralcontainers',
    'resize',
  ],
  // Pods carry metadata.generation since 1.34 (PodObservedGenerationTracking, KEP-5067; GA and
  // locked on in 1.35): 1 at create, bumped by any change of the defaulted spec
  // (pkg/registry/core/pod/strategy.go `PrepareForCreate`, `updatePodGeneration`), never by
  // pods/status nor pods/binding, which writes storage directly (storage.go `setPodNodeAndMetadata`).
  generationFields: ['spec'],
  defaults: defaultPod,
  prepareForCreate: preparePodCreate,
  prepareForStatusUpdate: preservePodObservedGeneration,
  deleteGracefully: markPodDeleted,
  validate: validatePod,
  validateUpdate: validatePodUpdate,
  // A write through /status validates as every pod update does; /ephemeralcontainers and
  // /resize have their strategies' own ValidateUpdate (ephemeral-containers.ts, resize.ts).
  validateStatusUpdate: (obj, old, subresource) => {
    if (subresource === 'ephemeralcontainers') return validatePodEphemeralContainersUpdate(obj, old);
    if (subresource === 'resize') return validatePodResize(obj, old);
    return [...validatePod(obj), ...validatePodUpdate(obj, old)];
  },
  // pods/resize keeps the old spec but the resources and resize policies (resize.ts).
  subresourceSpec: (sent, old) => resizedSpec(sent, old),
  columns: podColumns,
  withAdmissionPluginsOff: (disabled) => {
    const plugins = pluginsOn(disabled);
    return { defaults: (obj) => defaultPod(obj, plugins) };
  },
};
