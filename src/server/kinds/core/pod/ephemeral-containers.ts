/**
 * A pod's ephemeral containers, which only the `pods/ephemeralcontainers` subresource can add
 * (kubectl debug): pkg/apis/core/validation `validateEphemeralContainers` (each one a container
 * with a name unique across every container, its target an existing regular or init container,
 * only the fields of `allowedEphemeralContainerFields`, no volume subPath) and
 * `ValidatePodEphemeralContainersUpdate` (the pod's spec validated whole, and the existing
 * ephemeral containers neither removed nor changed).
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { objects, rec, str } from '../../access.js';
import { fieldValueText } from '../../field-value.js';
import type { FieldError } from '../../types.js';
import { duplicate, forbidden } from '../../validation.js';
import { validateContainer, validatePod } from './validation.js';

/**
 * The EphemeralContainerCommon fields an ephemeral container may not set (validation.go
 * `allowedEphemeralContainerFields`, the false ones and those it does not list), in the Go
 * struct's order, by their JSON names.
 */
const NOT_ALLOWED = [
  'ports',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'restartPolicyRules',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
];

const CANNOT = 'cannot be set for an Ephemeral Container';

/** `field.NotFound`: `<field>: Not found: "x"`. */
function notFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, message: `Not found: ${fieldValueText(value)}` };
}

/** Whether a JSON value is Go's zero value of its field (reflect.DeepEqual with the zero). */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return true;
  if (Array.isArray(v)) return false;
  if (typeof v === 'object') return Object.values(v as object).every(isZero);
  return false;
}

/** validation.go `validateEphemeralContainers` over `spec.ephemeralContainers`. */
export function validateEphemeralContainers(spec: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const ephemeral = objects(spec.ephemeralContainers);
  if (ephemeral.length === 0) return errors;
  const others = new Set(
    [...objects(spec.containers), ...objects(spec.initContainers)].map((c) => str(c.name)),
  );
  const all = new Set(others);
  const volumes = new Set(objects(spec.volumes).map((v) => str(v.name)));
  ephemeral.forEach((ec, i) => {
    const path = `spec.ephemeralContainers[${i}]`;
    // validateContainerCommon: its own name set, so a clash is reported once, below.
    errors.push(...validateContainer(ec, path, new Set()));
    objects(ec.volumeMounts).forEach((m, j) => {
      if (!volumes.has(str(m.name))) errors.push(notFound(`${path}.volumeMounts[${j}].name`, str(m.name)));
    });
    const name = str(ec.name);
    if (all.has(name)) errors.push(duplicate(`${path}.name`, name));
    else all.add(name);
    const target = str(ec.targetContainerName);
    if (target !== '' && !others.has(target)) errors.push(notFound(`${path}.targetContainerName`, target));
    for (const field of NOT_ALLOWED) {
      if (ec[field] !== undefined && !isZeroField(ec[field]))
        errors.push(forbidden(`${path}.${field}`, CANNOT));
    }
    objects(ec.volumeMounts).forEach((m, j) => {
      if (str(m.subPath) !== '') errors.push(forbidden(`${path}.volumeMounts[${j}].subPath`, CANNOT));
      if (str(m.subPathExpr) !== '') errors.push(forbidden(`${path}.volumeMounts[${j}].subPathExpr`, CANNOT));
    });
  });
  return errors;
}

/** A field left at Go's zero value: nil, an empty list or map, or a struct of zeros. */
function isZeroField(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return isZero(v);
}

/**
 * validation.go `ValidatePodEphemeralContainersUpdate`: the pod validated whole, then each old
 * ephemeral container present and unchanged. (Its "may not be changed" detail prints a Go
 * struct diff; here the two containers' JSON.)
 */
export function validatePodEphemeralContainersUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = [...validatePod(obj), ...validateEphemeralContainers(rec(obj.spec))];
  if (rec(old.metadata?.annotations)['kubernetes.io/config.mirror'] !== undefined)
    return [forbidden('', 'static pods do not support ephemeral containers')];
  const now = new Map(objects(rec(obj.spec).ephemeralContainers).map((c) => [str(c.name), c]));
  for (const before of objects(rec(old.spec).ephemeralContainers)) {
    const name = str(before.name);
    const after = now.get(name);
    if (!after) {
      errors.push(
        forbidden('spec.ephemeralContainers', `existing ephemeral containers "${name}" may not be removed\n`),
      );
    } else if (JSON.stringify(after) !== JSON.stringify(before)) {
      errors.push(
        forbidden(
          'spec.ephemeralContainers',
          `existing ephemeral containers "${name}" may not be changed\n- ${JSON.stringify(before)}\n+ ${JSON.stringify(after)}`,
        ),
      );
    }
  }
  return errors;
}
