/**
 * The PriorityClass (scheduling.k8s.io/v1): its default (pkg/apis/scheduling/v1/defaults.go
 * `SetDefaults_PriorityClass`), validation (pkg/apis/scheduling/validation
 * `ValidatePriorityClass`, `ValidatePriorityClassUpdate`), strategy
 * (pkg/registry/scheduling/priorityclass/strategy.go: generation 1 on create, no create on
 * update) and Table (printers.go `printPriorityClass`).
 *
 * Not served here: the storage's refusal to delete a system priority class (storage.go
 * `REST.Delete`) and the Priority admission plugin's single global default, which need hooks
 * the kinds do not have.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import { goNamedString } from '../field-value.js';
import type { FieldError, ResourceKind } from '../types.js';
import { forbidden, invalid, notSupported, required, validateObjectMeta } from '../validation.js';

/** scheduling `HighestUserDefinablePriority`: higher values are the system's. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

/** The prefix of the names reserved for the system's priority classes. */
const SYSTEM_PREFIX = 'system-';

/** scheduling/v1 `systemPriorityClasses`: the only names with the system prefix, and their values. */
const SYSTEM_PRIORITY_CLASSES: ReadonlyArray<{ name: string; value: number }> = [
  { name: 'system-node-critical', value: 2 * HIGHEST_USER_DEFINABLE_PRIORITY + 1000 },
  { name: 'system-cluster-critical', value: 2 * HIGHEST_USER_DEFINABLE_PRIORITY },
];

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** `SetDefaults_PriorityClass`: a class preempts lower priorities unless it says otherwise. */
export function defaultPriorityClass(obj: KubeObject): void {
  if (obj.preemptionPolicy === undefined || obj.preemptionPolicy === null) {
    obj.preemptionPolicy = 'PreemptLowerPriority';
  }
}

/** scheduling/v1 `IsKnownSystemPriorityClass`'s error, or undefined for a known class. */
function systemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

/**
 * `ValidatePriorityClass`: a DNS-subdomain name; the `system-` prefix only for the system's own
 * classes as they are; other classes at most {@link HIGHEST_USER_DEFINABLE_PRIORITY}; a known
 * preemption policy (`ValidatePreemptionPolicy`).
 */
export function validatePriorityClass(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const name = str(obj.metadata?.name);
  const value = typeof obj.value === 'number' ? obj.value : 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const err = systemClassError(name, value, obj.globalDefault === true);
    if (err) {
      errors.push(
        forbidden(
          'metadata.name',
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${err}`,
        ),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(
      forbidden(
        'value',
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    );
  }
  if (typeof obj.preemptionPolicy === 'string') {
    const policy = obj.preemptionPolicy;
    if (policy === '') errors.push(required('preemptionPolicy'));
    else if (!PREEMPTION_POLICIES.includes(policy))
      errors.push(notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  }
  return errors;
}

/**
 * `ValidatePriorityClassUpdate`: the value and the preemption policy never change. The strategy
 * runs it alone on an update (not `ValidatePriorityClass`): the metadata's rules only besides.
 */
export function validatePriorityClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  if ((obj.value ?? 0) !== (old.value ?? 0))
    errors.push(forbidden('value', 'may not be changed in an update.'));
  const policy = obj.preemptionPolicy ?? null;
  if (policy !== (old.preemptionPolicy ?? null)) {
    errors.push(
      invalid(
        'preemptionPolicy',
        typeof policy === 'string' ? goNamedString(policy) : null,
        'field is immutable',
      ),
    );
  }
  return errors;
}

/** The PriorityClass's entry in the served kinds. */
export const priorityClassKind: ResourceKind = builtinKind('scheduling.k8s.io', 'v1', 'priorityclasses', {
  defaults: defaultPriorityClass,
  validate: (obj, old) => (old ? validateObjectMeta(obj) : validatePriorityClass(obj)),
  validateUpdate: validatePriorityClassUpdate,
  // PrepareForCreate sets generation 1, which no update moves (PrepareForUpdate does nothing).
  prepareForCreate: (obj) => {
    if (obj.metadata) obj.metadata.generation = 1;
  },
  prepareForUpdate: (obj, old) => {
    if (obj.metadata && old.metadata?.generation !== undefined)
      obj.metadata.generation = old.metadata.generation;
  },
  cells: {
    Value: (o) => (typeof o.value === 'number' ? o.value : 0),
    'Global-Default': (o) => o.globalDefault === true,
    Age: ageColumn.cell,
    PreemptionPolicy: (o) => str(o.preemptionPolicy),
  },
});
