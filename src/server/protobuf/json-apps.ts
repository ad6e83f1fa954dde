/**
 * Decoded protobuf message → JSON form for k8s.io/api apps/v1 Deployment, as `kubectl create
 * deployment` builds it. The omitempty and pointer rules are in ./json-meta.ts.
 */
import { podTemplateSpec } from './json-core.js';
import { intOrString, type Json, labelSelector, nonEmpty, obj, type Plain, pick } from './json-meta.js';

/** Deployment: spec, spec.template, spec.strategy and status are structs, always present. */
export function deployment(m: Plain): Json {
  const s = obj(m.spec);
  const spec: Json = pick(s, ['replicas']);
  // `selector` is a pointer without omitempty: a nil one is JSON null.
  spec.selector = s.selector === undefined ? null : labelSelector(obj(s.selector));
  spec.template = podTemplateSpec(obj(s.template));
  spec.strategy = strategy(obj(s.strategy));
  Object.assign(
    spec,
    nonEmpty(s, ['minReadySeconds']),
    pick(s, ['revisionHistoryLimit']),
    nonEmpty(s, ['paused']),
    pick(s, ['progressDeadlineSeconds']),
  );
  const status = obj(m.status);
  return {
    spec,
    status: {
      ...nonEmpty(status, [
        'observedGeneration',
        'replicas',
        'updatedReplicas',
        'readyReplicas',
        'availableReplicas',
        'unavailableReplicas',
      ]),
      ...pick(status, ['terminatingReplicas', 'collisionCount']),
    },
  };
}

function strategy(s: Plain): Json {
  const out = nonEmpty(s, ['type']);
  if (s.rollingUpdate !== undefined) {
    const ru = obj(s.rollingUpdate);
    const rollingUpdate: Json = {};
    // Both are pointers: kept when sent.
    for (const key of ['maxUnavailable', 'maxSurge']) {
      if (ru[key] !== undefined) rollingUpdate[key] = intOrString(ru[key]);
    }
    out.rollingUpdate = rollingUpdate;
  }
  return out;
}
