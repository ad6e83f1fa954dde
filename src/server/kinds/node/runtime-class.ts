/**
 * The RuntimeClass (node.k8s.io/v1): validation (pkg/apis/node/validation `ValidateRuntimeClass`,
 * `ValidateRuntimeClassUpdate`), strategy (pkg/registry/node/runtimeclass/strategy.go: a PUT may
 * create but must name the resourceVersion it replaces; an update is validated as a create too)
 * and Table (printers.go `printRuntimeClass`).
 *
 * The handler's rules are declared on the v1 type (pkg/apis/node/v1/zz_generated.validations.go,
 * Beta): kube-apiserver reports them, not the handwritten ones they cover, after the others
 * (registry/rest/validate.go `ValidateDeclarativelyWithMigrationChecks`); a changed handler is
 * only `field is immutable`, its value the declarative rule's nil.
 *
 * Not checked here: the overhead's quantities and the scheduling tolerations (core validation's
 * `ValidateContainerResourceRequirements`, `ValidateTolerations`), and the warnings on
 * deprecated node labels.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { rec, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import type { FieldError, ResourceKind } from '../types.js';
import { invalid, required, validateLabels, validateObjectMeta } from '../validation.js';
import { isDNS1123Label } from '../validation-names.js';

/** The declarative rules of `handler`: required, a DNS label, and on an update unchanged. */
function handlerErrors(obj: KubeObject, old?: KubeObject): FieldError[] {
  const handler = str(obj.handler);
  if (old && handler !== str(old.handler)) return [invalid('handler', null, 'field is immutable')];
  if (handler === '') return [required('handler')];
  return isDNS1123Label(handler).map((msg) => invalid('handler', handler, msg));
}

/** `ValidateRuntimeClass` (and on an update `ValidateRuntimeClassUpdate`). */
export function validateRuntimeClass(obj: KubeObject, old?: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const scheduling = rec(obj.scheduling);
  errors.push(...validateLabels(scheduling.nodeSelector, 'scheduling.nodeSelector'));
  errors.push(...handlerErrors(obj, old));
  return errors;
}

/** The RuntimeClass's entry in the served kinds. */
export const runtimeClassKind: ResourceKind = builtinKind('node.k8s.io', 'v1', 'runtimeclasses', {
  validate: validateRuntimeClass,
  cells: { Handler: (o) => str(o.handler), Age: ageColumn.cell },
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
});
