/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their
 * bindings: entries, defaults (pkg/apis/admissionregistration/v1/defaults.go and
 * zz_generated.defaults.go), strategies (pkg/registry/admissionregistration/<kind>/strategy.go:
 * generation 1 on create and bumped by any change of the spec, a policy's status reset on
 * create and kept on update, no create by PUT, no unconditional update) and Table cells
 * (printers.go `printValidatingAdmissionPolicy`, `printValidatingAdmissionPolicyBinding` and
 * the mutating ones). Enforcing the policies on writes is the admission chain's job, not theirs.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, objects, rec, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import type { FieldError } from '../types.js';
import { invalid } from '../validation.js';
import {
  validateMutatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyBinding,
} from './binding-validation.js';
import {
  validateMutatingAdmissionPolicy,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyStatus,
} from './policy-validation.js';

const GROUP = 'admissionregistration.k8s.io';

/** `SetDefaults_MatchResources` and `SetDefaults_Rule` of each of its rules. */
function defaultMatchResources(mc: unknown): void {
  if (!isObject(mc)) return;
  mc.matchPolicy ??= 'Equivalent';
  mc.namespaceSelector ??= {};
  mc.objectSelector ??= {};
  for (const rule of [...objects(mc.resourceRules), ...objects(mc.excludeResourceRules)]) rule.scope ??= '*';
}

/** `SetObjectDefaults_ValidatingAdmissionPolicy` / `..._MutatingAdmissionPolicy`: failurePolicy Fail, the match constraints. */
function defaultPolicy(obj: KubeObject): void {
  if (!isObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Record<string, unknown>;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

/** `SetObjectDefaults_*AdmissionPolicyBinding`: the match resources, when given. */
function defaultBinding(obj: KubeObject): void {
  defaultMatchResources(rec(obj.spec).matchResources);
}

/** validation/static_suffix.go `StaticConfigSuffix`: names kept for manifest-based configurations. */
const STATIC_SUFFIX = '.static.k8s.io';

/**
 * `ValidateStaticSuffix`, which the strategies add to a create's validation while the
 * ManifestBasedAdmissionControlConfig gate is on (beta, on by default in 1.37).
 */
function staticSuffix(obj: KubeObject): FieldError[] {
  const name = str(rec(obj.metadata).name);
  return name.endsWith(STATIC_SUFFIX)
    ? [
        invalid(
          'metadata.name',
          name,
          `names ending with "${STATIC_SUFFIX}" are reserved for static manifest-based configurations and cannot be managed via the API`,
        ),
      ]
    : [];
}

/** A create's validation: the kind's own, then the static suffix; an update's is the kind's alone. */
function withStaticSuffix(validate: (obj: KubeObject) => FieldError[]) {
  return (obj: KubeObject, old?: KubeObject): FieldError[] =>
    old === undefined ? [...validate(obj), ...staticSuffix(obj)] : validate(obj);
}

/** The ParamKind cell: `apiVersion/kind`, `<unset>` without one. */
function paramKindCell(o: KubeObject): string {
  const pk = rec(o.spec).paramKind;
  return isObject(pk) ? `${str(pk.apiVersion)}/${str(pk.kind)}` : '<unset>';
}

/** gogo-protobuf's `LabelSelector.String()`, which the binding's Param cell prints for a selector. */
function labelSelectorString(sel: Record<string, unknown>): string {
  const labels = rec(sel.matchLabels);
  const keys = Object.keys(labels).sort();
  const map = `map[string]string{${keys.map((k) => `${k}: ${str(labels[k])},`).join('')}}`;
  const reqs = objects(sel.matchExpressions)
    .map(
      (r) =>
        `LabelSelectorRequirement{Key:${str(r.key)},Operator:${str(r.operator)},Values:[${arr(r.values).map(str).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:${map},MatchExpressions:[]LabelSelectorRequirement{${reqs}},}`;
}

/** The Param cell of a binding: `namespace/name`, `*\/name` without a namespace, the selector, or `<unset>`. */
function paramRefCell(o: KubeObject): string {
  const pr = rec(o.spec).paramRef;
  if (!isObject(pr)) return '<unset>';
  const name = str(pr.name);
  if (name !== '') return `${str(pr.namespace) || '*'}/${name}`;
  if (isObject(pr.selector)) return labelSelectorString(pr.selector);
  return '<unset>';
}

const age = (o: KubeObject, now: number) => translateTimestampSince(o.metadata?.creationTimestamp, now);

const bindingCells = {
  PolicyName: (o: KubeObject) => str(rec(o.spec).policyName),
  ParamRef: paramRefCell,
  Age: age,
};

/**
 * apimachinery meta/v1 `ResetObjectMetaForStatus`: a `/status` write keeps the stored labels,
 * annotations, finalizers and owner references.
 */
export function resetMetaForStatus(obj: KubeObject, old: KubeObject): void {
  const meta = obj.metadata as Record<string, unknown>;
  const was = rec(old.metadata);
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (was[key] === undefined) delete meta[key];
    else meta[key] = was[key];
  }
}

/** The ValidatingAdmissionPolicy's entry. */
export const validatingAdmissionPolicyKind = builtinKind(GROUP, 'v1', 'validatingadmissionpolicies', {
  generationFields: ['spec'],
  defaults: (obj) => {
    defaultPolicy(obj);
    // A Go struct: never absent from what the server answers.
    obj.status ??= {};
  },
  validate: withStaticSuffix(validateValidatingAdmissionPolicy),
  // The status strategy's PrepareForUpdate: `metav1.ResetObjectMetaForStatus`.
  prepareForStatusUpdate: resetMetaForStatus,
  // `ValidateValidatingAdmissionPolicyStatusUpdate` (a main update keeps the stored status).
  validateUpdate: (obj) => validateValidatingAdmissionPolicyStatus(obj),
  allowUnconditionalUpdate: false,
  cells: {
    Validations: (o) => arr(rec(o.spec).validations).length,
    ParamKind: paramKindCell,
    Age: age,
  },
});

/** The ValidatingAdmissionPolicyBinding's entry. */
export const validatingAdmissionPolicyBindingKind = builtinKind(
  GROUP,
  'v1',
  'validatingadmissionpolicybindings',
  {
    generationFields: ['spec'],
    defaults: defaultBinding,
    validate: withStaticSuffix(validateValidatingAdmissionPolicyBinding),
    allowUnconditionalUpdate: false,
    cells: bindingCells,
  },
);

/** The MutatingAdmissionPolicy's entry. */
export const mutatingAdmissionPolicyKind = builtinKind(GROUP, 'v1', 'mutatingadmissionpolicies', {
  generationFields: ['spec'],
  defaults: defaultPolicy,
  validate: withStaticSuffix(validateMutatingAdmissionPolicy),
  allowUnconditionalUpdate: false,
  cells: {
    Mutations: (o) => arr(rec(o.spec).mutations).length,
    ParamKind: paramKindCell,
    Age: age,
  },
});

/** The MutatingAdmissionPolicyBinding's entry. */
export const mutatingAdmissionPolicyBindingKind = builtinKind(
  GROUP,
  'v1',
  'mutatingadmissionpolicybindings',
  {
    generationFields: ['spec'],
    defaults: defaultBinding,
    validate: withStaticSuffix(validateMutatingAdmissionPolicyBinding),
    allowUnconditionalUpdate: false,
    cells: bindingCells,
  },
);
